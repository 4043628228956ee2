import { readFile, rename, stat, writeFile } from "node:fs/promises";
import os from "node:os";

// How much memory Kuzu may hold for a library. Kuzu reserves a buffer pool per database and
// fills it as pages are used; a statement that needs more pinned at once than the pool holds
// fails ("the buffer pool is full"). A fixed pool worked for ten PDFs and broke a 52-document
// library, so the pool is sized from what the database holds, between a floor (small libraries
// keep the memory they always had) and a ceiling taken from the machine, and grown when a
// statement proves it too small.
//
// Why the file and not the live contents: Kuzu 0.11.3 keeps the rows a delete removes until every
// row of their node group is gone, and a write's checkpoint rewrites each column chunk it appends
// to in memory, those rows included. So what a write needs grows with the deletes and re-imports
// a library has seen, as its file does; a pool sized from the live sections alone was filled by an
// ordinary import in the mixed soak (docs/crash-safety.md).

const MB = 1024 * 1024;

/** The smallest pool of the library database. */
export const LIBRARY_POOL_FLOOR = 96 * MB;
/**
 * The library's pool covers this share of its database file: its hot pages, not all of it, with
 * headroom (an insert filled a pool of a fifth of its library's file: docs/benchmarks/scale.md).
 */
export const LIBRARY_POOL_SHARE = 0.4;
/** A library whose size calls for this many times its pool is reopened with a larger one before its next write. */
export const POOL_REGROW = 1.25;
/**
 * Pool bytes storing one document needs per character of its text (its sections, statements and
 * vectors go in one transaction): sized on a long text on one line, which filled a pool of half this per character
 * and fitted one of this.
 */
export const WRITE_POOL_PER_CHAR = 48;
/** No pool takes more than this share of the machine's memory (nor more than POOL_CAP). */
export const POOL_MACHINE_SHARE = 0.25;
const POOL_CAP = 4096 * MB;
/** A pool found too small is retried at this many times its size, up to the ceiling. */
export const POOL_GROWTH = 2;

export function poolCeiling(totalMemory = os.totalmem()): number {
  return Math.max(LIBRARY_POOL_FLOOR, Math.min(POOL_CAP, Math.floor(totalMemory * POOL_MACHINE_SHARE)));
}

function clamp(bytes: number, floor: number, ceiling: number): number {
  return Math.min(ceiling, Math.max(floor, Math.ceil(bytes / MB) * MB));
}

/** The library's pool: from its file's size, at least what an earlier statement proved it needs. */
export function libraryPoolBytes(fileBytes: number, recorded: number, ceiling = poolCeiling()): number {
  return clamp(Math.max(fileBytes * LIBRARY_POOL_SHARE, recorded), LIBRARY_POOL_FLOOR, ceiling);
}

/**
 * The library pool storing a document of this much text in one transaction calls for; `learned`: a
 * write that needed more per character than WRITE_POOL_PER_CHAR (MemoryRecord.largeWrite).
 */
export function writePoolBytes(textChars: number, ceiling = poolCeiling(), learned?: LargeWrite): number {
  const perChar = Math.max(WRITE_POOL_PER_CHAR, learned && learned.chars > 0 ? learned.poolBytes / learned.chars : 0);
  return clamp(textChars * perChar, LIBRARY_POOL_FLOOR, ceiling);
}

/** The next size to try after `bytes` proved too small, or null at the ceiling. */
export function grownPool(bytes: number, ceiling = poolCeiling()): number | null {
  return bytes >= ceiling ? null : Math.min(ceiling, bytes * POOL_GROWTH);
}

/** A write that filled a pool its own size had raised: its text's size and the pool it was retried with. */
export interface LargeWrite {
  chars: number;
  poolBytes: number;
}

/** What the library's memory record (`<library>.memory.json`) holds. */
export interface MemoryRecord {
  /** The library pool a statement proved the library itself needs (0: none yet). */
  libraryPoolBytes: number;
  /** Why it was grown, for `clausegraph check`. */
  reason: string;
  at: string;
  /**
   * Set when a write larger than the library's pool filled the pool sized for it: later large
   * writes get its pool per character, and the library's own pool is not raised for good.
   */
  largeWrite?: LargeWrite;
  /** The library file's size right after it was last compacted (library-compaction.ts). */
  compactedBytes?: number;
}

/**
 * The record after a write filled a pool of `filledBytes` and is retried with `larger`. A write
 * that had raised the pool above what the library called for (`largeWrite`) teaches what writes
 * that large need; any other shows the library itself needs the larger pool from now on.
 */
export function recordFilledPool(
  record: MemoryRecord,
  failed: { doing: string; filledBytes: number; larger: number; writeChars: number; largeWrite: boolean },
  at = new Date(),
): MemoryRecord {
  const reason = `${failed.doing} filled a pool of ${Math.round(failed.filledBytes / MB)} MB`;
  if (failed.largeWrite && failed.writeChars > 0) {
    return { ...record, largeWrite: { chars: failed.writeChars, poolBytes: failed.larger }, reason, at: at.toISOString() };
  }
  return { ...record, libraryPoolBytes: failed.larger, reason, at: at.toISOString() };
}

export function memoryRecordPath(dbPath: string): string {
  return `${dbPath}.memory.json`;
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;

function readLargeWrite(value: unknown): LargeWrite | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { chars, poolBytes } = value as Record<string, unknown>;
  return isCount(chars) && isCount(poolBytes) ? { chars, poolBytes } : undefined;
}

export async function readMemoryRecord(dbPath: string): Promise<MemoryRecord> {
  try {
    const parsed: unknown = JSON.parse(await readFile(memoryRecordPath(dbPath), "utf8"));
    if (typeof parsed === "object" && parsed !== null) {
      const fields = parsed as Record<string, unknown>;
      const bytes = fields.libraryPoolBytes;
      if (isCount(bytes)) {
        const largeWrite = readLargeWrite(fields.largeWrite);
        const compacted = fields.compactedBytes;
        return {
          libraryPoolBytes: bytes,
          reason: typeof fields.reason === "string" ? fields.reason : "",
          at: typeof fields.at === "string" ? fields.at : "",
          ...(largeWrite ? { largeWrite } : {}),
          ...(isCount(compacted) ? { compactedBytes: compacted } : {}),
        };
      }
    }
  } catch {
    // No record (or an unreadable one): the pool follows the file's size alone.
  }
  return { libraryPoolBytes: 0, reason: "", at: "" };
}

/** Written whole and renamed into place, so a crash leaves the old record or the new one. */
export async function writeMemoryRecord(dbPath: string, record: MemoryRecord): Promise<void> {
  const file = memoryRecordPath(dbPath);
  await writeFile(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

export async function fileBytes(file: string): Promise<number> {
  return stat(file).then(
    (s) => s.size,
    () => 0,
  );
}
