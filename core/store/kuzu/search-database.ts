import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ensurePrivateDir, tightenDataDir } from "../../files/private-files.ts";
import type { ScoredId } from "../../model/graph-records.ts";
import { cypherString, newDatabase, openConnection, type Connection, type Database } from "./driver.ts";
import { createKuzuSession, type KuzuSession } from "./session.ts";

// Full-text search (BM25) lives in a database of its own, `<library>.search/<n>.kuzu`, built from
// the library's sections and replaced whole after writes. Three Kuzu 0.11.3 bugs put it there:
//
// 1. An FTS index cannot be maintained by writes. Rows inserted while an index exists were
//    sometimes missing from it (2–8 of 40 small batches), and deleting a row whose terms were
//    added incrementally segfaults (three one-word rows suffice; kuzudb/kuzu#5671, never fixed).
//    So no table with an FTS index is ever written: this database's one table is filled once,
//    then indexed, then only read.
// 2. Building an FTS index stalls every other connection of its database. CREATE_FTS_INDEX waits
//    for all active transactions to leave before it checkpoints and gives up after ~6 s; with a
//    reader 2 ms apart it timed out, and the reader waited the 6 s (test/unit/store-search-database.test.ts
//    shows it on bare Kuzu). Built in a database of its own, a new index keeps the library's
//    readers and the old index's searches going: searches during the rebuild of 13,000 passages
//    answered in p50 47 ms, at most 84 ms, on a busy 2-core machine.
// 3. Kuzu keeps ~2 MB of native memory per index build for as long as the database that built it
//    is open (RSS +1.1 GB over 500 rebuilds in the soak). The library used to be closed and reopened
//    every 20 builds for it, stalling everything meanwhile; a search database is closed, and its
//    file removed, as soon as the next one is in use.
//
// The database records which documents it indexes (their ids and sha256): at the next start it is
// used as it is when the library still holds exactly those, and rebuilt otherwise. A build a crash
// interrupted has no record and is removed. A library on a read-only disk uses the search database
// it has, or builds one in the temporary folder for the session.

// Everything that is not a letter separates words when indexing: ASCII punctuation and digits as
// in Kuzu's default, but also typographic apostrophes and quotes (’ « » “ ”), dashes, § and
// emoji, which the default keeps glued to words ("dell’appalto" would be one term). Kuzu
// lower-cases the pattern before compiling it, so \p{L} is unusable: ranges are hex escapes.
// (Kuzu keeps the tokenizer macro of a database's first index creation even after DROP_FTS_INDEX;
// every search database is new, and the pattern is part of its fingerprint, so a changed pattern
// takes effect at the next start.)
export const FTS_IGNORE_PATTERN =
  "[^\\x{41}-\\x{5a}\\x{61}-\\x{7a}\\x{c0}-\\x{d6}\\x{d8}-\\x{f6}\\x{f8}-\\x{2af}\\x{300}-\\x{36f}" +
  "\\x{370}-\\x{1fff}\\x{2c00}-\\x{2dff}\\x{3040}-\\x{d7ff}\\x{f900}-\\x{fdff}\\x{fb00}-\\x{fb4f}" +
  "\\x{fe70}-\\x{fefe}\\x{ff21}-\\x{ff3a}\\x{ff41}-\\x{ff5a}\\x{10000}-\\x{1efff}\\x{20000}-\\x{3ffff}]+";

export const SEARCH_TABLE = "SectionText";
export const SEARCH_INDEX = "section_fts";
const BUILT_TABLE = "Built";
const FILE_PATTERN = /^(\d+)\.kuzu$/;
const BATCH = 2000;

/** One section's searchable text, as the library stores it (numberTerms: fts-query.ts). */
export interface SearchRow {
  id: string;
  label: string;
  heading: string;
  text: string;
  numberTerms: string;
}

/** A document the index holds: the library's documents are immutable, so id and sha256 say what it indexed. */
export interface IndexedDocument {
  id: string;
  sha256: string;
}

/** How an index is built; part of its fingerprint, so an index built another way is rebuilt. */
const INDEX_RECIPE = `SectionText(label, heading, text, numberTerms) porter ${FTS_IGNORE_PATTERN}`;

/** What the documents of an index add up to (with how it is built): equal fingerprints, equal contents. */
export function fingerprintOf(documents: readonly IndexedDocument[]): string {
  const hash = createHash("sha256");
  hash.update(`${INDEX_RECIPE}\n`);
  for (const d of [...documents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) hash.update(`${d.id}:${d.sha256}\n`);
  return hash.digest("hex");
}

interface OpenIndex {
  file: string;
  db: Database;
  conn: Connection;
  session: KuzuSession;
  fingerprint: string;
  /** No section was indexed (an empty library has no FTS index to query). */
  empty: boolean;
}

export interface SearchDatabaseOptions {
  /** The library's database file; search databases live in `<dbPath>.search/`. */
  dbPath: string;
  /** The library cannot be written: an existing index is opened read-only, a new one goes to the temporary folder. */
  readOnly: boolean;
  /** Buffer pool of each search database (the index of 13,705 ObliQA passages builds within 64 MB). */
  bufferPoolBytes: number;
  log: (message: string) => void;
}

export interface SearchDatabase {
  /** Opens the newest complete index whose fingerprint is `fingerprint`; removes every other one. False when there is none. */
  openExisting(fingerprint: string): Promise<boolean>;
  /** An index is open (possibly of older contents than the library's). */
  readonly ready: boolean;
  /** Fingerprint of the open index, or null. */
  readonly fingerprint: string | null;
  /** BM25 top `top` for a sanitized query literal (fts-query.ts), best first; [] without an index. */
  query(literal: string, top: number): Promise<ScoredId[]>;
  /** Builds a new index from `rows`, puts it in use and removes the previous one. */
  rebuild(rows: readonly SearchRow[], documents: readonly IndexedDocument[]): Promise<void>;
  close(): Promise<void>;
}

export function searchDirectory(dbPath: string): string {
  return `${dbPath}.search`;
}

export function createSearchDatabase(options: SearchDatabaseOptions): SearchDatabase {
  const { readOnly, log } = options;
  let dir = searchDirectory(options.dbPath);
  let temporary: string | null = null;
  let current: OpenIndex | null = null;
  // Queries of the open index run one at a time on its connection; a swap waits for the one in
  // flight, so no query ever runs on a closed database.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  async function openIndex(file: string, asReadOnly: boolean): Promise<OpenIndex> {
    const db = newDatabase(file, { bufferPoolBytes: options.bufferPoolBytes, readOnly: asReadOnly });
    try {
      await db.init();
      const conn = await openConnection(db);
      return { file, db, conn, session: createKuzuSession(conn, file), fingerprint: "", empty: true };
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
  }

  async function closeIndex(index: OpenIndex): Promise<void> {
    await index.conn.close().catch(() => undefined);
    await index.db.close().catch(() => undefined);
  }

  async function removeFiles(file: string): Promise<void> {
    for (const f of [file, `${file}.wal`, `${file}.shadow`]) await rm(f, { force: true });
  }

  async function existing(): Promise<Array<{ n: number; file: string }>> {
    const names = await readdir(dir).catch(() => [] as string[]);
    return names
      .flatMap((name) => {
        const m = FILE_PATTERN.exec(name);
        return m ? [{ n: Number(m[1]), file: path.join(dir, name) }] : [];
      })
      .sort((a, b) => b.n - a.n);
  }

  async function builtRecord(index: OpenIndex): Promise<{ fingerprint: string; sections: number } | null> {
    const tables = await index.session.run("CALL show_tables() RETURN name");
    if (!tables.some((t) => t.name === BUILT_TABLE)) return null;
    const [row] = await index.session.run(`MATCH (b:${BUILT_TABLE}) RETURN b.fingerprint AS f, b.sections AS s`);
    return typeof row?.f === "string" ? { fingerprint: row.f, sections: Number(row.s ?? 0) } : null;
  }

  return {
    get ready() {
      return current !== null;
    },
    get fingerprint() {
      return current?.fingerprint ?? null;
    },

    async openExisting(fingerprint) {
      let found: OpenIndex | null = null;
      for (const candidate of await existing()) {
        if (found === null) {
          const index = await openIndex(candidate.file, readOnly).catch(() => null);
          const built = index === null ? null : await builtRecord(index).catch(() => null);
          if (index !== null && built?.fingerprint === fingerprint) {
            found = { ...index, fingerprint, empty: built.sections === 0 };
            continue;
          }
          if (index !== null) await closeIndex(index);
        }
        // Older, interrupted or of other contents: never read again.
        if (!readOnly) await removeFiles(candidate.file);
      }
      if (found !== null) {
        const open = found;
        await serial(async () => {
          current = open;
        });
      }
      return found !== null;
    },

    query(literal, top) {
      return serial(async () => {
        if (current === null || current.empty || literal === "" || top < 1) return [];
        const rows = await current.session.run(
          `CALL QUERY_FTS_INDEX(${cypherString(SEARCH_TABLE)}, ${cypherString(SEARCH_INDEX)}, ${cypherString(literal)}, top := ${Math.floor(top)})
           RETURN node.id AS id, score ORDER BY score DESC, id`,
        );
        return rows.map((r) => ({ id: String(r.id), score: typeof r.score === "number" ? r.score : Number(r.score) }));
      });
    },

    async rebuild(rows, documents) {
      const started = Date.now();
      if (readOnly && temporary === null) {
        temporary = await mkdtemp(path.join(os.tmpdir(), "clausegraph-search-"));
        dir = temporary;
      } else if (!readOnly) {
        await ensurePrivateDir(dir);
      }
      const n = ((await existing())[0]?.n ?? 0) + 1;
      const file = path.join(dir, `${n}.kuzu`);
      await removeFiles(file);
      const index = await openIndex(file, false);
      const fingerprint = fingerprintOf(documents);
      try {
        await index.session.run(`CREATE NODE TABLE ${SEARCH_TABLE}(id STRING PRIMARY KEY, label STRING, heading STRING, text STRING, numberTerms STRING)`);
        for (let i = 0; i < rows.length; i += BATCH) {
          await index.session.run(
            `UNWIND $rows AS r CREATE (:${SEARCH_TABLE} {id: r.id, label: r.label, heading: r.heading, text: r.text, numberTerms: r.numberTerms})`,
            { rows: rows.slice(i, i + BATCH).map((r) => ({ ...r })) },
          );
        }
        if (rows.length > 0) {
          await index.session.run(
            `CALL CREATE_FTS_INDEX(${cypherString(SEARCH_TABLE)}, ${cypherString(SEARCH_INDEX)}, ['label', 'heading', 'text', 'numberTerms'], ` +
              `stemmer := 'porter', ignore_pattern := ${cypherString(FTS_IGNORE_PATTERN)})`,
          );
        }
        // Written last: a build interrupted before this line is never used (openExisting).
        await index.session.run(`CREATE NODE TABLE ${BUILT_TABLE}(fingerprint STRING PRIMARY KEY, documents INT64, sections INT64, builtAt STRING)`);
        await index.session.run(`CREATE (:${BUILT_TABLE} {fingerprint: $f, documents: $d, sections: $s, builtAt: $t})`, {
          f: fingerprint,
          d: documents.length,
          s: rows.length,
          t: new Date().toISOString(),
        });
        await index.session.run("CHECKPOINT");
      } catch (err) {
        await closeIndex(index);
        await removeFiles(file);
        throw err;
      }
      if (!readOnly) await tightenDataDir(dir);
      const previous = await serial(async () => {
        const old = current;
        current = { ...index, fingerprint, empty: rows.length === 0 };
        return old;
      });
      if (previous !== null) {
        await closeIndex(previous);
        await removeFiles(previous.file);
      }
      if (rows.length > 0) log(`search index rebuilt in ${Date.now() - started} ms (${rows.length} sections)`);
    },

    async close() {
      const open = await serial(async () => {
        const old = current;
        current = null;
        return old;
      });
      if (open !== null) await closeIndex(open);
      if (temporary !== null) {
        await rm(temporary, { recursive: true, force: true });
        temporary = null;
        dir = searchDirectory(options.dbPath);
      }
    },
  };
}

/** Removes the search databases of a library file (a rebuilt library's, once swapped in). */
export async function removeSearchDatabases(dbPath: string): Promise<void> {
  await rm(searchDirectory(dbPath), { recursive: true, force: true });
}
