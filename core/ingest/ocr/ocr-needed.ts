import path from "node:path";
import { ClauseGraphError } from "../../model/errors.ts";
import type { OcrOffer } from "../../model/ocr-types.ts";

// Mode `ask`: the import stops before any OCR with NEEDS_OCR and what reading it would take, so
// the UI can ask "This PDF is scanned — read it with OCR (about N s)?" and import again with the
// answer. Nothing was stored; reading the text pages again costs pdf.js milliseconds.

/**
 * Seconds one Tesseract worker needs for a page, rendering included: `npm run bench:ocr` on the
 * corpus's letter-size scans (2-core machine) rounded up; a loaded machine takes longer.
 */
const SECONDS_PER_PAGE = 4;
/** Starting the workers and loading the language data. */
const START_SECONDS = 2;

/** The estimate: from this machine's measured pace (all workers together) when known. */
export function estimateOcrSeconds(pages: number, workers: number, measuredSecondsPerPage?: number): number {
  const perPage = measuredSecondsPerPage ?? SECONDS_PER_PAGE / Math.max(1, workers);
  return Math.ceil(START_SECONDS + pages * perPage);
}

export class OcrNeededError extends ClauseGraphError {
  readonly offer: OcrOffer;

  constructor(file: string, offer: OcrOffer) {
    const what =
      offer.pages === offer.totalPages
        ? `is scanned (${offer.pages === 1 ? "1 page" : `${offer.pages} pages`} without a text layer)`
        : `has ${offer.pages} scanned page${offer.pages === 1 ? "" : "s"} of ${offer.totalPages}`;
    super("NEEDS_OCR", `${path.basename(file)} ${what}: reading it with OCR takes about ${offer.estimatedSeconds} s.`, { file });
    this.name = "OcrNeededError";
    this.offer = offer;
  }
}
