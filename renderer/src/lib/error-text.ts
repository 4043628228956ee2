import type { ErrorInfo } from "../../../core/contract/contract.ts";

// What each error code means to an auditor, in plain words. The engine's message stays available
// as a detail line for support, but the headline never shows a code or a stack.
const HEADLINES: Record<ErrorInfo["code"], string> = {
  EMPTY: "This file is empty",
  CORRUPT: "This file is damaged or is not a valid PDF",
  ENCRYPTED: "This PDF is password-protected",
  WRONG_PASSWORD: "That password did not open this PDF",
  NO_TEXT_LAYER: "This PDF is scanned and no text could be read from it",
  NEEDS_OCR: "This PDF is scanned: its pages must be read with OCR",
  UNSUPPORTED_TYPE: "Only PDF, plain-text and Markdown files can be imported",
  FILE_NOT_FOUND: "The file could not be found",
  FILE_UNREADABLE: "The file could not be read",
  WRITE_FAILED: "ClauseGraph could not write to its library folder (disk full, read-only or failing)",
  TOO_LARGE: "This file is too large to import",
  TOO_COMPLEX: "This file is too complex to read safely (it may be malformed or built to overload a reader)",
  NOT_FOUND: "It is no longer in the library",
  DB_LOCKED: "The library is open in another ClauseGraph window or command",
  DB_ERROR: "The library database reported a problem",
  SCHEMA_MISMATCH: "The library was created by a different version of ClauseGraph",
  VALIDATION: "ClauseGraph could not understand that request",
  FORBIDDEN: "ClauseGraph may only open files you chose (drop them on the window or pick them)",
  BUSY: "ClauseGraph is receiving other files; try this one again in a moment",
  CANCELLED: "Cancelled",
  MODEL_NOT_FOUND: "That language model could not be found (not installed, or no such file)",
  MODEL_INVALID: "A language model file is damaged or of the wrong kind",
  MODEL_TOO_LARGE_FOR_RAM: "The language model needs more memory than this computer has free",
  MODEL_TIMEOUT: "The language model took too long to load or answer",
  INTERNAL: "Something went wrong inside ClauseGraph",
};

export function errorHeadline(error: ErrorInfo): string {
  return HEADLINES[error.code];
}

/** Whether retrying with a password can help. */
export function needsPassword(error: ErrorInfo | undefined): boolean {
  return error?.code === "ENCRYPTED" || error?.code === "WRONG_PASSWORD";
}
