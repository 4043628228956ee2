import { rename, rm, writeFile } from "node:fs/promises";
import { fileExists } from "../files/file-exists.ts";
import type { DocumentRecord, LibraryHealth } from "../model/store-records.ts";
import { removeSearchDatabases, searchDirectory } from "./search/search-database.ts";
import { removeVectorSnapshots } from "./kuzu/vector-snapshot.ts";
import { sectionFileDirectory } from "./section-files.ts";
import { findSourceCopy, readSourceRecord, type ImportOrigin } from "./source-record.ts";

// Repairing a damaged library means building it again from the kept source copies, into a new
// database beside the old one, and swapping the files. Removing only the damaged document's rows
// is not enough: the commit that lost them (hnsw-commit-guard.ts) kept edges whose ends point at
// node offsets that no longer hold a row, no query can reach them, and the next rows written at
// those offsets inherit them (a re-imported document came back with two IN_DOCUMENT edges per
// section). A rebuild re-derives every document with the current pipeline and leaves nothing of
// the old files in use; the old database is kept beside it as `graph.kuzu.damaged-<time>`.
//
// The swap is crash-safe: the new database is complete and closed before the `.rebuilt.done`
// marker is written, and an engine that finds the marker at start finishes the swap; a rebuilt
// database without the marker is an interrupted rebuild and is deleted.

export interface RebuildItem {
  documentId: string;
  /** The file to import: the kept copy, or the original path when no copy exists. */
  source: string;
  origin: ImportOrigin;
}

export interface RebuildPlan {
  items: RebuildItem[];
  /** Documents without any readable file: they cannot be rebuilt. */
  missing: Array<{ documentId: string; fileName: string | null }>;
}

export const rebuiltPath = (dbPath: string): string => `${dbPath}.rebuilt`;
const donePath = (dbPath: string): string => `${dbPath}.rebuilt.done`;

/** The user's alias edits to carry over (the registry's aliases are found again at the re-import). */
function userAliasEdits(from: {
  userAliases?: string[] | undefined;
  hiddenAliases?: string[] | undefined;
}): Pick<ImportOrigin, "userAliases" | "hiddenAliases"> {
  return {
    ...((from.userAliases?.length ?? 0) > 0 ? { userAliases: from.userAliases } : {}),
    ...((from.hiddenAliases?.length ?? 0) > 0 ? { hiddenAliases: from.hiddenAliases } : {}),
  };
}

/** Every listed document and every damaged one, in import order, each with the file to read. */
export async function planRebuild(dataDir: string, listed: readonly DocumentRecord[], health: LibraryHealth): Promise<RebuildPlan> {
  const plan: RebuildPlan = { items: [], missing: [] };
  const damaged = new Set(health.damaged.map((d) => d.documentId));
  for (const doc of listed) {
    if (damaged.has(doc.id)) continue;
    const copy = await findSourceCopy(dataDir, doc.id);
    const source = copy ?? ((await fileExists(doc.file)) ? doc.file : null);
    if (source === null) plan.missing.push({ documentId: doc.id, fileName: doc.fileName });
    else
      plan.items.push({ documentId: doc.id, source, origin: { file: doc.file, fileName: doc.fileName, importedAt: doc.importedAt, ...userAliasEdits(doc) } });
  }
  for (const d of health.damaged) {
    const record = await readSourceRecord(dataDir, d.documentId);
    if (d.sourceFile === null) {
      plan.missing.push({ documentId: d.documentId, fileName: d.fileName });
      continue;
    }
    plan.items.push({
      documentId: d.documentId,
      source: d.sourceFile,
      origin: {
        file: record?.file ?? d.sourceFile,
        fileName: record?.fileName ?? d.fileName ?? d.sourceFile.split(/[\\/]/).pop() ?? d.documentId,
        ...(record ? { importedAt: record.importedAt, ...userAliasEdits(record) } : {}),
      },
    });
  }
  return plan;
}

export async function removeRebuilt(dbPath: string): Promise<void> {
  for (const file of [rebuiltPath(dbPath), `${rebuiltPath(dbPath)}.wal`, donePath(dbPath)]) await rm(file, { force: true });
  await removeSearchDatabases(rebuiltPath(dbPath));
}

/** Marks the rebuilt database complete; from here on a start finishes the swap. */
export async function markRebuilt(dbPath: string): Promise<void> {
  await writeFile(donePath(dbPath), `${new Date().toISOString()}\n`, { mode: 0o600 });
}

/**
 * Puts a complete rebuilt database in place of the library's (the old one is kept as
 * `<db>.damaged-<time>`); deletes an incomplete one. Returns the backup's path, or null when
 * there was nothing to swap. Call with the database closed.
 */
export async function finishRebuild(dbPath: string, log: (message: string) => void): Promise<string | null> {
  const rebuilt = rebuiltPath(dbPath);
  if (!(await fileExists(rebuilt))) {
    await rm(donePath(dbPath), { force: true });
    return null;
  }
  if (!(await fileExists(donePath(dbPath)))) {
    await removeRebuilt(dbPath);
    log("removed an interrupted library rebuild; the library is as it was before it");
    return null;
  }
  const backup = `${dbPath}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  if (await fileExists(dbPath)) await rename(dbPath, backup);
  if (await fileExists(`${dbPath}.wal`)) await rename(`${dbPath}.wal`, `${backup}.wal`);
  await rename(rebuilt, dbPath);
  await rm(`${rebuilt}.wal`, { force: true });
  // The rebuilt library's search index is of the same documents: it moves with it. The vectors'
  // snapshots and section files were the damaged library's: its replacement starts without.
  await removeVectorSnapshots(dbPath);
  await rm(sectionFileDirectory(dbPath), { recursive: true, force: true });
  await removeSearchDatabases(dbPath);
  await rename(searchDirectory(rebuilt), searchDirectory(dbPath)).catch(() => undefined);
  await rm(donePath(dbPath), { force: true });
  log(`library rebuilt; the damaged database is kept as ${backup}`);
  return backup;
}
