import { toErrorInfo } from "../../model/errors.ts";
import { createMatrixScan } from "../matrix-scan.ts";
import type { EmbeddingSpace } from "../../model/store-records.ts";
import type { Lanes } from "./lanes.ts";
import type { OpenLibrary } from "./open-database.ts";
import { MAX_K } from "./readers/graph.ts";
import { countRows, hasVectorIndex, indexNames, readSpace, tableNames } from "./readers/metadata.ts";
import { hnswSearch, storedSectionVectors, vectorRows, vectorRowsPerDocument } from "./readers/vectors.ts";
import { SECTION_VECTORS, TRIPLET_VECTORS, VECTOR_TABLES, type VectorTableSpec } from "./schema.ts";
import { compactIfWorn } from "./vector-compaction.ts";
import { VectorMirror, hasDirection, type VectorHit, type VectorRow } from "./vector-mirror.ts";
import { readVectorSnapshot, removeVectorSnapshots, writeVectorSnapshot } from "./vector-snapshot.ts";
import { buildMissingVectorIndexes } from "./writers/vectors.ts";

// The library's vectors as the store keeps them beside Kuzu: the embedding space, each table's
// mirror in memory for the exact scan (vector-mirror.ts) and its snapshot on disk
// (vector-snapshot.ts), and the HNSW indexes where the scan does not serve. The store tells it of
// every write (beforeWrite, changed, forget); it reads through the store's lanes.

export interface LibraryVectorsOptions {
  dbPath: string;
  /** Up to this many rows a table is searched exactly from its mirror. */
  exactLimit: number;
  lanes: Lanes;
  opened: () => Pick<OpenLibrary, "reader" | "writer" | "readOnly">;
  /** Runs DDL with reads held back (kuzu-store.ts). */
  ddl: <T>(work: () => Promise<T>) => Promise<T>;
  /** The store's checks before any write (read-only library, free space). */
  beforeWrite: (doing: string) => Promise<void>;
  log: (message: string) => void;
}

export interface LibraryVectors {
  search(spec: VectorTableSpec, vector: Float32Array, k: number): Promise<VectorHit[]>;
  sectionVectors(ids: readonly string[], modelId: string): Promise<Map<string, Float32Array>>;
  /** In the write lane: compacts worn vector tables and builds missing HNSW indexes. */
  refresh(): Promise<void>;
  /** Before a write starts: the snapshots on disk go (a crash then leaves none that is stale). */
  beforeWrite(): Promise<void>;
  /** After a write of vectors committed: the mirrors follow, or are read again when that is simpler. */
  changed(change: { documentId: string; added?: Map<string, VectorRow[]>; dropped?: boolean; reload?: boolean }): void;
  /** The indexes must be checked again (after a write that may have left them behind). */
  indexesStale(): void;
  /** Everything kept is read again (the space changed, the library was reopened). */
  forget(): void;
  /** At close, after the last write: the loaded mirrors the disk has no snapshot of are written. */
  saveSnapshots(readOnly: boolean): Promise<void>;
  mirrorRows(): number;
  /** The space and the mirrors a search scans, read now if they are not held (never fails). */
  prepare(): Promise<void>;
}

// Long function: a closure over the mirrors and the space; each part is a few lines.
export function createLibraryVectors(options: LibraryVectorsOptions): LibraryVectors {
  const { dbPath, exactLimit, lanes, opened, ddl, beforeWrite, log } = options;
  /** Vector indexes exist where they should and have been checked for wear (refresh). */
  let vectorIndexFresh = false;
  let spaceCache: EmbeddingSpace | null | undefined;
  /** Per vector table: its mirror, or null when the table is too large for one (HNSW then). */
  const mirrors = new Map<string, VectorMirror | null>();
  /** Bumped by every write of vectors: a mirror or space read meanwhile is read again. */
  let vectorGeneration = 0;
  /** The mirrors' snapshots on disk may exist (vector-snapshot.ts): the next write removes them first. */
  let snapshotsMayExist = true;
  /** Tables whose loaded mirror has no snapshot on disk: written when the library closes. */
  const unsaved = new Set<string>();
  const scan = createMatrixScan();

  /** Each table's rows per document (null: no such table), as read in one generation of the vectors. */
  interface RowCounts {
    generation: number;
    counts: Map<string, Map<string, number> | null>;
  }

  /**
   * The space and every table's row counts in one read of the lane, then the mirrors from their
   * snapshots outside it: a read queued next (the citations and terms) runs beside the files.
   */
  async function prepare(): Promise<void> {
    // Held already (every search after the first): nothing to read.
    if (spaceCache !== undefined && VECTOR_TABLES.every((spec) => mirrors.has(spec.table))) return;
    try {
      const generation = vectorGeneration;
      const read = await lanes.read(async () => {
        const { reader } = opened();
        const space = spaceCache !== undefined ? spaceCache : await readSpace(reader);
        if (space === null) return null;
        const names = await tableNames(reader);
        const counts = new Map<string, Map<string, number> | null>();
        for (const spec of VECTOR_TABLES) {
          if (!mirrors.has(spec.table) && !loading.has(spec.table))
            counts.set(spec.table, names.has(spec.table) ? await vectorRowsPerDocument(reader, spec) : null);
        }
        return { space, counts };
      });
      if (read === null || generation !== vectorGeneration) return;
      spaceCache ??= read.space;
      const ahead = { generation, counts: read.counts };
      await Promise.all(VECTOR_TABLES.map((spec) => mirrorOf(spec, read.space, ahead)));
    } catch (err) {
      log(`vectors not read ahead, the first search reads them: ${toErrorInfo(err).message}`);
    }
  }

  async function cachedSpace(): Promise<EmbeddingSpace | null> {
    for (;;) {
      if (spaceCache !== undefined) return spaceCache;
      const generation = vectorGeneration;
      const space = await lanes.read(() => readSpace(opened().reader));
      if (generation === vectorGeneration) {
        spaceCache = space;
        return space;
      }
    }
  }

  /** Mirrors being read, by table: a search and a read ahead share one read. */
  const loading = new Map<string, Promise<VectorMirror | null>>();

  /** The table's mirror (loaded on first use, from its snapshot when it has one), or null when it is too large for one. */
  function mirrorOf(spec: VectorTableSpec, space: EmbeddingSpace, ahead?: RowCounts): Promise<VectorMirror | null> {
    const known = mirrors.get(spec.table);
    if (known !== undefined) return Promise.resolve(known);
    let load = loading.get(spec.table);
    if (load === undefined) {
      load = loadMirror(spec, space, ahead).finally(() => loading.delete(spec.table));
      loading.set(spec.table, load);
    }
    return load;
  }

  /** A table's mirror given its row counts (null: no such table): from its snapshot, or read from Kuzu in the lane. */
  async function mirrorFrom(
    spec: VectorTableSpec,
    space: EmbeddingSpace,
    counted: Map<string, number> | null,
  ): Promise<{ mirror: VectorMirror | null; saved: boolean }> {
    if (counted === null) return { mirror: new VectorMirror(space.dimensions), saved: true };
    if ([...counted.values()].reduce((sum, n) => sum + n, 0) > exactLimit) return { mirror: null, saved: true };
    const kept = await readVectorSnapshot(dbPath, spec.table, { modelId: space.modelId, dimensions: space.dimensions, rowsOf: counted });
    if (kept !== null) {
      log(`the vectors of ${spec.table} were read from their snapshot (${kept.size} rows)`);
      return { mirror: kept, saved: true };
    }
    return lanes.read(async () => {
      const byDocument = new Map<string, VectorRow[]>();
      for (const row of await vectorRows(opened().reader, spec)) {
        const list = byDocument.get(row.documentId) ?? [];
        list.push(row);
        byDocument.set(row.documentId, list);
      }
      const mirror = new VectorMirror(space.dimensions);
      for (const [documentId, rows] of byDocument) mirror.setDocument(documentId, rows);
      return { mirror, saved: false };
    });
  }

  async function loadMirror(spec: VectorTableSpec, space: EmbeddingSpace, ahead?: RowCounts): Promise<VectorMirror | null> {
    let given = ahead !== undefined && ahead.generation === vectorGeneration ? ahead : undefined;
    for (;;) {
      const known = mirrors.get(spec.table);
      if (known !== undefined) return known;
      const generation = vectorGeneration;
      // The lane gives the table's row counts (or they were read ahead, in this generation); its
      // snapshot is read outside it, so searches' other reads do not wait for a large file. A
      // write that starts meanwhile removes the snapshot first and changes the generation, and
      // the mirror is then read again.
      const counted =
        given !== undefined && given.counts.has(spec.table)
          ? (given.counts.get(spec.table) ?? null)
          : await lanes.read(async () => {
              const { reader } = opened();
              if (!(await tableNames(reader)).has(spec.table)) return null;
              return vectorRowsPerDocument(reader, spec);
            });
      given = undefined;
      const loaded = await mirrorFrom(spec, space, counted);
      // A write of vectors committed while the rows were read: read them again.
      if (generation === vectorGeneration) {
        mirrors.set(spec.table, loaded.mirror);
        if (loaded.saved) unsaved.delete(spec.table);
        else unsaved.add(spec.table);
        return loaded.mirror;
      }
    }
  }

  /** After a write of vectors committed: the mirrors follow, or are read again when that is simpler. */
  function vectorsChanged(change: { documentId: string; added?: Map<string, VectorRow[]>; dropped?: boolean; reload?: boolean }): void {
    vectorGeneration++;
    for (const spec of VECTOR_TABLES) {
      const mirror = mirrors.get(spec.table);
      if (mirror === undefined || mirror === null) continue;
      if (change.reload === true) {
        mirrors.delete(spec.table);
        continue;
      }
      if (change.dropped === true) mirror.dropDocument(change.documentId);
      const added = change.added?.get(spec.table);
      if (added !== undefined) mirror.addRows(change.documentId, added);
      if (mirror.size > exactLimit) mirrors.set(spec.table, null);
    }
  }

  /**
   * Rule "an HNSW index only where the scan does not serve": the triplet vectors are searched from
   * their mirror up to `exactLimit` rows, and keeping an index beside it was most of the cost of
   * storing a document into a large library, so their index is built only once the table outgrows
   * the mirror. The section vectors keep theirs: comparisons query it per document.
   */
  const indexWanted = (spec: VectorTableSpec, rows: number): boolean => spec.table !== TRIPLET_VECTORS.table || rows > exactLimit;

  /** In the write lane: compacts worn vector tables and builds missing HNSW indexes. */
  async function refreshVectors(): Promise<void> {
    const open = opened();
    if (vectorIndexFresh) return;
    if (open.readOnly) {
      vectorIndexFresh = true;
      return;
    }
    const space = await readSpace(open.writer);
    if (space !== null) {
      for (const spec of VECTOR_TABLES) await ddl(() => compactIfWorn(open.writer, spec, space, beforeWrite, log));
    }
    const tables = await tableNames(open.writer);
    const indexes = await indexNames(open.writer);
    const missing: VectorTableSpec[] = [];
    for (const spec of VECTOR_TABLES) {
      if (tables.has(spec.table) && !hasVectorIndex(indexes, spec) && indexWanted(spec, await countRows(open.writer, spec.table))) missing.push(spec);
    }
    if (missing.length > 0) {
      await beforeWrite("building the vector indexes");
      await ddl(() => buildMissingVectorIndexes(open.writer, log, indexWanted));
    }
    vectorIndexFresh = true;
  }

  async function vectorSearch(spec: VectorTableSpec, vector: Float32Array, k: number): Promise<VectorHit[]> {
    const top = Math.min(MAX_K, Math.floor(k));
    if (!Number.isFinite(top) || top < 1) return [];
    const space = await cachedSpace();
    if (space === null || vector.length !== space.dimensions) return [];
    // A query of unknown words (an Italian question under the English GloVe model) embeds to the
    // zero vector. Its cosine to everything is undefined, so HNSW returned an arbitrary top k that
    // changed with every insert and fed noise into the fusion (the exact scan already gave none).
    if (!hasDirection(vector)) return [];
    const mirror = await mirrorOf(spec, space);
    if (mirror !== null) return mirror.search(vector, top, scan);
    // Past its mirror's size a table may have just outgrown it, without an index yet.
    if (!vectorIndexFresh || !hasVectorIndex(await lanes.read(() => indexNames(opened().reader)), spec)) {
      await lanes.write(async () => {
        vectorIndexFresh = false;
        await refreshVectors();
      });
    }
    return lanes.read(async () => {
      const { reader } = opened();
      if (!hasVectorIndex(await indexNames(reader), spec)) return [];
      return hnswSearch(reader, spec, space, vector, top);
    });
  }

  async function sectionVectors(ids: readonly string[], modelId: string): Promise<Map<string, Float32Array>> {
    const space = await cachedSpace();
    if (space === null || space.modelId !== modelId || ids.length === 0) return new Map();
    // The mirror the exact scan keeps in memory has them (unit length, as cosines need).
    const mirror = await mirrorOf(SECTION_VECTORS, space);
    if (mirror !== null) return mirror.sectionVectors(ids);
    return lanes.read(async () => {
      const { reader } = opened();
      if (!(await tableNames(reader)).has(SECTION_VECTORS.table)) return new Map<string, Float32Array>();
      return storedSectionVectors(reader, ids);
    });
  }

  /** At close, after the last write: the loaded mirrors the disk has no snapshot of are written. */
  async function saveSnapshots(readOnly: boolean): Promise<void> {
    if (readOnly || spaceCache === undefined || spaceCache === null) return;
    for (const spec of VECTOR_TABLES) {
      const mirror = mirrors.get(spec.table);
      if (mirror === undefined || mirror === null || !unsaved.has(spec.table)) continue;
      await writeVectorSnapshot(dbPath, spec.table, spaceCache.modelId, mirror).then(
        () => unsaved.delete(spec.table),
        (err: unknown) => log(`could not keep the vectors of ${spec.table} for the next start: ${toErrorInfo(err).message}`),
      );
    }
    snapshotsMayExist = true;
  }

  return {
    search: vectorSearch,
    sectionVectors,
    refresh: refreshVectors,
    async beforeWrite(): Promise<void> {
      if (!snapshotsMayExist) return;
      await removeVectorSnapshots(dbPath);
      snapshotsMayExist = false;
      for (const [table, mirror] of mirrors) if (mirror !== null) unsaved.add(table);
    },
    changed: vectorsChanged,
    indexesStale: () => {
      vectorIndexFresh = false;
    },
    forget: () => {
      vectorIndexFresh = false;
      vectorGeneration++;
      spaceCache = undefined;
      mirrors.clear();
    },
    saveSnapshots,
    prepare,
    mirrorRows: () => [...mirrors.values()].reduce((sum, mirror) => sum + (mirror?.size ?? 0), 0),
  };
}
