import type { OcrLanguage, OcrMode, OcrPageFacts } from "./ocr-types.ts";

// The output of the ingest stage: what a document prints, in reading order, with where it is on
// the page. Sectioning and the UI's highlighting both depend on these coordinates.

/** A box in PDF user space of its page, origin at the top-left (y grows downwards), in points. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TextLine {
  /** 1-based page number. */
  page: number;
  text: string;
  box: Box;
  /** Dominant font size of the line, in points. */
  fontSize: number;
  /** True when the dominant font of the line is bold (from the font name). */
  bold: boolean;
  /** 0-based column index on the page (0 for single-column pages). */
  column: number;
}

export interface ParsedPage {
  /** 1-based. */
  number: number;
  width: number;
  height: number;
  /** Body lines in reading order, running headers/footers and page numbers removed. */
  lines: TextLine[];
  /** Footnote lines, kept apart from the body. */
  footnotes: TextLine[];
  /** The page number printed on the page when it differs from `number` ("53" on PDF page 54; see page-labels.ts). */
  label?: string;
  /** Present when the page was read with OCR (its lines come from the page's picture). */
  ocr?: OcrPageFacts;
}

export type SourceFormat = "pdf" | "text" | "markdown";

export interface ParsedDocument {
  /** Absolute path of the file as given. */
  file: string;
  format: SourceFormat;
  sha256: string;
  bytes: number;
  /** Title from metadata or the first heading; falls back to the file name. */
  title: string;
  /** BCP-47 primary language guess ("en", "it", …) or "und". */
  language: string;
  pageCount: number;
  pages: ParsedPage[];
  /** Non-fatal observations (e.g. "owner-password protected: opened without password"). */
  warnings: string[];
}

/** How pages without a usable text layer are read (core/ingest/ocr/). */
export interface OcrParseOptions {
  mode: OcrMode;
  /** The user's choice; guessed from the first OCR'd page otherwise. */
  language?: OcrLanguage;
  /** Where finished pages are cached so an interrupted import resumes (ocr-cache.ts). */
  cacheDir?: string;
  /** Tesseract workers; by default one per core within the memory limit (tesseract-pool.ts). */
  workers?: number;
  /** Seconds per page measured on this machine's earlier OCR imports (ocr-pace.ts), for the estimate. */
  secondsPerPage?: number;
}

export interface ParseOptions {
  password?: string;
  /** Default: mode "never" (the engine passes its own, "auto" unless told otherwise). */
  ocr?: OcrParseOptions;
  /** Before the first OCR'd page: how many pages will be read with OCR. */
  onOcrStart?: (pages: number) => void;
  /** After each OCR'd page. */
  onOcrPage?: (done: number, total: number) => void;
  /** Stop parsing and throw CANCELLED when aborted. */
  signal?: AbortSignal;
  /** Called after each page. */
  onPage?: (page: number, total: number) => void;
}
