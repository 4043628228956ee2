// Long file: the full-text segments' builds, merges, pools and queries share one set of open databases.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ensurePrivateDir, tightenDataDir } from "../../files/private-files.ts";
import type { ScoredId } from "../../model/graph-records.ts";
import { ClauseGraphError, toErrorInfo } from "../../model/errors.ts";
import { freeBytes } from "../free-space.ts";
import { cypherString, newDatabase, openConnection, SEGMENT_MAX_BYTES, type Connection, type Database } from "./driver.ts";
import { fileBytes, grownPool, poolCeiling, SEARCH_POOL_FLOOR, searchBuildPoolBytes, searchQueryPoolBytes } from "./memory-plan.ts";
import { createKuzuSession, type KuzuSession } from "./session.ts";
import { isPoolFullError } from "./store-errors.ts";

// Full-text search (BM25) lives in databases of its own, `<library>.search/<n>.kuzu`: segments,
// each the index of a set of whole documents, built once and then only read. Three Kuzu 0.11.3
// bugs put it there:
//
// 1. An FTS index cannot be maintained by writes. Rows inserted while an index exists were
//    sometimes missing from it, and deleting a row whose terms were added incrementally segfaults
//    (kuzudb/kuzu#5671, never fixed). So no table with an FTS index is ever written.
// 2. Building an FTS index stalls every other connection of its database (CREATE_FTS_INDEX waits
//    for all active transactions and gives up after ~6 s; test/integration/store-search-database.test.ts
//    shows it on bare Kuzu). Built in a database of its own, a new index keeps the library's
//    readers and the current segments' searches going.
// 3. Kuzu keeps native memory per index build for as long as the database that built it is open,
//    so a segment is closed after its build and opened again for queries.
//
// Segments, as a search engine keeps them (Lucene's tiered merges): rebuilding one index of the
// whole library after each import grows with the library, so a document imported into a large
// library gets a small segment of its own, searched beside the others at once, and small segments
// are merged in the background into segments of about SEGMENT_TARGET_SECTIONS while the old ones
// keep answering. A small library is still one index rebuilt whole (FOLD_SECTIONS): at that size
// the rebuild costs what a delta would, and its scores keep one set of statistics. Each segment's
// build is bounded by its own text, so its buffer pool is too (memory-plan.ts).
//
// Each segment records the documents it indexes (ids and sha256); at the next start the newest
// segments that cover the library without overlap are used as they are, and the documents none
// covers are indexed anew. Rows of documents deleted since are filtered out of results until a
// merge drops them. A build a crash interrupted has no record and is removed. A library on a
// read-only disk uses the segments it has, and builds what is missing in the temporary folder.

// Everything that is not a letter separates words when indexing: ASCII punctuation and digits as
// in Kuzu's default, but also typographic apostrophes and quotes (’ « » “ ”), dashes, § and
// emoji, which the default keeps glued to words ("dell’appalto" would be one term). Kuzu
// lower-cases the pattern before compiling it, so \p{L} is unusable: ranges are hex escapes.
// (Kuzu keeps the tokenizer macro of a database's first index creation even after DROP_FTS_INDEX;
// every segment is a new database, and the pattern is part of its recipe, so a changed pattern
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

/** Merges aim at segments of about this many sections: large enough that few are searched, small enough to build in bounded memory. */
export const SEGMENT_TARGET_SECTIONS = 16_000;
/** Up to this many sections, the small segments and new documents are indexed again as one, in the import's own time. */
export const FOLD_SECTIONS = 6_000;
/** A segment whose deleted rows reach this share is rewritten by the next merge. */
export const DEAD_SHARE_TO_REWRITE = 0.25;
/** What a segment takes on disk before its first row: Kuzu lays out its catalog and tables in fixed steps. */
export const SEGMENT_BASE_BYTES = 8 * 2 ** 20;
/** And per character indexed: the text kept, its terms and their postings. */
export const SEGMENT_BYTES_PER_CHAR = 4;

/** One section's searchable text, as the library stores it (numberTerms: fts-query.ts). */
export interface SearchRow {
  id: string;
  documentId: string;
  label: string;
  heading: string;
  text: string;
  numberTerms: string;
}

/** A document an index holds: the library's documents are immutable, so id and sha256 say what it indexed. */
export interface IndexedDocument {
  id: string;
  sha256: string;
}

/** How a segment is built; part of its record, so a segment built another way is rebuilt. */
const INDEX_RECIPE = `SectionText(documentId, label, heading, text, numberTerms) porter ${FTS_IGNORE_PATTERN}`;

/** What the documents of an index add up to (with how it is built): equal fingerprints, equal contents. */
function fingerprintOf(documents: readonly IndexedDocument[]): string {
  const hash = createHash("sha256");
  hash.update(`${INDEX_RECIPE}\n`);
  for (const d of [...documents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) hash.update(`${d.id}:${d.sha256}\n`);
  return hash.digest("hex");
}

/** A built segment, open for queries. */
interface Segment {
  n: number;
  file: string;
  db: Database;
  conn: Connection;
  session: KuzuSession;
  documents: IndexedDocument[];
  /** Rows per document, so the share of deleted rows is known without a query. */
  sectionsOf: Map<string, number>;
  /** Each document's sha256, to tell its rows from those of a deleted document. */
  shaOf: Map<string, string>;
  sections: number;
  poolBytes: number;
}

/** What a refresh did, for the store's log and the benches. */
export interface RefreshOutcome {
  /** "fresh": nothing to do; "fold": the small segments and new documents indexed again as one; "delta": new segments of the new documents only. */
  kind: "fresh" | "fold" | "delta";
  documents: number;
  sections: number;
  ms: number;
}

/** Reads the searchable rows of these documents from the library (in the store's write lane). */
export type RowsOf = (documentIds: readonly string[]) => Promise<SearchRow[]>;

export interface SearchDatabaseOptions {
  /** The library's database file; segments live in `<dbPath>.search/`. */
  dbPath: string;
  /** The library cannot be written: existing segments are opened read-only, new ones go to the temporary folder. */
  readOnly: boolean;
  /** Largest pool any segment may use (memory-plan.ts poolCeiling). */
  poolCeilingBytes?: number;
  /** Smallest pool a segment starts from (memory-plan.ts SEARCH_POOL_FLOOR; tests make it small to see a pool grow). */
  poolFloorBytes?: number;
  /** What the library keeps free on its disk (free-space.ts); a fold short of room frees the old index first. */
  minFreeBytes?: number;
  /** Tests: smaller thresholds than the defaults above. */
  targetSections?: number;
  foldSections?: number;
  log: (message: string) => void;
}

export interface SearchDatabase {
  /** Opens the newest segments that cover these documents without overlap; removes the rest. */
  openExisting(documents: readonly IndexedDocument[]): Promise<void>;
  /** Every one of these documents is indexed, and no small segment holds deleted rows. */
  covers(documents: readonly IndexedDocument[]): boolean;
  /** Indexes what the library holds and the segments do not (in the write lane: `rowsOf` reads a still library). */
  refresh(documents: readonly IndexedDocument[], rowsOf: RowsOf): Promise<RefreshOutcome>;
  /** Small segments to combine or worn ones to rewrite. */
  readonly mergeWanted: boolean;
  /**
   * One merge step: reads the chosen segments' live rows through `rowsOf` (the store takes its
   * write lane for that read alone), builds outside any lane, swaps. False when there was nothing
   * to merge or the segments changed meanwhile.
   */
  mergeOnce(rowsOf: RowsOf): Promise<boolean>;
  /** BM25 top `top` for a sanitized query literal (fts-query.ts), best first, over every segment. */
  query(literal: string, top: number): Promise<ScoredId[]>;
  /** Segments open and the sections they hold (benches, check). */
  describe(): { segments: number; sections: number; poolBytes: number };
  close(): Promise<void>;
}

export function searchDirectory(dbPath: string): string {
  return `${dbPath}.search`;
}

// Long function: a closure over the open segments, their build queue and pools.
export function createSearchDatabase(options: SearchDatabaseOptions): SearchDatabase {
  const { readOnly, log } = options;
  const ceiling = options.poolCeilingBytes ?? poolCeiling();
  const floor = options.poolFloorBytes ?? SEARCH_POOL_FLOOR;
  const target = options.targetSections ?? SEGMENT_TARGET_SECTIONS;
  const fold = options.foldSections ?? FOLD_SECTIONS;
  const minFree = Math.max(0, options.minFreeBytes ?? 0);
  let dir = searchDirectory(options.dbPath);
  let temporary: string | null = null;
  let segments: Segment[] = [];
  /** The library's documents at the last refresh: rows of any other are deleted ones. */
  let live = new Map<string, string>();
  let nextN = 1;
  let closing = false;
  /** Segment builds under way: close waits for them, so no native database outlives the store. */
  const building = new Set<Promise<unknown>>();
  // One build at a time, whoever asks (a refresh in the write lane, a merge outside it): two FTS
  // index builds side by side in one process crashed it.
  let buildTail: Promise<unknown> = Promise.resolve();
  // Queries run one at a time; a swap waits for the one in flight, so no query ever runs on a
  // closed database.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  async function openDatabase(file: string, poolBytes: number, asReadOnly: boolean): Promise<{ db: Database; conn: Connection; session: KuzuSession }> {
    const db = newDatabase(file, { bufferPoolBytes: poolBytes, readOnly: asReadOnly, maxBytes: SEGMENT_MAX_BYTES });
    try {
      await db.init();
      const conn = await openConnection(db);
      return { db, conn, session: createKuzuSession(conn, file) };
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
  }

  async function closeDatabase(open: { db: Database; conn: Connection }): Promise<void> {
    await open.conn.close().catch(() => undefined);
    await open.db.close().catch(() => undefined);
  }

  const mayRemove = (file: string): boolean => !readOnly || (temporary !== null && file.startsWith(temporary));

  async function removeFiles(file: string): Promise<void> {
    if (!mayRemove(file)) return;
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

  interface BuiltRecord {
    fingerprint: string;
    documents: IndexedDocument[];
    sectionsOf: Map<string, number>;
    sections: number;
  }

  function parseCounts(value: unknown): { documents: IndexedDocument[]; sectionsOf: Map<string, number> } | null {
    if (typeof value !== "string") return null;
    try {
      const parsed: unknown = JSON.parse(value);
      if (!Array.isArray(parsed)) return null;
      const documents: IndexedDocument[] = [];
      const sectionsOf = new Map<string, number>();
      for (const entry of parsed) {
        if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "string" || typeof entry[2] !== "number") return null;
        documents.push({ id: entry[0], sha256: entry[1] });
        sectionsOf.set(entry[0], entry[2]);
      }
      return { documents, sectionsOf };
    } catch {
      return null;
    }
  }

  async function builtRecord(session: KuzuSession): Promise<BuiltRecord | null> {
    const tables = await session.run("CALL show_tables() RETURN name");
    if (!tables.some((t) => t.name === BUILT_TABLE)) return null;
    const [row] = await session.run(`MATCH (b:${BUILT_TABLE}) RETURN b.fingerprint AS f, b.documents AS d, b.sections AS s`);
    const counts = parseCounts(row?.d);
    if (typeof row?.f !== "string" || counts === null) return null;
    return { fingerprint: row.f, documents: counts.documents, sectionsOf: counts.sectionsOf, sections: Number(row.s ?? 0) };
  }

  /** Opens a built segment for queries, with a pool sized from its file. */
  async function openSegment(n: number, file: string, record: BuiltRecord): Promise<Segment> {
    let poolBytes = searchQueryPoolBytes(await fileBytes(file), ceiling, floor);
    let open: Awaited<ReturnType<typeof openDatabase>>;
    for (;;) {
      try {
        open = await openDatabase(file, poolBytes, true);
        break;
      } catch (err) {
        // Opening reads the index's catalog into the pool: a pool too small for that grows too.
        const larger = isPoolFullError(err) ? grownPool(poolBytes, ceiling) : null;
        if (larger === null) throw err;
        poolBytes = larger;
      }
    }
    const shaOf = new Map(record.documents.map((d) => [d.id, d.sha256]));
    return { n, file, ...open, documents: record.documents, sectionsOf: record.sectionsOf, shaOf, sections: record.sections, poolBytes };
  }

  async function ensureDir(): Promise<void> {
    if (readOnly && temporary === null) {
      temporary = await mkdtemp(path.join(os.tmpdir(), "clausegraph-search-"));
      dir = temporary;
    } else if (!readOnly) {
      await ensurePrivateDir(dir);
    }
  }

  const segmentBytes = (chars: number): number => SEGMENT_BASE_BYTES + chars * SEGMENT_BYTES_PER_CHAR;
  /** Characters a segment of these rows indexes (what its pool and its disk room are sized from). */
  const charsOf = (rows: readonly SearchRow[]): number =>
    rows.reduce((sum, r) => sum + r.text.length + r.heading.length + r.label.length + r.numberTerms.length, 0);

  /**
   * Rule "room before a build": a segment is not started on a disk that cannot hold it. Kuzu
   * 0.11.3 aborts the process when a write fails for space while it closes a database, so the
   * build is refused as a full disk is, in words, and the segments in use keep answering.
   */
  async function ensureRoomFor(chars: number): Promise<void> {
    const free = await freeBytes(dir);
    const need = segmentBytes(chars);
    if (free === null || free >= need) return;
    throw new ClauseGraphError(
      "WRITE_FAILED",
      `could not build the search index: the disk holding ${dir} has ${Math.floor(free / 2 ** 20)} MB free and the index needs about ${Math.ceil(need / 2 ** 20)} MB. Free some space; the library is kept, and its search index is built at the next start.`,
      { file: dir },
    );
  }

  /** Bytes the files of these segments take. */
  async function bytesOf(list: readonly Segment[]): Promise<number> {
    let sum = 0;
    for (const s of list) sum += await fileBytes(s.file);
    return sum;
  }

  /** Builds one segment file from `rows` in a pool sized from their text, grown while it proves too small. */
  function buildSegment(rows: readonly SearchRow[], documents: readonly IndexedDocument[]): Promise<Segment> {
    if (closing) return Promise.reject(new Error("the library is closing"));
    const build = buildTail.then(
      () => buildSegmentNow(rows, documents),
      () => buildSegmentNow(rows, documents),
    );
    buildTail = build.catch(() => undefined);
    building.add(build);
    void build.finally(() => building.delete(build)).catch(() => undefined);
    return build;
  }

  async function buildSegmentNow(rows: readonly SearchRow[], documents: readonly IndexedDocument[]): Promise<Segment> {
    if (closing) throw new Error("the library is closing");
    await ensureDir();
    const n = nextN++;
    const file = path.join(dir, `${n}.kuzu`);
    const chars = charsOf(rows);
    const sectionsOf = new Map<string, number>(documents.map((d) => [d.id, 0]));
    for (const r of rows) sectionsOf.set(r.documentId, (sectionsOf.get(r.documentId) ?? 0) + 1);
    await ensureRoomFor(chars);
    let poolBytes: number | null = searchBuildPoolBytes(chars, ceiling, floor);
    for (;;) {
      await removeFiles(file);
      try {
        await writeSegment(file, poolBytes, rows, documents, sectionsOf);
        break;
      } catch (err) {
        await removeFiles(file);
        const larger: number | null = isPoolFullError(err) ? grownPool(poolBytes, ceiling) : null;
        if (larger === null) throw err;
        log(
          `search segment ${n}: a pool of ${Math.round(poolBytes / 2 ** 20)} MB was too small for ${rows.length} sections; retrying with ${Math.round(larger / 2 ** 20)} MB`,
        );
        poolBytes = larger;
      }
    }
    if (closing) {
      await removeFiles(file);
      throw new Error("the library is closing");
    }
    if (!readOnly) await tightenDataDir(dir);
    const record: BuiltRecord = { fingerprint: fingerprintOf(documents), documents: [...documents], sectionsOf, sections: rows.length };
    return openSegment(n, file, record);
  }

  async function writeSegment(
    file: string,
    poolBytes: number,
    rows: readonly SearchRow[],
    documents: readonly IndexedDocument[],
    sectionsOf: Map<string, number>,
  ): Promise<void> {
    const open = await openDatabase(file, poolBytes, false);
    try {
      const { session } = open;
      await session.run(
        `CREATE NODE TABLE ${SEARCH_TABLE}(id STRING PRIMARY KEY, documentId STRING, label STRING, heading STRING, text STRING, numberTerms STRING)`,
      );
      for (let i = 0; i < rows.length; i += BATCH) {
        if (closing) throw new Error("the library is closing");
        await session.run(
          `UNWIND $rows AS r CREATE (:${SEARCH_TABLE} {id: r.id, documentId: r.documentId, label: r.label, heading: r.heading, text: r.text, numberTerms: r.numberTerms})`,
          { rows: rows.slice(i, i + BATCH).map((r) => ({ ...r })) },
        );
      }
      if (rows.length > 0) {
        await session.run(
          `CALL CREATE_FTS_INDEX(${cypherString(SEARCH_TABLE)}, ${cypherString(SEARCH_INDEX)}, ['label', 'heading', 'text', 'numberTerms'], ` +
            `stemmer := 'porter', ignore_pattern := ${cypherString(FTS_IGNORE_PATTERN)})`,
        );
      }
      // Written last: a build interrupted before this line is never used (openExisting).
      await session.run(`CREATE NODE TABLE ${BUILT_TABLE}(fingerprint STRING PRIMARY KEY, documents STRING, sections INT64, poolBytes INT64, builtAt STRING)`);
      await session.run(`CREATE (:${BUILT_TABLE} {fingerprint: $f, documents: $d, sections: $s, poolBytes: $p, builtAt: $t})`, {
        f: fingerprintOf(documents),
        d: JSON.stringify(documents.map((doc) => [doc.id, doc.sha256, sectionsOf.get(doc.id) ?? 0])),
        s: rows.length,
        p: poolBytes,
        t: new Date().toISOString(),
      });
      await session.run("CHECKPOINT");
    } finally {
      await closeDatabase(open);
    }
  }

  /** Puts `added` in use in place of `replaced` (when all of them are still in use), then closes and removes those. */
  async function swap(added: readonly Segment[], replaced: readonly Segment[]): Promise<boolean> {
    const swapped = await serial(async () => {
      if (closing || !replaced.every((s) => segments.includes(s))) return false;
      segments = [...segments.filter((s) => !replaced.includes(s)), ...added].sort((a, b) => b.n - a.n);
      return true;
    });
    const gone = swapped ? replaced : added;
    for (const segment of gone) {
      await closeDatabase(segment);
      await removeFiles(segment.file);
    }
    return swapped;
  }

  const liveSections = (segment: Segment): number => {
    let n = 0;
    for (const d of segment.documents) if (live.get(d.id) === d.sha256) n += segment.sectionsOf.get(d.id) ?? 0;
    return n;
  };
  const deadShare = (segment: Segment): number =>
    segment.sections === 0 ? (segment.documents.length > 0 ? 1 : 0) : 1 - liveSections(segment) / segment.sections;
  const liveDocuments = (list: readonly Segment[]): IndexedDocument[] => list.flatMap((s) => s.documents.filter((d) => live.get(d.id) === d.sha256));

  function uncovered(documents: readonly IndexedDocument[]): IndexedDocument[] {
    const covered = new Map<string, string>();
    for (const s of segments) for (const d of s.documents) covered.set(d.id, d.sha256);
    return documents.filter((d) => covered.get(d.id) !== d.sha256);
  }

  /** Groups rows into chunks of whole documents of about `target` sections. */
  function chunks(rows: readonly SearchRow[], documents: readonly IndexedDocument[]): Array<{ rows: SearchRow[]; documents: IndexedDocument[] }> {
    const byDocument = new Map<string, SearchRow[]>(documents.map((d) => [d.id, []]));
    for (const r of rows) byDocument.get(r.documentId)?.push(r);
    const out: Array<{ rows: SearchRow[]; documents: IndexedDocument[] }> = [];
    let current: { rows: SearchRow[]; documents: IndexedDocument[] } = { rows: [], documents: [] };
    for (const d of documents) {
      const own = byDocument.get(d.id) ?? [];
      if (current.documents.length > 0 && current.rows.length + own.length > target) {
        out.push(current);
        current = { rows: [], documents: [] };
      }
      for (const row of own) current.rows.push(row);
      current.documents.push(d);
    }
    if (current.documents.length > 0) out.push(current);
    return out;
  }

  /** The next merge: the small segments, smallest first, up to the target; or a worn segment with them. */
  function mergePlan(): Segment[] {
    const worn = segments.filter((s) => deadShare(s) >= DEAD_SHARE_TO_REWRITE);
    const small = segments.filter((s) => !worn.includes(s) && liveSections(s) < target / 2).sort((a, b) => liveSections(a) - liveSections(b));
    const chosen: Segment[] = [...worn];
    let total = worn.reduce((sum, s) => sum + liveSections(s), 0);
    for (const s of small) {
      if (chosen.length > 0 && total + liveSections(s) > target) break;
      chosen.push(s);
      total += liveSections(s);
    }
    return chosen.length >= 2 || worn.length > 0 ? chosen : [];
  }

  async function queryOne(segment: Segment, literal: string, top: number): Promise<ScoredId[]> {
    if (segment.sections === 0) return [];
    const rows = await segment.session.run(
      `CALL QUERY_FTS_INDEX(${cypherString(SEARCH_TABLE)}, ${cypherString(SEARCH_INDEX)}, ${cypherString(literal)}, top := ${top})
       RETURN node.id AS id, node.documentId AS doc, score ORDER BY score DESC, id`,
    );
    return rows.flatMap((r) => {
      const doc = String(r.doc);
      if (live.get(doc) === undefined || live.get(doc) !== segment.shaOf.get(doc)) return [];
      return [{ id: String(r.id), score: typeof r.score === "number" ? r.score : Number(r.score) }];
    });
  }

  /** A query that found the segment's pool too small reopens it with a larger one, once. */
  async function queryGrowing(segment: Segment, literal: string, top: number): Promise<ScoredId[]> {
    try {
      return await queryOne(segment, literal, top);
    } catch (err) {
      const larger = isPoolFullError(err) ? grownPool(segment.poolBytes, ceiling) : null;
      if (larger === null) throw err;
      log(
        `search segment ${segment.n}: its pool of ${Math.round(segment.poolBytes / 2 ** 20)} MB was too small for a query; reopened with ${Math.round(larger / 2 ** 20)} MB`,
      );
      await closeDatabase(segment);
      Object.assign(segment, await openDatabase(segment.file, larger, true), { poolBytes: larger });
      return queryOne(segment, literal, top);
    }
  }

  return {
    async openExisting(documents) {
      live = new Map(documents.map((d) => [d.id, d.sha256]));
      const found = await existing();
      nextN = Math.max(nextN, (found[0]?.n ?? 0) + 1);
      const kept: Segment[] = [];
      const covered = new Set<string>();
      for (const candidate of found) {
        let segment: Segment | null = null;
        try {
          const probe = await openDatabase(candidate.file, searchQueryPoolBytes(0, ceiling, floor), true);
          let record: BuiltRecord | null = null;
          try {
            record = await builtRecord(probe.session);
          } finally {
            await closeDatabase(probe);
          }
          // Usable: complete, built this way, of documents whose content is the library's, and
          // none already covered by a newer segment (which then replaced it).
          const usable =
            record !== null &&
            record.fingerprint === fingerprintOf(record.documents) &&
            record.documents.every((d) => !covered.has(d.id) && (!live.has(d.id) || live.get(d.id) === d.sha256));
          if (usable && record !== null) segment = await openSegment(candidate.n, candidate.file, record);
        } catch (err) {
          log(`search segment ${candidate.file} is unreadable, it is rebuilt: ${toErrorInfo(err).message}`);
        }
        if (segment === null) {
          // Interrupted, of other contents, or superseded: never read again.
          await removeFiles(candidate.file);
          continue;
        }
        for (const d of segment.documents) covered.add(d.id);
        kept.push(segment);
      }
      await serial(async () => {
        segments = kept;
      });
    },

    covers(documents) {
      if (uncovered(documents).length > 0) return false;
      const ids = new Set(documents.map((d) => d.id));
      // A deleted document's rows in a small segment are folded away at once, as a small library always was.
      return segments.every((s) => s.sections >= fold || s.documents.every((d) => ids.has(d.id)));
    },

    async refresh(documents, rowsOf) {
      const started = Date.now();
      live = new Map(documents.map((d) => [d.id, d.sha256]));
      const missing = uncovered(documents);
      const small = segments.filter((s) => s.sections < fold);
      const smallWithDead = small.filter((s) => s.documents.some((d) => live.get(d.id) !== d.sha256));
      if (missing.length === 0 && smallWithDead.length === 0) return { kind: "fresh", documents: 0, sections: 0, ms: 0 };
      const newRows = await rowsOf(missing.map((d) => d.id));
      const smallLive = small.reduce((sum, s) => sum + liveSections(s), 0);
      if (smallLive + newRows.length <= fold) {
        // Fold: the small segments' live documents and the new ones, one index again.
        const kept = liveDocuments(small);
        const rows = [...(await rowsOf(kept.map((d) => d.id))), ...newRows];
        const all = [...kept, ...missing];
        // Rule "short of room, replace in place": a fold normally builds beside the index it
        // replaces, so searches go on meanwhile. When the disk could not hold both and keep its
        // margin, the old one goes first: searches during the fold (seconds at this size) miss
        // these documents, rather than the disk filling up under Kuzu.
        let replaced = small;
        const free = small.length > 0 && !readOnly ? await freeBytes(dir) : null;
        if (free !== null && free < segmentBytes(charsOf(rows)) + minFree) {
          log(
            `search index: ${Math.floor(free / 2 ** 20)} MB free, so the old index of ${await bytesOf(small).then((b) => Math.ceil(b / 2 ** 20))} MB is removed before its replacement is built`,
          );
          await swap([], small);
          replaced = [];
        }
        const added = all.length === 0 ? [] : [await buildSegment(rows, all)];
        await swap(added, replaced);
        return { kind: "fold", documents: all.length, sections: rows.length, ms: Date.now() - started };
      }
      // Delta: the new documents alone, merged into the others in the background.
      const added: Segment[] = [];
      try {
        for (const chunk of chunks(newRows, missing)) added.push(await buildSegment(chunk.rows, chunk.documents));
      } catch (err) {
        for (const s of added) {
          await closeDatabase(s);
          await removeFiles(s.file);
        }
        throw err;
      }
      await swap(added, []);
      return { kind: "delta", documents: missing.length, sections: newRows.length, ms: Date.now() - started };
    },

    get mergeWanted() {
      return !closing && !readOnly && mergePlan().length > 0;
    },

    async mergeOnce(rowsOf) {
      const chosen = mergePlan();
      if (chosen.length === 0 || closing) return false;
      const started = Date.now();
      const documents = liveDocuments(chosen);
      const rows = await rowsOf(documents.map((d) => d.id));
      // Documents deleted while the rows were read have none: they stay out of the merged segment.
      const present = new Set(rows.map((r) => r.documentId));
      const kept = documents.filter((d) => present.has(d.id) || live.get(d.id) === d.sha256);
      const added = kept.length === 0 ? [] : [await buildSegment(rows, kept)];
      const swapped = await swap(added, chosen);
      if (swapped) log(`search segments merged: ${chosen.length} into ${added.length} (${rows.length} sections) in ${Date.now() - started} ms`);
      return swapped;
    },

    query(literal, top) {
      return serial(async () => {
        const k = Math.floor(top);
        if (segments.length === 0 || literal === "" || k < 1) return [];
        // One segment after another: full-text queries running side by side on Kuzu's threads
        // corrupted its heap (driver.ts), whichever databases they ran on.
        const hits: ScoredId[] = [];
        for (const segment of segments) hits.push(...(await queryGrowing(segment, literal, k)));
        // Each segment scores with its own statistics; merged segments are large enough that
        // they agree closely, and a small delta is merged soon after it is made.
        return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, k);
      });
    },

    describe() {
      return {
        segments: segments.length,
        sections: segments.reduce((sum, s) => sum + s.sections, 0),
        poolBytes: segments.reduce((sum, s) => sum + s.poolBytes, 0),
      };
    },

    async close() {
      closing = true;
      await Promise.allSettled([...building]);
      const open = await serial(async () => {
        const old = segments;
        segments = [];
        return old;
      });
      for (const segment of open) await closeDatabase(segment);
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
