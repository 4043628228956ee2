// Every failure that can reach a user carries a code from this union, so the CLI, the IPC layer and
// the UI can explain it in words and decide what to offer (e.g. ask for a password on ENCRYPTED).
export const ERROR_CODES = [
  "EMPTY",
  "CORRUPT",
  "ENCRYPTED",
  "WRONG_PASSWORD",
  "NO_TEXT_LAYER",
  // Scanned pages and an import that asked to be asked first (OCR mode "ask"): the result carries the offer.
  "NEEDS_OCR",
  "UNSUPPORTED_TYPE",
  "FILE_NOT_FOUND",
  "FILE_UNREADABLE",
  // Writing into the data folder failed: disk full, read-only or I/O error (see core/store/source-copy.ts).
  "WRITE_FAILED",
  "TOO_LARGE",
  // Parsing the file broke a limit (nesting, operators, inflated bytes, memory, time): core/ingest/parse-limits.ts.
  "TOO_COMPLEX",
  "NOT_FOUND",
  "DB_LOCKED",
  "DB_ERROR",
  "SCHEMA_MISMATCH",
  "VALIDATION",
  // A front end asked for something it may not: a path the user did not choose, a request without the session key.
  "FORBIDDEN",
  // The web host is already receiving as many uploads as it allows; try again shortly.
  "BUSY",
  "CANCELLED",
  "MODEL_NOT_FOUND",
  "MODEL_INVALID",
  "MODEL_TOO_LARGE_FOR_RAM",
  "MODEL_TIMEOUT",
  "INTERNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  file?: string;
}

export class ClauseGraphError extends Error {
  readonly code: ErrorCode;
  readonly file: string | undefined;

  constructor(code: ErrorCode, message: string, options: { file?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ClauseGraphError";
    this.code = code;
    this.file = options.file;
  }

  toInfo(): ErrorInfo {
    return this.file === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, file: this.file };
  }
}

export function isClauseGraphError(err: unknown): err is ClauseGraphError {
  return err instanceof ClauseGraphError;
}

/** Anything thrown, as the typed shape that crosses process boundaries. */
export function toErrorInfo(err: unknown, file?: string): ErrorInfo {
  if (err instanceof ClauseGraphError) {
    const info = err.toInfo();
    return info.file === undefined && file !== undefined ? { ...info, file } : info;
  }
  const message = err instanceof Error ? err.message : String(err);
  return file === undefined ? { code: "INTERNAL", message } : { code: "INTERNAL", message, file };
}
