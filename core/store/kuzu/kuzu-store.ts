// Long file: the Kuzu store's methods share one connection's state; the queries themselves live in readers/ and writers/.
import path from "node:path";
import { ClauseGraphError, toErrorInfo } from "../../model/errors.ts";
import type { ScoredId } from "../../model/graph-records.ts";
import type { LiveGraphSchema, SearchHit } from "../../model/store-records.ts";
import type { GraphStore } from "../graph-store.ts";
import { DEFAULT_MIN_FREE_BYTES, ensureFreeSpace } from "../free-space.ts";
import { validateDerived, validateEntities, validateInsert } from "../validate-insert.ts";
import { ftsQueryLiteral } from "./fts-query.ts";
import { createLanes } from "./lanes.ts";
import { createLibraryVectors } from "./library-vectors.ts";
import { checkLibraryRows } from "./library-check.ts";
import { readSchemaVersion, type BeforeMigrate, type Migration } from "./migrations.ts";
import { closeLibrary, openLibrary, type OpenLibrary } from "./open-database.ts";
import { createReadOnlyConnection, readLiveSchema, type ReadOnlyConnection } from "./read-only-query.ts";
import { listComparisonRecords, readComparison, readComparisonCache, readComparisonEdges } from "./readers/comparisons.ts";
import {
  childSectionIds,
  documentKeys,
  documentOutlines,
  findDocument,
  getSection,
  getSections,
  listDocuments,
  searchRowsOf,
  sectionsByIds,
} from "./readers/documents.ts";
import { readExtractionCache } from "./readers/extraction-cache.ts";
import {
  crossReferences,
  documentReferences,
  referenceIdsInto,
  MAX_K,
  termsByIds,
  termsByNormalized,
  tripletsByIds,
  tripletsForEntityKeys,
  tripletsForSections,
  tripletsOfDocument,
} from "./readers/graph.ts";
import { documentsMissingEmbeddings, hasVectorIndex, indexNames, readSpace, stats, tableNames } from "./readers/metadata.ts";
import { sectionVectorsOfDocuments } from "./readers/vectors.ts";
import { readRelConnections, type RelConnection } from "./rel-checkpoint-guard.ts";
import { SECTION_VECTORS, TRIPLET_VECTORS, VECTOR_TABLES } from "./schema.ts";
import { fileBytes, grownPool, libraryPoolBytes, poolCeiling, POOL_REGROW, readMemoryRecord, writeMemoryRecord, writePoolBytes } from "./memory-plan.ts";
import { createSearchDatabase, type SearchDatabase } from "./search-database.ts";
import { isPoolFullError, toStoreError } from "./store-errors.ts";
import { nearestSectionsIn } from "./vector-neighbours.ts";
import { removeComparison, replaceComparisonEdges, startComparison, updateVerdicts, writeComparisonCache } from "./writers/comparisons.ts";
import { removeDocumentRows, verifyCommitted, writeDocument, writeUserAliases } from "./writers/documents.ts";
import { writeExtractionCache } from "./writers/extraction-cache.ts";
import { replaceLlmTripletRows } from "./writers/graph.ts";
import { storeVectors, switchEmbeddingSpace, type VectorTableWrite } from "./writers/vectors.ts";
import type { WriteContext } from "./writers/write-context.ts";
import { anchorSurvivingEdges } from "./rel-checkpoint-guard.ts";
import { deleteVectors } from "./writers/vectors.ts";

// The Kuzu library behind GraphStore. This file decides who may use which connection when
// (lanes.ts), keeps what lives beside the database (the vectors' mirrors and space in
// library-vectors.ts, the search database's freshness) in step with the writes, and wraps every write in the
// store's rules: read-only libraries and full disks refuse before Kuzu starts, deletions anchor the
// surviving edges (rel-checkpoint-guard.ts), and a checkpoint follows each write. The statements
// themselves are in readers/ and writers/, the Kuzu workarounds each in a file of its own.

/**
 * Vectors per table searched exactly from memory (vector-mirror.ts): a scan of this many rows stays
 * within a search's time and the engine's memory, and spares the HNSW index's upkeep on every import
 * (measured in docs/benchmarks/scale.md).
 */
export const EXACT_VECTOR_LIMIT = 250_000;

export interface KuzuStoreOptions {
  /** The database file (Kuzu 0.11 keeps one file plus `<file>.wal`); its folder is created. */
  dbPath: string;
  readOnly?: boolean;
  log?: (message: string) => void;
  /**
   * Called before an existing database is migrated to a newer schema. Default: the database files
   * are copied to `<dbPath>.backup-v<from>-<time>` (two newest kept) and put back if a migration
   * fails (MigrationFailedError, see migration-backup.ts).
   */
  beforeMigrate?: BeforeMigrate;
  /** Test hook: called between the steps of insertDocument; throwing there aborts the insert. */
  faultInjector?: (stage: string) => void;
  /**
   * Writes are refused (WRITE_FAILED) before they start when the database's disk has less than
   * this free (default 256 MB; 0 turns the check off). See free-space.ts.
   */
  minFreeBytes?: number;
  /** Sections per UNWIND statement. */
  batchSize?: number;
  /**
   * Kuzu's buffer pool for the library. Default: sized from the database file and the machine
   * (memory-plan.ts), at least what the library's memory record says a statement needed.
   */
  bufferPoolBytes?: number;
  /** The largest pool any of the library's databases may use (default: memory-plan.ts poolCeiling). */
  poolCeilingBytes?: number;
  /** Tests: the search segments' thresholds and smallest pool (search-database.ts). */
  searchSegments?: { targetSections?: number; foldSections?: number; poolFloorBytes?: number };
  /** Tests only: a different migration list. */
  migrations?: readonly Migration[];
  /**
   * Up to this many vectors a table is searched exactly, from a copy in memory (vector-mirror.ts),
   * instead of through its HNSW index (default EXACT_VECTOR_LIMIT). 0 always uses the index.
   */
  exactVectorLimit?: number;
}

export interface KuzuGraphStore extends GraphStore {
  readonly dbPath: string;
  /** True once open on a library that cannot be changed (read-only option or read-only disk). */
  isReadOnly(): boolean;
}

const DEFAULT_BATCH = 500;

interface LibraryState extends OpenLibrary {
  /** The relationship tables, read from the catalog on first use (see rel-checkpoint-guard.ts). */
  relConnections?: RelConnection[];
  /** Graph questions' own read-only connection (read-only-query.ts), made on first use. */
  readOnlyConnection?: Promise<ReadOnlyConnection>;
  liveSchema?: LiveGraphSchema;
  search: SearchDatabase;
}

// Long function: a closure over the open database and its lanes; each method is a few lines over readers/ and writers/.
export function createKuzuStore(options: KuzuStoreOptions): KuzuGraphStore {
  const dbPath = path.resolve(options.dbPath);
  const readOnlyOption = options.readOnly ?? false;
  const minFree = Math.max(0, options.minFreeBytes ?? DEFAULT_MIN_FREE_BYTES);
  const log = options.log ?? (() => {});
  const fault = options.faultInjector ?? (() => {});
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const exactLimit = Math.max(0, options.exactVectorLimit ?? EXACT_VECTOR_LIMIT);
  const lanes = createLanes();
  let state: LibraryState | null = null;
  const ceilingBytes = options.poolCeilingBytes ?? poolCeiling();
  /** The library database's buffer pool as opened (memory-plan.ts). */
  let libraryPool = 0;
  /** The pool `<library>.memory.json` says a write needed; only this process writes it. */
  let recordedPool = 0;

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

  function opened(): LibraryState {
    if (!state) throw new ClauseGraphError("INTERNAL", "the graph store is not open", { file: dbPath });
    return state;
  }

  function context(): WriteContext {
    const open = opened();
    return {
      session: open.writer,
      dbPath,
      batchSize,
      fault,
      log,
      relConnections: async () => {
        open.relConnections ??= await readRelConnections(open.writer);
        return open.relConnections;
      },
    };
  }

  /**
   * Every write goes through here first: a read-only library says so, and a nearly full disk
   * refuses the write before Kuzu starts it (see free-space.ts).
   */
  async function beforeWrite(doing: string): Promise<void> {
    if (opened().readOnly) {
      throw new ClauseGraphError(
        "WRITE_FAILED",
        `could not start ${doing}: the library ${dbPath} is open read-only (${readOnlyOption ? "as asked" : "its disk is read-only"}); it can be searched and read but not changed`,
        { file: dbPath },
      );
    }
    await ensureFreeSpace(path.dirname(dbPath), minFree, doing);
    await vectors.beforeWrite();
  }

  /** Writes what the last write committed into the database file, while its anchors are in place. */
  async function checkpoint(): Promise<void> {
    const { writer } = opened();
    await lanes.quiesce(() => writer.run("CHECKPOINT"));
  }

  /** DDL checkpoints inside Kuzu: reads are held back, and the readers' prepared statements forgotten after it. */
  async function ddl<T>(work: () => Promise<T>): Promise<T> {
    const open = opened();
    return lanes.quiesce(async () => {
      try {
        return await work();
      } finally {
        open.writer.resetPrepared();
        open.reader.resetPrepared();
      }
    });
  }

  const vectors = createLibraryVectors({ dbPath, exactLimit, lanes, opened, ddl, beforeWrite, log });

  // ---- opening -------------------------------------------------------------------------------

  async function openState(poolBytes?: number): Promise<LibraryState> {
    recordedPool = (await readMemoryRecord(dbPath)).libraryPoolBytes;
    // A pool grown after a failure (withPoolGrowth) outranks the caller's fixed one.
    libraryPool = Math.max(poolBytes ?? options.bufferPoolBytes ?? libraryPoolBytes(await fileBytes(dbPath), recordedPool, ceilingBytes), recordedPool);
    const library = await openLibrary({
      dbPath,
      readOnly: readOnlyOption,
      bufferPoolBytes: libraryPool,
      log,
      ...(options.beforeMigrate ? { beforeMigrate: options.beforeMigrate } : {}),
      ...(options.migrations ? { migrations: options.migrations } : {}),
    });
    const search = createSearchDatabase({
      dbPath,
      readOnly: library.readOnly,
      poolCeilingBytes: ceilingBytes,
      minFreeBytes: minFree,
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
    return { ...library, search };
  }

  // ---- full-text search ----------------------------------------------------------------------

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
    if (merging !== null || mergeHeld || state === null || !state.search.mergeWanted) return;
    const search = state.search;
    const rowsOf = (ids: readonly string[]) => lanes.write(() => searchRowsOf(opened().writer, ids));
    merging = (async () => {
      try {
        while (state?.search === search && search.mergeWanted) {
          if (!(await search.mergeOnce(rowsOf))) break;
        }
      } catch (err) {
        mergeHeld = true;
        if (state?.search === search) log(`merging search segments failed, the segments answer as they are: ${toErrorInfo(err).message}`);
      } finally {
        merging = null;
      }
    })();
  }

  /**
   * The index a search may use now. A write under way (in the store or a caller's batch) never
   * makes a search wait for a refresh: the segments built answer, without the sections being
   * written (deleted ones are filtered out). Otherwise the documents the segments lack are
   * indexed first, so a search after a write finds what was written.
   */
  async function searchIndexReady(): Promise<SearchDatabase> {
    const { search } = opened();
    if (!searchStale) return search;
    if (searchUsable && (batches > 0 || lanes.writing)) return search;
    try {
      await lanes.write(rebuildSearchIfStale);
    } catch (err) {
      // A full disk must not take search away: the segments built answer (search-database.ts
      // keeps them until new ones are complete).
      if (!searchUsable) throw toStoreError(err, dbPath, "building the search index");
      log(`search index not refreshed, the segments built answer: ${toErrorInfo(err).message}`);
    }
    return opened().search;
  }

  async function searchIds(query: string, k: number): Promise<ScoredId[]> {
    const literal = ftsQueryLiteral(query);
    const top = Math.min(MAX_K, Math.floor(k));
    if (literal === "" || !Number.isFinite(top) || top < 1) return [];
    return (await searchIndexReady()).query(literal, top);
  }

  // ---- documents -----------------------------------------------------------------------------

  /** Sections of these hits, with their documents, in the hits' order (deleted ones left out). */
  async function hydrate(hits: readonly ScoredId[]): Promise<SearchHit[]> {
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

  const read = <T>(work: (state: LibraryState) => Promise<T>): Promise<T> => lanes.read(() => work(opened()));

  /** Stores one document in one transaction (GraphStore.insertDocument), in the write lane. */
  function insertNow(
    doc: Parameters<GraphStore["insertDocument"]>[0],
    sections: Parameters<GraphStore["insertDocument"]>[1],
    derived: Parameters<GraphStore["insertDocument"]>[2],
  ): Promise<void> {
    return lanes.write(async () => {
      const ctx = context();
      validateInsert(doc, sections);
      if (derived !== undefined) validateDerived(doc, derived);
      await beforeWrite(`storing ${doc.fileName}`);
      if (await findDocument(ctx.session, "id", doc.id)) {
        throw new ClauseGraphError("VALIDATION", `document ${doc.id} is already in the database`, { file: doc.file });
      }
      const started = Date.now();
      searchStale = true;
      const withVectors = derived !== undefined && (derived.sectionEmbeddings.size > 0 || derived.tripletEmbeddings.size > 0);
      const space = withVectors ? await readSpace(ctx.session) : null;
      if (withVectors && space === null) throw new ClauseGraphError("INTERNAL", "vectors were given before an embedding model was chosen (useEmbeddingSpace)");
      try {
        await ctx.session.transaction(() => writeDocument(ctx, doc, sections, derived));
        // A commit that loses rows is a Kuzu bug (hnsw-commit-guard.ts); should another one
        // appear, the import fails here instead of reporting "ok" for a document that is gone.
        await verifyCommitted(ctx, doc, sections.length);
        if (derived && space) {
          const tripletSection = new Map(derived.triplets.map((t) => [t.id, t.sectionId]));
          try {
            const added = await storeVectors(ctx, doc.id, space, [
              { spec: SECTION_VECTORS, vectors: derived.sectionEmbeddings, sectionOf: (id) => id },
              { spec: TRIPLET_VECTORS, vectors: derived.tripletEmbeddings, sectionOf: (id) => tripletSection.get(id) ?? "" },
            ]);
            vectors.changed({ documentId: doc.id, added });
            fault("embeddings");
          } catch (err) {
            // The vectors are written after the graph (hnsw-commit-guard.ts); a failure there
            // takes the document out again, so a failed import leaves the library as it was.
            // (A crash there instead leaves the document without vectors, re-embedded at the next start.)
            vectors.changed({ documentId: doc.id, dropped: true });
            await removeDocumentRows(ctx, doc.id).catch((cleanup: unknown) =>
              log(`could not remove ${doc.id} after a failed vector write: ${toErrorInfo(cleanup).message}`),
            );
            throw err;
          }
        }
        await checkpoint();
      } catch (err) {
        throw toStoreError(err, dbPath, `storing ${doc.fileName}`);
      }
      log(`stored ${doc.fileName}: ${sections.length} sections in ${Date.now() - started} ms`);
    });
  }

  /** Closes the library and opens it again with a pool of `bytes` (between writes, in the exclusive lane). */
  async function reopenWithPool(bytes: number): Promise<void> {
    await lanes.exclusive(async () => {
      if (!state) return;
      const open = state;
      state = null;
      await open.search.close().catch(() => undefined);
      await (await open.readOnlyConnection)?.close().catch(() => undefined);
      await closeLibrary(open, dbPath);
      state = await openState(bytes);
      vectors.forget();
    });
  }

  /**
   * Before a write: a library that grew past what its pool was sized for is reopened with the
   * pool its size calls for, while no statement runs. A write that fills the pool can leave Kuzu
   * 0.11.3's library unreadable (bench:scale: reads of its sections segfaulted afterwards), so the
   * pool is kept ahead of the library rather than grown after a failure.
   */
  async function growIfOutgrown(doing: string, writeChars = 0): Promise<void> {
    if (options.bufferPoolBytes !== undefined || state === null || state.readOnly) return;
    // A large document needs room of its own in one transaction, whatever the library's size.
    const wanted = Math.max(libraryPoolBytes(await fileBytes(dbPath), recordedPool, ceilingBytes), writePoolBytes(writeChars, ceilingBytes));
    if (wanted < libraryPool * POOL_REGROW) return;
    log(
      `the library's buffer pool of ${Math.round(libraryPool / 2 ** 20)} MB is too small for its size or for ${doing}: reopened with ${Math.round(wanted / 2 ** 20)} MB`,
    );
    await reopenWithPool(wanted);
  }

  /**
   * A write that found the library's buffer pool too small (Kuzu rolled it back) grows the pool,
   * records it for the next start (memory-plan.ts), reopens the library with it and runs once more,
   * unless `done` says the write took effect before the failure (a checkpoint after the commit).
   */
  async function withPoolGrowth<T>(doing: string, done: () => Promise<boolean>, write: () => Promise<T>, writeChars = 0): Promise<T | void> {
    await growIfOutgrown(doing, writeChars);
    try {
      return await write();
    } catch (err) {
      if (!isPoolFullError(err) || state === null || state.readOnly) throw err;
      const larger = grownPool(libraryPool, ceilingBytes);
      if (larger === null) throw err;
      log(
        `${doing} needed more memory than the library's buffer pool of ${Math.round(libraryPool / 2 ** 20)} MB: reopened with ${Math.round(larger / 2 ** 20)} MB`,
      );
      await writeMemoryRecord(dbPath, {
        libraryPoolBytes: larger,
        reason: `${doing} filled a pool of ${Math.round(libraryPool / 2 ** 20)} MB`,
        at: new Date().toISOString(),
      });
      await reopenWithPool(larger);
      if (await done()) return;
      return write();
    }
  }

  return {
    dbPath,

    isReadOnly: () => state?.readOnly ?? readOnlyOption,

    open: () =>
      lanes.exclusive(async () => {
        if (state) return;
        state = await openState();
        vectors.forget();
      }),

    close: () =>
      lanes.exclusive(async () => {
        if (!state) return;
        const open = state;
        await vectors.saveSnapshots(open.readOnly);
        state = null;
        await open.search.close().catch((err: unknown) => log(`closing the search index failed: ${toErrorInfo(err).message}`));
        await (await open.readOnlyConnection)?.close().catch(() => undefined);
        await closeLibrary(open, dbPath);
      }),

    batchWrites: async (work) => {
      batches++;
      try {
        return await work();
      } finally {
        batches--;
      }
    },

    schemaVersion: () => read(({ reader }) => readSchemaVersion(reader)),
    findDocumentBySha: (sha256) => read(({ reader }) => findDocument(reader, "sha256", sha256)),
    getDocument: (id) => read(({ reader }) => findDocument(reader, "id", id)),
    listDocuments: () => read(({ reader }) => listDocuments(reader)),
    checkLibrary: () => read(({ reader }) => checkLibraryRows(reader)),
    getSection: (id) => read(({ reader }) => getSection(reader, id)),
    getSections: (documentId) => read(({ reader }) => getSections(reader, documentId)),
    // The import's own read (every section's label, ~100–140 ms for the ten corpus PDFs), made
    // in the write lane on the writer's connection: the read lane is one connection taken in
    // turn, and searches during an import waited behind it.
    getDocumentOutlines: (documentIds) => lanes.write(() => documentOutlines(opened().writer, documentIds)),
    getSectionsByIds: (ids) => read(({ reader }) => sectionsByIds(reader, ids)),
    getChildSectionIds: (ids) => read(({ reader }) => childSectionIds(reader, ids)),
    getCrossReferences: (sectionIds) => read(({ reader }) => crossReferences(reader, sectionIds)),
    getDocumentReferences: (documentId) => read(({ reader }) => documentReferences(reader, documentId)),
    getReferenceIdsInto: (sectionIds) => read(({ reader }) => referenceIdsInto(reader, sectionIds)),
    getTermsByNormalized: (terms) => read(({ reader }) => termsByNormalized(reader, terms)),
    getTermsByIds: (ids) => read(({ reader }) => termsByIds(reader, ids)),
    getTriplets: (documentId) => read(({ reader }) => tripletsOfDocument(reader, documentId)),
    getTripletsForSections: (ids) => read(({ reader }) => tripletsForSections(reader, ids)),
    getTripletsByIds: (ids) => read(({ reader }) => tripletsByIds(reader, ids)),
    getTripletsForEntityKeys: (keys, limit) => read(({ reader }) => tripletsForEntityKeys(reader, keys, limit)),
    stats: () => read(({ reader }) => stats(reader)),
    embeddingSpace: () => read(({ reader }) => readSpace(reader)),
    documentsMissingEmbeddings: () => read(async ({ reader }) => documentsMissingEmbeddings(reader, (await readSpace(reader))?.modelId ?? "")),
    getExtractionCache: (keys) => read(({ reader }) => readExtractionCache(reader, keys, batchSize)),
    getSectionVectors: (documentIds) =>
      read(async ({ reader }) => ((await tableNames(reader)).has(SECTION_VECTORS.table) ? sectionVectorsOfDocuments(reader, documentIds) : new Map())),
    getComparison: (id) => read(({ reader }) => readComparison(reader, id)),
    listComparisons: () => read(({ reader }) => listComparisonRecords(reader)),
    getComparisonEdges: (id) =>
      read(async ({ reader }) => {
        const comparison = await readComparison(reader, id);
        return comparison === null ? [] : readComparisonEdges(reader, comparison);
      }),
    getComparisonCache: (keys) => read(({ reader }) => readComparisonCache(reader, keys, batchSize)),
    graphSchema: () =>
      read(async (open) => {
        open.liveSchema ??= await readLiveSchema(open.reader);
        return open.liveSchema;
      }),
    readOnlyQuery: (cypher, params, queryOptions) =>
      // On a connection of its own, but in the read lane: a query running for seconds would keep a
      // checkpoint from starting (lanes.ts).
      read(async (open) => {
        open.readOnlyConnection ??= createReadOnlyConnection(open.db, dbPath);
        return (await open.readOnlyConnection).run(cypher, params, queryOptions.timeoutMs);
      }),

    searchSectionIds: (query, k) => searchIds(query, k),
    searchSections: async (query, k) => hydrate(await searchIds(query, k)),
    searchSectionsByVector: async (vector, k) => (await vectors.search(SECTION_VECTORS, vector, k)).map(({ id, score }) => ({ id, score })),
    searchTripletIdsByVector: async (vector, k) =>
      (await vectors.search(TRIPLET_VECTORS, vector, k)).map(({ id, sectionId, score }) => ({ id, sectionId, score })),
    sectionVectorsByIds: (ids, modelId) => vectors.sectionVectors(ids, modelId),

    refreshSearchIndex: () =>
      lanes.write(async () => {
        await rebuildSearchIfStale();
        await vectors.refresh();
      }),

    memoryUse: () => {
      const segments = state?.search.describe() ?? { segments: 0, sections: 0, poolBytes: 0 };
      let vectorMirrorRows = 0;
      vectorMirrorRows += vectors.mirrorRows();
      return { vectorMirrorRows, searchSegments: segments.segments, poolBytes: (state === null ? 0 : libraryPool) + segments.poolBytes };
    },

    searchIndexSettled: async () => {
      for (;;) {
        if (merging === null) mergeInBackground();
        const running = merging as Promise<void> | null;
        if (running === null) return state?.search.describe() ?? { segments: 0, sections: 0, poolBytes: 0 };
        await running;
        // A merge that found its segments changed under it stops; the loop starts the next one.
        if (state === null || mergeHeld || !state.search.mergeWanted) return state?.search.describe() ?? { segments: 0, sections: 0, poolBytes: 0 };
      }
    },

    nearestSections: (queries, k, documentIds) =>
      // A restricted search projects a graph, which Kuzu counts as a write: the write lane.
      lanes.write(async () => {
        const open = opened();
        const space = await readSpace(open.writer);
        if (space === null || queries.length === 0) return new Map();
        // A comparison is stored in the library anyway, so a read-only one says so here, before any work.
        if (open.readOnly) {
          throw new ClauseGraphError("WRITE_FAILED", `the library ${dbPath} is open read-only: comparisons are stored in it, so none can be computed`, {
            file: dbPath,
          });
        }
        await vectors.refresh();
        if (!hasVectorIndex(await indexNames(open.writer), SECTION_VECTORS)) return new Map();
        return nearestSectionsIn(open.writer, space, queries, Math.min(MAX_K, k), documentIds);
      }),

    setUserAliases: (id, edit) =>
      lanes.write(async () => {
        const { writer } = opened();
        await beforeWrite("changing a document's names");
        if (!(await findDocument(writer, "id", id))) throw new ClauseGraphError("NOT_FOUND", `No document with id ${id}`);
        await writeUserAliases(context(), id, edit);
        await checkpoint();
        const updated = await findDocument(writer, "id", id);
        if (!updated) throw new ClauseGraphError("NOT_FOUND", `No document with id ${id}`);
        return updated;
      }),

    insertDocument: (doc, sections, derived) =>
      withPoolGrowth(
        `storing ${doc.fileName}`,
        async () => (await read(({ reader }) => findDocument(reader, "id", doc.id))) !== null,
        () => insertNow(doc, sections, derived),
        sections.reduce((sum, s) => sum + s.text.length, 0),
      ),

    deleteDocument: (id) =>
      lanes.write(async () => {
        const ctx = context();
        const doc = await findDocument(ctx.session, "id", id);
        if (!doc) return false;
        await beforeWrite(`deleting ${doc.fileName}`);
        const started = Date.now();
        searchStale = true;
        // Deleted vectors stay in the HNSW graph: the next refresh checks for wear (vector-compaction.ts).
        vectors.indexesStale();
        try {
          await removeDocumentRows(ctx, id);
        } finally {
          vectors.changed({ documentId: id, dropped: true });
        }
        await checkpoint();
        log(`deleted ${doc.fileName} in ${Date.now() - started} ms`);
        return true;
      }),

    useEmbeddingSpace: (space) =>
      lanes.write(async () => {
        const { writer } = opened();
        const current = await readSpace(writer);
        const tables = await tableNames(writer);
        const complete = VECTOR_TABLES.every((spec) => tables.has(spec.table));
        if (current !== null && current.modelId === space.modelId && current.dimensions === space.dimensions && complete) return { changed: false };
        await beforeWrite(`switching the library to the embedding model ${space.modelId}`);
        await ddl(() => switchEmbeddingSpace(writer, space));
        vectors.forget();
        log(`embedding space set to ${space.modelId} (${space.dimensions} dimensions)${current ? ` (was ${current.modelId})` : ""}`);
        return { changed: current !== null };
      }),

    putEmbeddings: (documentId, sections, triplets) =>
      lanes.write(async () => {
        const ctx = context();
        const space = await readSpace(ctx.session);
        if (space === null) throw new ClauseGraphError("INTERNAL", "vectors were given before an embedding model was chosen (useEmbeddingSpace)");
        await beforeWrite(`storing the vectors of ${documentId}`);
        const tripletSection = new Map<string, string>();
        const rows = await ctx.session.run("MATCH (t:Triplet) WHERE t.documentId = $documentId RETURN t.id AS id, t.sectionId AS sectionId", { documentId });
        for (const r of rows) tripletSection.set(String(r.id), String(r.sectionId));
        try {
          await ctx.session.transaction(async () => {
            // An interrupted earlier run may have stored part of them: start this document afresh.
            for (const spec of VECTOR_TABLES) await deleteVectors(ctx.session, spec, "v.documentId = $documentId", { documentId });
            await ctx.session.run("MATCH (d:Document) WHERE d.id = $id SET d.embeddedWith = ''", { id: documentId });
          });
          vectors.changed({ documentId, dropped: true });
          const tablesWritten: VectorTableWrite[] = [
            { spec: SECTION_VECTORS, vectors: sections, sectionOf: (id) => id },
            { spec: TRIPLET_VECTORS, vectors: triplets, sectionOf: (id) => tripletSection.get(id) ?? "" },
          ];
          vectors.changed({ documentId, added: await storeVectors(ctx, documentId, space, tablesWritten) });
          await checkpoint();
        } catch (err) {
          vectors.changed({ documentId, reload: true });
          throw toStoreError(err, dbPath, `storing vectors of ${documentId}`);
        }
      }),

    startComparison: (comparison) =>
      lanes.write(async () => {
        await beforeWrite(`starting the comparison ${comparison.id}`);
        try {
          await startComparison(opened().writer, comparison);
          await checkpoint();
        } catch (err) {
          throw toStoreError(err, dbPath, `starting the comparison ${comparison.id}`);
        }
      }),

    writeComparison: (write) =>
      lanes.write(async () => {
        const ctx = context();
        await beforeWrite(`storing the comparison ${write.comparison.id}`);
        let deleted = 0;
        try {
          await ctx.session.transaction(async () => {
            deleted = await replaceComparisonEdges(ctx.session, write, batchSize);
            fault("compare:edges");
            // Replaced edges were deleted: the survivors are anchored before anything checkpoints
            // (rel-checkpoint-guard.ts). This transaction creates no node, so the anchors may end it.
            if (deleted > 0) await anchorSurvivingEdges(ctx.session, await ctx.relConnections());
          });
          await checkpoint();
        } catch (err) {
          throw toStoreError(err, dbPath, `storing the comparison ${write.comparison.id}`);
        }
        return { deleted, created: write.edges.length };
      }),

    setComparisonVerdicts: (comparison, verdicts) =>
      lanes.write(async () => {
        const { writer } = opened();
        await beforeWrite(`storing verdicts of the comparison ${comparison.id}`);
        try {
          const updated = await writer.transaction(() => updateVerdicts(writer, comparison, verdicts, batchSize));
          await checkpoint();
          return updated;
        } catch (err) {
          throw toStoreError(err, dbPath, `storing verdicts of the comparison ${comparison.id}`);
        }
      }),

    deleteComparison: (id) =>
      lanes.write(async () => {
        const ctx = context();
        const comparison = await readComparison(ctx.session, id);
        if (comparison === null) return false;
        await beforeWrite(`deleting the comparison ${id}`);
        try {
          await ctx.session.transaction(async () => {
            const deleted = await removeComparison(ctx.session, comparison);
            if (deleted > 0) await anchorSurvivingEdges(ctx.session, await ctx.relConnections());
          });
          await checkpoint();
        } catch (err) {
          throw toStoreError(err, dbPath, `deleting the comparison ${id}`);
        }
        return true;
      }),

    putComparisonCache: (entry) =>
      lanes.write(async () => {
        await beforeWrite("saving a comparison result");
        await writeComparisonCache(opened().writer, entry, new Date().toISOString());
      }),

    putExtractionCache: (entry) =>
      lanes.write(async () => {
        await beforeWrite("saving an extraction result");
        await writeExtractionCache(opened().writer, entry, new Date().toISOString());
      }),

    replaceLlmTriplets: (documentId, write) =>
      lanes.write(async () => {
        const ctx = context();
        if (!(await findDocument(ctx.session, "id", documentId))) throw new ClauseGraphError("NOT_FOUND", `No document with id ${documentId}`);
        await beforeWrite(`storing the LLM triplets of ${documentId}`);
        for (const t of write.triplets) {
          if (t.source !== "llm" || t.documentId !== documentId || !t.id.startsWith(`${documentId}:`)) {
            throw new ClauseGraphError("VALIDATION", `triplet ${t.id} is not an LLM triplet of document ${documentId}`);
          }
        }
        validateEntities(`the LLM triplets of ${documentId}`, write.entities, write.triplets);
        const space = await readSpace(ctx.session);
        const tables = await tableNames(ctx.session);
        const withVectors = space !== null && write.embeddingModel === space.modelId && tables.has(TRIPLET_VECTORS.table);
        vectors.indexesStale();
        try {
          await replaceLlmTripletRows(ctx, documentId, write, { withVectors, tripletVectorTable: tables.has(TRIPLET_VECTORS.table) });
          if (withVectors) {
            const tripletSection = new Map(write.triplets.map((t) => [t.id, t.sectionId]));
            // New rows only: a property under a vector index cannot be SET.
            await storeVectors(ctx, documentId, space, [
              { spec: TRIPLET_VECTORS, vectors: write.tripletEmbeddings, sectionOf: (id) => tripletSection.get(id) ?? "" },
            ]);
          }
          await checkpoint();
        } catch (err) {
          throw toStoreError(err, dbPath, `storing the LLM triplets of ${documentId}`);
        } finally {
          // Some of the document's triplet vectors went, others came: the mirrors are read again.
          vectors.changed({ documentId, reload: true });
        }
        return { triplets: write.triplets.length, entities: write.entities.length };
      }),
  };
}
