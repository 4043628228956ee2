import { rename, rm, writeFile } from "node:fs/promises";
import { fileExists } from "../../files/file-exists.ts";
import { toErrorInfo } from "../../model/errors.ts";
import { cypherString, drain, LIBRARY_MAX_BYTES, newDatabase, openConnection } from "./driver.ts";
import type { KuzuSession } from "./session.ts";

// Kuzu 0.11.3 does not reuse every page a delete frees, so a library whose documents are deleted
// and imported again keeps growing its file, and with the file what Kuzu keeps in memory per page
// and the buffer pool sized from it (memory-plan.ts): a long session's memory grew with its
// re-imports. Compacting writes the library's rows out (EXPORT DATABASE) and reads them into a
// fresh database (IMPORT DATABASE, indexes included), which holds only live pages; once every
// table's row count agrees, the fresh file takes the old one's place.
//
// The swap is crash-safe like a rebuild's (library-rebuild.ts): the fresh database is complete
// and closed before `.compacted.done` is written; a start that finds the marker finishes the
// swap, and a fresh database without it is an interrupted compaction and is deleted.

/** Below this a library's file is never compacted: what it could give back is not worth a swap. */
export const COMPACT_MIN_BYTES = 64 * 2 ** 20;
/** A file this many times its size after the last compaction (or import) is compacted. */
export const COMPACT_GROWTH = 2;

export const compactedPath = (dbPath: string): string => `${dbPath}.compacted`;
const donePath = (dbPath: string): string => `${dbPath}.compacted.done`;
const dumpPath = (dbPath: string): string => `${dbPath}.compact-dump`;
const previousPath = (dbPath: string): string => `${dbPath}.precompact`;

/** Whether a library file of `fileBytes` is due, `liveBytes` being its size when last compacted. */
export function compactionDue(fileBytes: number, liveBytes: number | undefined, minBytes = COMPACT_MIN_BYTES): boolean {
  return fileBytes >= minBytes && fileBytes >= COMPACT_GROWTH * (liveBytes ?? 0);
}

async function removeFresh(dbPath: string): Promise<void> {
  for (const file of [compactedPath(dbPath), `${compactedPath(dbPath)}.wal`, donePath(dbPath)]) await rm(file, { force: true });
  await rm(dumpPath(dbPath), { recursive: true, force: true });
}

async function nodeCounts(run: (cypher: string) => Promise<Array<Record<string, unknown>>>): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const t of await run("CALL show_tables() RETURN name, type")) {
    if (t.type !== "NODE" || typeof t.name !== "string") continue;
    const [row] = await run(`MATCH (n:\`${t.name}\`) RETURN count(*) AS n`);
    counts.set(t.name, Number(row?.n ?? -1));
  }
  return counts;
}

/**
 * Writes the rows `writer` sees into a fresh database beside the library and marks it complete.
 * Call between writes (nothing may change the library until the swap). Throws, leaving nothing
 * behind, when the fresh database's row counts differ from the library's.
 */
export async function writeCompacted(writer: KuzuSession, dbPath: string, poolBytes: number): Promise<void> {
  await removeFresh(dbPath);
  try {
    await writer.run(`EXPORT DATABASE ${cypherString(dumpPath(dbPath))} (format='parquet')`);
    const before = await nodeCounts((cypher) => writer.run(cypher));
    const db = newDatabase(compactedPath(dbPath), { bufferPoolBytes: poolBytes, readOnly: false, maxBytes: LIBRARY_MAX_BYTES });
    try {
      await db.init();
      const conn = await openConnection(db);
      const run = async (cypher: string): Promise<Array<Record<string, unknown>>> => drain(await conn.query(cypher));
      try {
        await run(`IMPORT DATABASE ${cypherString(dumpPath(dbPath))}`);
        await run("CHECKPOINT");
        const after = await nodeCounts(run);
        const differs = [...before].filter(([table, n]) => after.get(table) !== n);
        if (differs.length > 0 || after.size !== before.size) {
          throw new Error(`the compacted copy differs from the library (${differs.map(([t, n]) => `${t}: ${n} → ${after.get(t) ?? "none"}`).join(", ")})`);
        }
      } finally {
        await conn.close();
      }
    } finally {
      await db.close();
    }
    await rm(dumpPath(dbPath), { recursive: true, force: true });
    await writeFile(donePath(dbPath), `${new Date().toISOString()}\n`, { mode: 0o600 });
  } catch (err) {
    await removeFresh(dbPath);
    throw err;
  }
}

/**
 * With the library closed: puts a complete compacted database in place of the library's (the old
 * file kept as `.precompact` until `dropPrevious`), or deletes an interrupted one. True when swapped.
 */
async function finishCompaction(dbPath: string, log: (message: string) => void): Promise<boolean> {
  const fresh = compactedPath(dbPath);
  if (!(await fileExists(donePath(dbPath)))) {
    if (await fileExists(fresh)) log("removed an interrupted compaction; the library is as it was before it");
    await removeFresh(dbPath);
    // A crash between the two renames below leaves the library under its old name; one after the
    // swap, before the old file was dropped, leaves that file behind.
    if (!(await fileExists(dbPath)) && (await fileExists(previousPath(dbPath)))) await restorePrevious(dbPath);
    else await dropPrevious(dbPath);
    return false;
  }
  if (await fileExists(fresh)) {
    await dropPrevious(dbPath);
    if (await fileExists(dbPath)) await rename(dbPath, previousPath(dbPath));
    // The old file's log goes with it: the compacted one starts without.
    if (await fileExists(`${dbPath}.wal`)) await rename(`${dbPath}.wal`, `${previousPath(dbPath)}.wal`);
    await rename(fresh, dbPath);
    await rm(`${fresh}.wal`, { force: true });
  }
  await rm(donePath(dbPath), { force: true });
  return true;
}

/**
 * Opens the library with `open`, first putting a complete compacted copy in its place; a copy
 * that does not open gives the place back to the old file.
 */
export async function openFinishingCompaction<T>(dbPath: string, readOnly: boolean, log: (message: string) => void, open: () => Promise<T>): Promise<T> {
  const swapped = !readOnly && (await finishCompaction(dbPath, log));
  let opened: T;
  try {
    opened = await open();
  } catch (err) {
    if (!swapped) throw err;
    log(`the compacted library did not open (${toErrorInfo(err).message}): the library is as it was`);
    await restorePrevious(dbPath);
    opened = await open();
  }
  if (swapped) await dropPrevious(dbPath);
  return opened;
}

/** Puts the old file back after a compacted library failed to open. */
async function restorePrevious(dbPath: string): Promise<void> {
  if (!(await fileExists(previousPath(dbPath)))) return;
  await rm(dbPath, { force: true });
  await rm(`${dbPath}.wal`, { force: true });
  await rename(previousPath(dbPath), dbPath);
  if (await fileExists(`${previousPath(dbPath)}.wal`)) await rename(`${previousPath(dbPath)}.wal`, `${dbPath}.wal`);
}

async function dropPrevious(dbPath: string): Promise<void> {
  for (const file of [previousPath(dbPath), `${previousPath(dbPath)}.wal`]) await rm(file, { force: true });
}
