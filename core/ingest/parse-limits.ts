// Every limit that bounds the parsing of an untrusted file, and what it may yield, in one settings object.
// Parsing runs in a child process (parse-isolated.ts) that the engine watches and kills; a breach
// ends the import with TOO_COMPLEX naming the file, the page when known and the limit. Defaults
// fit an 8 GB laptop with the engine (its peak is measured by bench:ingest) and the rest of a desktop
// running; EngineOptions.parseLimits overrides any of them (tests use small ones to stay fast).

export interface ParseLimits {
  /** V8 old-space ceiling of the parsing child (--max-old-space-size), MB. */
  childHeapMb: number;
  /**
   * Resident memory of the parsing child, MB, polled from /proc (or reported by the child). pdf.js
   * inflates streams into typed arrays, which live outside the V8 heap limit: this catches them.
   */
  childRssMb: number;
  /** Wall-clock seconds for one page (opening the document and the pre-scan count as a page). */
  pageSeconds: number;
  /** Wall-clock seconds for a whole file: base + perPage × pages, never more than max. */
  fileSecondsBase: number;
  fileSecondsPerPage: number;
  fileSecondsMax: number;
  /** Bytes one FlateDecode stream may inflate to (content, metadata, fonts, images alike). */
  inflatedBytesPerStream: number;
  /** Bytes all FlateDecode streams of a file may inflate to together. */
  inflatedBytesPerFile: number;
  /** Content-stream operators on one page (its content streams together; each form XObject alone). */
  operatorsPerPage: number;
  /** Operators of every page together; a content stream shared by N pages counts N times. */
  operatorsPerFile: number;
  /** Text-showing operators (Tj, TJ, ', ") on one page: each becomes at least one pdf.js text item. */
  textItemsPerPage: number;
  /** Depth of q/Q graphics-state nesting, and of arrays and dictionaries, in a content stream. */
  nestingDepth: number;
  /**
   * Wall-clock seconds between two pages read with OCR (core/ingest/ocr/). Tesseract needs seconds
   * for a letter page alone on our 2-core machine (bench:ocr), several times that with two workers
   * on a loaded machine, and longest for a picture of 17 megapixels (the most we render).
   */
  ocrPageSeconds: number;
  /** Added to the file's budget per page read with OCR. */
  fileSecondsPerOcrPage: number;
  /**
   * What a file may yield once read, for the stages after parsing (sectioning, graph, vectors,
   * store): characters of text, sections, statements (triplets). The store's cost grows faster
   * than linearly with a document's sections and triplets, and its memory with its text; these keep
   * the worst file within the limits to about a minute and the engine's memory budget. The longest
   * regulations hold a few million characters and a few hundred sections.
   */
  documentTextChars: number;
  documentSections: number;
  documentTriplets: number;
}

const MB = 1024 * 1024;

export const DEFAULT_PARSE_LIMITS: Readonly<ParseLimits> = Object.freeze({
  childHeapMb: 1024,
  childRssMb: 1536,
  pageSeconds: 30,
  fileSecondsBase: 120,
  fileSecondsPerPage: 0.5,
  fileSecondsMax: 20 * 60,
  inflatedBytesPerStream: 128 * MB,
  inflatedBytesPerFile: 2048 * MB,
  operatorsPerPage: 1_000_000,
  operatorsPerFile: 50_000_000,
  textItemsPerPage: 200_000,
  nestingDepth: 256,
  ocrPageSeconds: 120,
  fileSecondsPerOcrPage: 30,
  documentTextChars: 8_000_000,
  documentSections: 5_000,
  documentTriplets: 16_000,
});

/** The defaults with the given overrides; non-positive or non-finite overrides are ignored. */
export function resolveParseLimits(overrides: Partial<ParseLimits> = {}): ParseLimits {
  const limits: ParseLimits = { ...DEFAULT_PARSE_LIMITS };
  for (const key of Object.keys(limits) as Array<keyof ParseLimits>) {
    const value = overrides[key];
    if (typeof value === "number" && Number.isFinite(value) && value > 0) limits[key] = value;
  }
  return limits;
}

/**
 * The file's wall-clock budget once its page count is known (before: the base alone), plus the
 * OCR budget of the pages read with OCR (outside fileSecondsMax: a long scanned book needs more
 * than that on two cores, and every OCR page is also bounded by ocrPageSeconds).
 */
export function fileSeconds(limits: ParseLimits, pages: number | undefined, ocrPages = 0): number {
  return Math.min(limits.fileSecondsMax, limits.fileSecondsBase + limits.fileSecondsPerPage * (pages ?? 0)) + limits.fileSecondsPerOcrPage * ocrPages;
}
