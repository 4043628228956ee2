import { ClauseGraphError, isClauseGraphError } from "../errors.ts";

// Kuzu throws plain Errors whose message is the only signal; these turn them into the codes the
// UI and the CLI explain. The lock message was seen with a second process opening the same file:
// "IO exception: Could not set lock on file : <path>".
const LOCK_PATTERN = /could not set lock on file/i;

export function isLockError(err: unknown): boolean {
  return err instanceof Error && LOCK_PATTERN.test(err.message);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Any failure from Kuzu as a ClauseGraphError naming the database file. */
export function toStoreError(err: unknown, dbPath: string, doing: string): ClauseGraphError {
  if (isClauseGraphError(err)) return err;
  if (isLockError(err)) {
    return new ClauseGraphError(
      "DB_LOCKED",
      `the database ${dbPath} is in use by another process (close the other ClauseGraph window or command and retry)`,
      { file: dbPath, cause: err },
    );
  }
  return new ClauseGraphError("DB_ERROR", `database error while ${doing}: ${messageOf(err)}`, {
    file: dbPath,
    cause: err,
  });
}
