import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";

// pdfjs reports problems as its own exception classes, which cross the (fake) worker boundary as
// plain objects with a name and code: we match on those, not on instanceof.

/** pdfjs PasswordResponses. */
const NEED_PASSWORD = 1;
const INCORRECT_PASSWORD = 2;

function field(err: unknown, key: string): unknown {
  return typeof err === "object" && err !== null && key in err ? (err as Record<string, unknown>)[key] : undefined;
}

export function errorMessage(err: unknown): string {
  const message = field(err, "message");
  return typeof message === "string" ? message : String(err);
}

/** Maps an exception from getDocument to a user-facing error. */
export function mapOpenError(err: unknown, file: string, passwordGiven: boolean): ClauseGraphError {
  if (err instanceof ClauseGraphError) return err;
  const name = path.basename(file);
  if (field(err, "name") === "PasswordException") {
    const code = field(err, "code");
    if (code === INCORRECT_PASSWORD || (code === NEED_PASSWORD && passwordGiven)) {
      return new ClauseGraphError("WRONG_PASSWORD", `${name}: the password is wrong.`, { file, cause: err });
    }
    return new ClauseGraphError("ENCRYPTED", `${name} is encrypted: a password is required to open it.`, {
      file,
      cause: err,
    });
  }
  return new ClauseGraphError("CORRUPT", `${name} is damaged and cannot be read as a PDF (${errorMessage(err)}).`, {
    file,
    cause: err,
  });
}

export function damagedPageError(err: unknown, file: string, page: number): ClauseGraphError {
  if (err instanceof ClauseGraphError) return err;
  return new ClauseGraphError(
    "CORRUPT",
    `${path.basename(file)} is truncated or damaged: page ${page} cannot be read (${errorMessage(err)}). Partial documents are not imported.`,
    { file, cause: err },
  );
}
