import { statfs } from "node:fs/promises";
import { ClauseGraphError } from "../model/errors.ts";

/**
 * What the library keeps free on its disk by default. Kuzu 0.11.3 does not survive running out of
 * space mid-checkpoint: a full disk while an index was being rebuilt left a database that no
 * longer opened ("Cannot find table catalog entry"). Its file also grows in large steps (a few
 * dozen sections grew it in one large step), so the margin is generous rather than exact.
 */
export const DEFAULT_MIN_FREE_BYTES = 256 * 2 ** 20;

function megabytes(bytes: number): string {
  return `${Math.max(0, Math.floor(bytes / 2 ** 20))} MB`;
}

/** Bytes an unprivileged writer can still use on the disk holding `dir`; null when unknown. */
export async function freeBytes(dir: string): Promise<number | null> {
  try {
    const s = await statfs(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/**
 * Refuses a write before it starts when the disk is nearly full, so the database is never left
 * half-written. An unknown figure (statfs unsupported) lets the write go ahead.
 */
export async function ensureFreeSpace(dir: string, minBytes: number, doing: string): Promise<void> {
  if (minBytes <= 0) return;
  const free = await freeBytes(dir);
  if (free === null || free >= minBytes) return;
  throw new ClauseGraphError(
    "WRITE_FAILED",
    `could not start ${doing}: the disk holding ${dir} is almost full (${megabytes(free)} free; ClauseGraph keeps at least ${megabytes(minBytes)} free so the library is never left half-written). Free some space and try again; nothing was changed.`,
    { file: dir },
  );
}
