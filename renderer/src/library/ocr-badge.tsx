import type { OcrSummary } from "../../../core/contract/contract.ts";
import { LOW_OCR_CONFIDENCE } from "../../../core/contract/contract.ts";

// A library row says which pages were read with OCR and flags those Tesseract was unsure of: their
// text (and any citation of them) should be checked against the scan.

function pageList(pages: readonly number[]): string {
  const shown = pages.slice(0, 6).join(", ");
  return pages.length > 6 ? `${shown} …` : shown;
}

export function OcrBadge({ ocr }: { ocr: OcrSummary }) {
  const low = ocr.lowConfidencePages;
  const read = `${ocr.pages.length === 1 ? "1 page" : `${ocr.pages.length} pages`} read with OCR (${ocr.language === "ita" ? "Italian" : "English"}), mean confidence ${Math.round(ocr.meanConfidence)}`;
  return low.length === 0 ? (
    <span className="ocr-badge" data-testid="document-ocr" title={read}>
      OCR
    </span>
  ) : (
    <span
      className="ocr-badge low"
      data-testid="document-ocr-low"
      title={`${read}. Below ${LOW_OCR_CONFIDENCE} on ${low.length === 1 ? "page" : "pages"} ${pageList(low)}: check the text against the scan.`}
    >
      OCR, low confidence · {low.length === 1 ? "p." : "pp."} {pageList(low)}
    </span>
  );
}
