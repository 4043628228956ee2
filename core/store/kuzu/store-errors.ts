import { ClauseGraphError, isClauseGraphError } from "../../model/errors.ts";

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

// Kuzu reports the OS error in words ("IO exception: Cannot open file …: Read-only file system");
// Node reports it as a code. Either, or the same inside a wrapped cause.
const READ_ONLY_PATTERN = /read-only file system/i;
const NO_SPACE_PATTERN = /no space left on device/i;

function chainHas(err: unknown, pattern: RegExp, code: string): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (pattern.test(e.message) || (e as NodeJS.ErrnoException).code === code) return true;
  }
  return false;
}

export function isReadOnlyFsError(err: unknown): boolean {
  return chainHas(err, READ_ONLY_PATTERN, "EROFS");
}

export function isNoSpaceError(err: unknown): boolean {
  return chainHas(err, NO_SPACE_PATTERN, "ENOSPC");
}

/** Any failure from Kuzu as a ClauseGraphError naming the database file. */
export function toStoreError(err: unknown, dbPath: string, doing: string): ClauseGraphError {
  if (isClauseGraphError(err)) return err;
  if (isLockError(err)) {
    return new ClauseGraphError("DB_LOCKED", `the database ${dbPath} is in use by another process (close the other ClauseGraph window or command and retry)`, {
      file: dbPath,
      cause: err,
    });
  }
  if (isNoSpaceError(err)) {
    return new ClauseGraphError("WRITE_FAILED", `the disk is full: Kuzu could not write ${dbPath} while ${doing} (${messageOf(err)})`, {
      file: dbPath,
      cause: err,
    });
  }
  if (isReadOnlyFsError(err)) {
    return new ClauseGraphError("WRITE_FAILED", `the disk holding ${dbPath} is read-only: ${doing} is not possible (${messageOf(err)})`, {
      file: dbPath,
      cause: err,
    });
  }
  return new ClauseGraphError("DB_ERROR", `database error while ${doing}: ${messageOf(err)}`, {
    file: dbPath,
    cause: err,
  });
}

// Kuzu's words when a statement needs more pages pinned than its buffer pool holds.
const POOL_FULL_PATTERN = /buffer pool is full|unable to allocate memory/i;

/** The statement failed because the database's buffer pool was too small for it (retry with a larger one). */
export function isPoolFullError(err: unknown): boolean {
  return chainHas(err, POOL_FULL_PATTERN, "");
}
