import type { AskCitation } from "./ask-types.ts";

interface Props {
  citation: AskCitation;
  text: string;
  active: boolean;
  /** Cited pages read with OCR at low confidence (lowConfidenceOcrPages): the chip says so. */
  lowOcrPages?: readonly number[];
  onOpen(): void;
}

export function CitationChip({ citation, text, active, lowOcrPages = [], onOpen }: Props) {
  const lowOcr = lowOcrPages.length > 0;
  return (
    <button
      type="button"
      className={active ? "citation-chip active" : "citation-chip"}
      data-testid="citation-chip"
      data-section-id={citation.sectionId}
      title={`Open ${citation.label} (${citation.file})${lowOcr ? ` — read with OCR at low confidence: check the text against the scan` : ""}`}
      onClick={onOpen}
    >
      {text}
      {lowOcr ? (
        <span className="ocr-flag" data-testid="citation-ocr-low">
          {" "}
          · OCR, low confidence
        </span>
      ) : null}
    </button>
  );
}
