import { toErrorInfo } from "../../model/errors.ts";
import type { ScoredId } from "../../model/graph-records.ts";
import type { SearchHit } from "../../model/store-records.ts";
import type { GraphStore } from "../graph-store.ts";
import { ftsQueryLiteral } from "../search/fts-query.ts";
import type { StoreCore } from "./kuzu-store-core.ts";
import type { OpenLibrary } from "./open-database.ts";
import { documentKeys, searchRowsOf, sectionsByIds } from "./readers/documents.ts";
import { MAX_K } from "./readers/graph.ts";
import { createSearchDatabase, type SearchDatabase, type SearchDatabaseOptions } from "../search/search-database.ts";
import { toStoreError } from "./store-errors.ts";

// The Kuzu store's full-text search: the search database beside the library (search-database.ts)
// kept in step with the writes, refreshed before a search that needs it, and its small segments
// merged in the background.

/** What the search database's opening reads from KuzuStoreOptions, when it opens. */
export interface StoreSearchOptions {
  /** Tests: the search segments' thresholds. */
  searchSegments?: Pick<SearchDatabaseOptions, "targetSections" | "foldSections">;
}

export interface StoreSearch {
  /** Opens the search database of a library just opened; its freshness is found out anew. */
  open(library: OpenLibrary): Promise<SearchDatabase>;
  /** Sections are being written or deleted: the next search that cannot wait indexes them first. */
  markStale(): void;
  methods: Pick<GraphStore, "batchWrites" | "searchSectionIds" | "searchSections" | "refreshSearchIndex" | "searchIndexSettled">;
}

/** Sections of these hits, with their documents, in the hits' order (deleted ones left out). */
async function hydrate({ lanes, opened }: StoreCore, hits: readonly ScoredId[]): Promise<SearchHit[]> {
  const rows = new Map(
    (
      await lanes.read(() =>
        sectionsByIds(
          opened().reader,
          hits.map((h) => h.id),
        ),
      )
    ).map((r) => [r.section.id, r]),
  );
  return hits.flatMap((h) => {
    const row = rows.get(h.id);
    return row === undefined ? [] : [{ ...row, score: h.score }];
  });
}

export function createStoreSearch(core: StoreCore, options: StoreSearchOptions): StoreSearch {
  const { dbPath, lanes, opened, log } = core;

  // What lives beside the database, kept in step with the writes. Only this process can write the
  // library (Kuzu locks the file), so these flags are the truth about it.
  /** Sections were written or deleted since the search database was built (search-database.ts). */
  let searchStale = true;
  /** Caller write tasks under way (batchWrites): stale full-text searches keep to the last index. */
  let batches = 0;
  /** The search segments covered the library once this session: a stale search may use them meanwhile. */
  let searchUsable = false;
  /** The background merge of search segments under way, if any (search-database.ts). */
  let merging: Promise<void> | null = null;
  /** A merge failed: none starts again before the next refresh (a full disk would fail each one). */
  let mergeHeld = false;

  async function open(library: OpenLibrary): Promise<SearchDatabase> {
    const search = createSearchDatabase({
      dbPath,
      readOnly: library.readOnly,
      minFreeBytes: core.minFree,
      ...(options.searchSegments ?? {}),
      log,
    });
    searchUsable = false;
    try {
      const documents = await documentKeys(library.writer);
      await search.openExisting(documents);
      searchStale = !search.covers(documents);
      searchUsable = !searchStale;
    } catch (err) {
      log(`the search index could not be opened, it is rebuilt: ${toErrorInfo(err).message}`);
      searchStale = true;
    }
    return search;
  }

  /** In the write lane: indexes the documents the search segments lack (search-database.ts). */
  async function rebuildSearchIfStale(): Promise<void> {
    const open = opened();
    if (!searchStale) return;
    const documents = await documentKeys(open.writer);
    // Nothing writes meanwhile (this runs in the write lane): the rows read are the library's.
    const outcome = await open.search.refresh(documents, (ids) => searchRowsOf(open.writer, ids));
    searchStale = false;
    searchUsable = true;
    mergeHeld = false;
    // A fold is the index rebuilt whole, as a small library's always was; a delta is a new segment.
    if (outcome.kind === "fold" && outcome.sections > 0) log(`search index rebuilt in ${outcome.ms} ms (${outcome.sections} sections)`);
    if (outcome.kind === "delta") log(`search index: new segment of ${outcome.documents} documents (${outcome.sections} sections) in ${outcome.ms} ms`);
    mergeInBackground();
  }

  /**
   * Small segments are merged while the others keep answering: the rows are read in the write lane
   * (a moment), the index is built outside every lane, and the merged segment is swapped in.
   */
  function mergeInBackground(): void {
    if (merging !== null || mergeHeld || core.state === null || !core.state.search.mergeWanted) return;
    const search = core.state.search;
    const rowsOf = (ids: readonly string[]) => lanes.write(() => searchRowsOf(opened().writer, ids));
    merging = (async () => {
      try {
        while (core.state?.search === search && search.mergeWanted) {
          if (!(await search.mergeOnce(rowsOf))) break;
        }
      } catch (err) {
        mergeHeld = true;
        if (core.state?.search === search) log(`merging search segments failed, the segments answer as they are: ${toErrorInfo(err).message}`);
      } finally {
        merging = null;
      }
    })();
  }

  /**
   * Before a search: a write under way (in the store or a caller's batch) never makes a search
   * wait for a refresh: the segments built answer, without the sections being written (deleted
   * ones are filtered out). Otherwise the documents the segments lack are indexed first, so a
   * search after a write finds what was written. Outside the search lane: the refresh waits for
   * the write lane (lanes.ts).
   */
  async function refreshBeforeSearch(): Promise<void> {
    if (!searchStale) return;
    if (searchUsable && (batches > 0 || lanes.writing)) return;
    try {
      await lanes.write(rebuildSearchIfStale);
    } catch (err) {
      // A full disk must not take search away: the segments built answer (search-database.ts
      // keeps them until new ones are complete).
      if (!searchUsable) throw toStoreError(err, dbPath, "building the search index");
      log(`search index not refreshed, the segments built answer: ${toErrorInfo(err).message}`);
    }
  }

  async function searchIds(query: string, k: number): Promise<ScoredId[]> {
    const literal = ftsQueryLiteral(query);
    const top = Math.min(MAX_K, Math.floor(k));
    if (literal === "" || !Number.isFinite(top) || top < 1) return [];
    await refreshBeforeSearch();
    // In the search lane, the library is the one open now: a search arriving while it is swapped
    // (compaction, a larger pool) waits for the swap and runs on the library swapped in.
    return lanes.search(() => opened().search.query(literal, top));
  }

  return {
    open,
    markStale: () => {
      searchStale = true;
    },
    methods: {
      batchWrites: async (work) => {
        batches++;
        try {
          return await work();
        } finally {
          batches--;
        }
      },

      searchSectionIds: (query, k) => searchIds(query, k),
      searchSections: async (query, k) => hydrate(core, await searchIds(query, k)),

      refreshSearchIndex: () =>
        lanes.write(async () => {
          await rebuildSearchIfStale();
          await core.vectors.refresh();
        }),

      searchIndexSettled: async () => {
        for (;;) {
          if (merging === null) mergeInBackground();
          const running = merging as Promise<void> | null;
          if (running === null) return core.state?.search.describe() ?? { segments: 0, sections: 0, bytes: 0 };
          await running;
          // A merge that found its segments changed under it stops; the loop starts the next one.
          if (core.state === null || mergeHeld || !core.state.search.mergeWanted)
            return core.state?.search.describe() ?? { segments: 0, sections: 0, bytes: 0 };
        }
      },
    },
  };
}
