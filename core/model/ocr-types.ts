import { z } from "zod";

// What OCR adds to an import, as plain data shared by the engine, the contract and the UI (no Node
// built-ins here: the renderer imports it through the contract).

/**
 * How an import treats pages without a usable text layer. `auto` (CLI and engine default) reads
 * them with OCR; `ask` stops with NEEDS_OCR and an offer (page count, time estimate) so the UI can
 * ask the user first; `always` OCRs every page, text layer or not; `never` keeps the old refusal
 * (NO_TEXT_LAYER for a PDF that is only scans).
 */
export const OCR_MODES = ["ask", "auto", "always", "never"] as const;
export type OcrMode = (typeof OCR_MODES)[number];
export const ocrModeSchema = z.enum(OCR_MODES);

/** Tesseract language data installed from npm (@tesseract.js-data/*): never fetched at run time. */
export const OCR_LANGUAGES = ["eng", "ita"] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];
export const ocrLanguageSchema = z.enum(OCR_LANGUAGES);

/**
 * A page whose words Tesseract is on average less sure of than this (0–100) is flagged "OCR, low
 * confidence". Measured with tesseract.js 7 (LSTM, best_int data, pages rendered at 144 dpi; bench:ocr):
 * the corpus's scans read almost without errors (the slightly rotated, noisy HIPAA scan, a
 * two-column brochure, a book page with an engraving) all score above this, while low-resolution
 * fax pages whose text comes out garbled ("stein every fax recon for seven years afer moeipt")
 * score well below it.
 */
export const LOW_OCR_CONFIDENCE = 80;

/** What a NEEDS_OCR refusal (mode `ask`) offers the user. */
export const ocrOfferSchema = z.object({
  /** Pages that would be read with OCR. */
  pages: z.int().nonnegative(),
  /** Pages of the file. */
  totalPages: z.int().nonnegative(),
  /** Rough wall-clock seconds for those pages on this machine. */
  estimatedSeconds: z.int().nonnegative(),
});
export type OcrOffer = z.infer<typeof ocrOfferSchema>;

/** A document's OCR, as the library lists it (DocumentRecord.ocr; absent when nothing was OCR'd). */
export const ocrSummarySchema = z.object({
  /** 1-based numbers of the pages read with OCR. */
  pages: z.array(z.int().positive()),
  /** Those of them whose mean confidence is below LOW_OCR_CONFIDENCE. */
  lowConfidencePages: z.array(z.int().positive()),
  /** Mean word confidence over the OCR'd pages, 0–100. */
  meanConfidence: z.number().min(0).max(100),
  language: ocrLanguageSchema,
});
export type OcrSummary = z.infer<typeof ocrSummarySchema>;

/** The OCR facts of one page (ParsedPage.ocr). */
export interface OcrPageFacts {
  /** Mean word confidence, 0–100. */
  confidence: number;
  language: OcrLanguage;
}

/** The document summary from the facts of its pages; null when no page was OCR'd. */
export function summarizeOcr(pages: ReadonlyArray<{ number: number; ocr?: OcrPageFacts | undefined }>): OcrSummary | null {
  const ocr = pages.flatMap((p) => (p.ocr === undefined ? [] : [{ number: p.number, ...p.ocr }]));
  const first = ocr[0];
  if (first === undefined) return null;
  const mean = ocr.reduce((sum, p) => sum + p.confidence, 0) / ocr.length;
  return {
    pages: ocr.map((p) => p.number),
    lowConfidencePages: ocr.filter((p) => p.confidence < LOW_OCR_CONFIDENCE).map((p) => p.number),
    meanConfidence: Math.round(mean * 10) / 10,
    language: first.language,
  };
}

/** The pages of [pageStart, pageEnd] read with OCR at low confidence: a citation of them says "OCR, low confidence". */
export function lowConfidenceOcrPages(ocr: OcrSummary | undefined, pageStart: number, pageEnd: number): number[] {
  return ocr === undefined ? [] : ocr.lowConfidencePages.filter((p) => p >= pageStart && p <= pageEnd);
}
