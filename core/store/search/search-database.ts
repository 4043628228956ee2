import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { ScoredId } from "../../model/graph-records.ts";
import { toErrorInfo } from "../../model/errors.ts";
import { createTermStems, queryIndexTerms } from "./fulltext-terms.ts";
import { searchFullText } from "./fulltext-index.ts";
import {
  mergePlan,
  mergeSegmentsOnce,
  refreshSegments,
  removeFiles,
  uncovered,
  type RefreshOutcome,
  type RowsOf,
  type SearchState,
} from "./search-segment-builds.ts";
import { fingerprintOf, openSegment, readSegment, type IndexedDocument, type Segment } from "./search-segment-files.ts";

// Full-text search (BM25) lives in files of its own, `<library>.search/<n>.fts`: segments, each
// the inverted index of a set of whole documents (fulltext-index.ts), built once and then only
// read. The engine keeps them in memory and scores a query itself: with the index in Kuzu a
// query cost a database call per segment whatever it found, and Kuzu 0.11.3 could neither
// maintain an FTS index under writes nor build one without stalling its other connections.
//
// Segments, as a search engine keeps them (Lucene's tiered merges): rebuilding one index of the
// whole library after each import grows with the library, so a document imported into a large
// library gets a small segment of its own, searched beside the others at once, and small segments
// are merged in the background into segments of about SEGMENT_TARGET_SECTIONS while the old ones
// keep answering. A small library is still one index rebuilt whole (FOLD_SECTIONS): at that size
// the rebuild costs what a delta would, and its scores keep one set of statistics.
//
// Each segment records the documents it indexes (ids and sha256); at the next start the newest
// segments that cover the library without overlap are used as they are, and the documents none
// covers are indexed anew. Rows of documents deleted since are filtered out of results until a
// merge drops them. A build a crash interrupted left only a partial file, removed. A library on a
// read-only disk uses the segments it has, and builds what is missing in the temporary folder.
// Segments of the Kuzu format that came before are removed and their documents indexed anew.
//
// The parts: a segment's file (search-segment-files.ts), its index and scoring
// (fulltext-index.ts), refreshes, merges and swaps (search-segment-builds.ts). This file holds
// the open segments and answers the store.

const FILE_PATTERN = /^(\d+)\.fts$/;
/** Files of a segment format that came before, or of a build a crash interrupted: removed at open. */
const STALE_PATTERN = /^\d+\.(kuzu(\.wal|\.shadow)?|fts\.tmp)$/;

/** Merges aim at segments of about this many sections: large enough that few are searched, small enough to build in bounded memory. */
export const SEGMENT_TARGET_SECTIONS = 16_000;
/** Up to this many sections, the small segments and new documents are indexed again as one, in the import's own time. */
export const FOLD_SECTIONS = 6_000;

export interface SearchDatabaseOptions {
  /** The library's database file; segments live in `<dbPath>.search/`. */
  dbPath: string;
  /** The library cannot be written: existing segments are opened read-only, new ones go to the temporary folder. */
  readOnly: boolean;
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
  describe(): { segments: number; sections: number; bytes: number };
  close(): Promise<void>;
}

export function searchDirectory(dbPath: string): string {
  return `${dbPath}.search`;
}

export function createSearchDatabase(options: SearchDatabaseOptions): SearchDatabase {
  // Queries run one at a time (they share each index's scratch); a swap waits for the one in
  // flight.
  let queue: Promise<unknown> = Promise.resolve();
  const stems = createTermStems();
  const state: SearchState = {
    readOnly: options.readOnly,
    log: options.log,
    target: options.targetSections ?? SEGMENT_TARGET_SECTIONS,
    fold: options.foldSections ?? FOLD_SECTIONS,
    minFree: Math.max(0, options.minFreeBytes ?? 0),
    dir: searchDirectory(options.dbPath),
    temporary: null,
    segments: [],
    live: new Map<string, string>(),
    nextN: 1,
    closing: false,
    building: new Set<Promise<unknown>>(),
    buildTail: Promise.resolve(),
    serial: <T>(work: () => Promise<T>): Promise<T> => {
      const next = queue.then(work, work);
      queue = next.catch(() => undefined);
      return next;
    },
  };

  return {
    openExisting: (documents) => openExistingSegments(state, documents),

    covers(documents) {
      if (uncovered(state, documents).length > 0) return false;
      const ids = new Set(documents.map((d) => d.id));
      // A deleted document's rows in a small segment are folded away at once, as a small library always was.
      return state.segments.every((s) => s.sections >= state.fold || s.documents.every((d) => ids.has(d.id)));
    },

    refresh: (documents, rowsOf) => refreshSegments(state, documents, rowsOf),

    get mergeWanted() {
      return !state.closing && !state.readOnly && mergePlan(state).length > 0;
    },

    mergeOnce: (rowsOf) => mergeSegmentsOnce(state, rowsOf),

    query(literal, top) {
      return state.serial(async () => {
        const k = Math.floor(top);
        if (state.segments.length === 0 || literal === "" || k < 1) return [];
        const terms = queryIndexTerms(literal, stems);
        const hits: ScoredId[] = [];
        for (const segment of state.segments) {
          const { index } = segment;
          // Rows of a document deleted, or replaced by another edition, since the segment was built are skipped.
          const keep = (row: number): boolean => {
            const doc = index.documentIds[index.documentOf[row] ?? 0] ?? "";
            const sha = state.live.get(doc);
            return sha !== undefined && sha === segment.shaOf.get(doc);
          };
          for (const hit of searchFullText(index, terms, k, keep)) hits.push({ id: index.ids[hit.row] ?? "", score: hit.score });
        }
        // Each segment scores with its own statistics; merged segments are large enough that
        // they agree closely, and a small delta is merged soon after it is made.
        return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, k);
      });
    },

    describe() {
      return {
        segments: state.segments.length,
        sections: state.segments.reduce((sum, s) => sum + s.sections, 0),
        bytes: state.segments.reduce((sum, s) => sum + s.bytes, 0),
      };
    },

    async close() {
      state.closing = true;
      await Promise.allSettled([...state.building]);
      await state.serial(async () => {
        state.segments = [];
      });
      if (state.temporary !== null) {
        await rm(state.temporary, { recursive: true, force: true });
        state.temporary = null;
        state.dir = searchDirectory(options.dbPath);
      }
    },
  };
}

/** The segment files in the folder, newest first, and the files of formats before or of interrupted builds. */
async function existing(dir: string): Promise<{ segments: Array<{ n: number; file: string }>; stale: string[] }> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const segments = names
    .flatMap((name) => {
      const m = FILE_PATTERN.exec(name);
      return m ? [{ n: Number(m[1]), file: path.join(dir, name) }] : [];
    })
    .sort((a, b) => b.n - a.n);
  return { segments, stale: names.filter((name) => STALE_PATTERN.test(name)).map((name) => path.join(dir, name)) };
}

/** SearchDatabase.openExisting: the newest segments that cover these documents without overlap; the rest are removed. */
async function openExistingSegments(state: SearchState, documents: readonly IndexedDocument[]): Promise<void> {
  const { log } = state;
  state.live = new Map(documents.map((d) => [d.id, d.sha256]));
  const { segments: found, stale } = await existing(state.dir);
  for (const file of stale) await removeFiles(state, file);
  state.nextN = Math.max(state.nextN, (found[0]?.n ?? 0) + 1);
  const kept: Segment[] = [];
  const covered = new Set<string>();
  for (const candidate of found) {
    let segment: Segment | null = null;
    try {
      const read = await readSegment(candidate.file);
      const record = read?.record ?? null;
      // Usable: complete, built this way, of documents whose content is the library's, and
      // none already covered by a newer segment (which then replaced it).
      const usable =
        record !== null &&
        record.fingerprint === fingerprintOf(record.documents) &&
        record.documents.every((d) => !covered.has(d.id) && (!state.live.has(d.id) || state.live.get(d.id) === d.sha256));
      if (usable && read !== null) segment = openSegment(candidate.n, candidate.file, read);
    } catch (err) {
      log(`search segment ${candidate.file} is unreadable, it is rebuilt: ${toErrorInfo(err).message}`);
    }
    if (segment === null) {
      // Other contents, or superseded: never read again.
      await removeFiles(state, candidate.file);
      continue;
    }
    for (const d of segment.documents) covered.add(d.id);
    kept.push(segment);
  }
  await state.serial(async () => {
    state.segments = kept;
  });
}

/** Removes the search databases of a library file (a rebuilt library's, once swapped in). */
export async function removeSearchDatabases(dbPath: string): Promise<void> {
  await rm(searchDirectory(dbPath), { recursive: true, force: true });
}
