import { mkdir } from "node:fs/promises";
import { fileExists } from "../../files/file-exists.ts";
import path from "node:path";
import { ClauseGraphError, toErrorInfo } from "../../model/errors.ts";
import { cypherString, LIBRARY_MAX_BYTES, newDatabase, openConnection, type Database } from "./driver.ts";
import { removeEmptyWal } from "./empty-wal.ts";
import { createMigrationBackup } from "./migration-backup.ts";
import { migrate, type BeforeMigrate, type Migration } from "./migrations.ts";
import { anchorSurvivingEdges, readRelConnections } from "./rel-checkpoint-guard.ts";
import { createKuzuSession, type KuzuSession } from "./session.ts";
import { isReadOnlyFsError, toStoreError } from "./store-errors.ts";

// Opening and closing the library's database: the folder, a read-only disk, a log a crash left
// behind, schema migrations with their backup, and the two connections the store works with (the
// writer's and the readers', see lanes.ts).

export interface OpenLibrary {
  db: Database;
  /** Writes, DDL and checkpoints, one at a time (lanes.ts `write`). */
  writer: KuzuSession;
  /** Searches and lookups, one at a time (lanes.ts `read`), at the last committed state. */
  reader: KuzuSession;
  version: number;
  /** Opened read-only: asked for, or the library sits on a read-only file system. */
  readOnly: boolean;
}

export interface OpenLibraryOptions {
  dbPath: string;
  readOnly: boolean;
  bufferPoolBytes: number;
  log: (message: string) => void;
  beforeMigrate?: BeforeMigrate;
  migrations?: readonly Migration[];
}

/**
 * A library on a read-only disk (write-protected media, a read-only mount) still opens, for
 * reading: searching and asking work, and every write says why it cannot happen.
 */
export async function openLibrary(options: OpenLibraryOptions): Promise<OpenLibrary> {
  const { dbPath, log } = options;
  if (options.readOnly) return openAs(options, true);
  try {
    await mkdir(path.dirname(dbPath), { recursive: true });
    return await openAs(options, false);
  } catch (err) {
    if (!isReadOnlyFsError(err) || !(await fileExists(dbPath))) {
      if (isReadOnlyFsError(err)) {
        throw new ClauseGraphError("WRITE_FAILED", `cannot create a library in ${path.dirname(dbPath)}: the folder is on a read-only disk`, {
          file: dbPath,
          cause: err,
        });
      }
      throw err;
    }
    log(`${dbPath} is on a read-only disk: opened for reading only`);
    return openAs(options, true);
  }
}

async function openAs(options: OpenLibraryOptions, readOnly: boolean): Promise<OpenLibrary> {
  const { dbPath, log } = options;
  // A write-ahead log left behind means the last session ended without closing: Kuzu replays it
  // on open, and what it replays has not been checkpointed yet (see recoveryGuard below).
  const walBytes = readOnly ? 0 : await removeEmptyWal(dbPath, log);
  const db = newDatabase(dbPath, { bufferPoolBytes: options.bufferPoolBytes, readOnly, maxBytes: LIBRARY_MAX_BYTES });
  const backup = options.beforeMigrate || readOnly ? null : createMigrationBackup(dbPath, { log });
  const sessions: KuzuSession[] = [];
  const session = async (): Promise<KuzuSession> => {
    const made = createKuzuSession(await openConnection(db), dbPath, () => openConnection(db));
    sessions.push(made);
    return made;
  };
  try {
    await db.init();
    const writer = await session();
    const version = await migrate(writer, {
      dbPath,
      readOnly,
      ...(options.migrations ? { migrations: options.migrations } : {}),
      ...(options.beforeMigrate ? { beforeMigrate: options.beforeMigrate } : {}),
      ...(backup ? { beforeMigrate: backup.beforeMigrate } : {}),
      log,
    });
    if (walBytes > 0) await recoveryGuard(writer, log);
    if (!readOnly) await dropLegacySearchIndex(writer, log);
    const reader = await session();
    return { db, writer, reader, version, readOnly };
  } catch (err) {
    for (const made of sessions) await made.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    // Only once Kuzu has let go of the files can the backup be put back over them.
    const restored = backup ? await backup.restoreAfterFailure(err) : null;
    if (restored) throw restored;
    throw toStoreError(err, dbPath, "opening the database");
  }
}

export async function closeLibrary(library: OpenLibrary, dbPath: string): Promise<void> {
  try {
    await library.writer.close();
    await library.reader.close();
    await library.db.close();
  } catch (err) {
    throw toStoreError(err, dbPath, "closing the database");
  }
}

/**
 * After a crash the replayed log may hold a write's deletions without the anchors that were to
 * follow them (replaceLlmTriplets anchors in a second transaction); anchoring again before
 * anything checkpoints makes that harmless (rel-checkpoint-guard.ts). A failure here changes
 * nothing and is only logged.
 */
async function recoveryGuard(session: KuzuSession, log: (message: string) => void): Promise<void> {
  try {
    const connections = await readRelConnections(session);
    await session.transaction(() => anchorSurvivingEdges(session, connections));
    log("recovered from an unclosed session: surviving edges anchored before the first checkpoint");
  } catch (err) {
    log(`could not anchor edges after recovery: ${toErrorInfo(err).message}`);
  }
}

/**
 * Libraries written before the search database (search-database.ts) kept their full-text index on
 * the Section table, where every write had to drop it first; it is dropped once, so no write ever
 * runs with it present.
 */
async function dropLegacySearchIndex(session: KuzuSession, log: (message: string) => void): Promise<void> {
  const indexes = await session.run("CALL SHOW_INDEXES() RETURN table_name AS t, index_name AS i, index_type AS type");
  for (const row of indexes) {
    if (row.t !== "Section" || String(row.type).toUpperCase() !== "FTS") continue;
    await session.run(`CALL DROP_FTS_INDEX('Section', ${cypherString(String(row.i))})`);
    log(`dropped the full-text index ${String(row.i)} of the Section table: full-text search has a database of its own now`);
  }
}
