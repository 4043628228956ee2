import { access, mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { newDatabase, openConnection, type Connection, type Database } from "./kuzu/driver.ts";
import { ClauseGraphError, toErrorInfo } from "../model/errors.ts";
import type { Section } from "../model/section-types.ts";
import { ftsQueryLiteral } from "./fts-query.ts";
import type { GraphStore } from "./graph-store.ts";
import type { DocumentRecord, EmbeddingSpace, LiveGraphSchema, SearchHit, StoreStats } from "../model/store-records.ts";
import type { DerivedGraph, ScoredId, TripletRecord } from "../model/graph-records.ts";
import { DEFAULT_MIN_FREE_BYTES, ensureFreeSpace } from "./free-space.ts";
import { isReadOnlyFsError, toStoreError } from "./kuzu-errors.ts";
import { createKuzuSession, cypherString, type KuzuSession, type Params } from "./kuzu-session.ts";
import { createMigrationBackup } from "./migration-backup.ts";
import { deleteNodesWithEdges } from "./delete-nodes.ts";
import { commitVectorRows } from "./hnsw-commit-guard.ts";
import { checkLibraryRows } from "./library-check.ts";
import { anchorSurvivingEdges, readRelConnections, type RelConnection } from "./rel-checkpoint-guard.ts";
import { migrate, readSchemaVersion, type BeforeMigrate, type Migration } from "./migrations.ts";
import {
  DEADLINE_TABLE,
  DOCUMENT_CASCADE,
  EMBEDDING_DIMS_KEY,
  EMBEDDING_MODEL_KEY,
  EXTRACTION_CACHE_TABLE,
  META_TABLE,
  SECTION_FTS,
  SECTION_VECTORS,
  TRIPLET_VECTORS,
  VECTOR_TABLES,
  vectorTableDdl,
  type VectorTableSpec,
} from "./schema.ts";
import { dropSearchIndexes, ensureSearchIndexes, hasSearchIndexes } from "./search-index.ts";
import {
  deadlineRow,
  documentFromNode,
  documentParams,
  entityRow,
  referenceFromNode,
  referenceRow,
  sectionFromNode,
  sectionRow,
  termFromNode,
  termRow,
  tripletFromNode,
  tripletRow,
  vectorLiteral,
} from "./store-rows.ts";
import { validateDerived, validateEntities, validateInsert } from "./validate-insert.ts";
import {
  listComparisonRecords,
  readComparison,
  readComparisonCache,
  readComparisonEdges,
  removeComparison,
  replaceComparisonEdges,
  startComparison,
  updateVerdicts,
  writeComparisonCache,
} from "./comparison-store.ts";
import { nearestSectionsIn } from "./vector-neighbours.ts";
import { createReadOnlyConnection, readLiveSchema, type ReadOnlyConnection } from "./read-only-query.ts";

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
  /** Full-text index rebuilds after which the database is reopened to free Kuzu's memory (default 20; 0: never). */
  recycleAfterRebuilds?: number;
  /** Sections per UNWIND statement. */
  batchSize?: number;
  /** Kuzu's buffer pool; its default (80 % of RAM) is too greedy for a desktop app. */
  bufferPoolBytes?: number;
  /** Tests only: a different migration list. */
  migrations?: readonly Migration[];
  /**
   * Up to this many vectors a table is searched exactly, from a copy in memory, instead of through
   * its HNSW index (default 100,000). At that size an exact scan takes a few milliseconds, is never
   * approximate, and is several times faster than an index query through the binding; the index
   * (always maintained) serves larger libraries. 0 always uses the index.
   */
  exactVectorLimit?: number;
}

interface VectorMatrix {
  ids: string[];
  sectionIds: string[];
  /** Row-major, each row scaled to unit length. */
  values: Float32Array;
  dimensions: number;
}

/** Row of each section id in a section-vector matrix, built once per matrix. */
const MATRIX_ROWS = new WeakMap<VectorMatrix, Map<string, number>>();
function matrixRows(matrix: VectorMatrix): Map<string, number> {
  let rows = MATRIX_ROWS.get(matrix);
  if (rows === undefined) {
    rows = new Map(matrix.sectionIds.map((id, i) => [id, i]));
    MATRIX_ROWS.set(matrix, rows);
  }
  return rows;
}

function unitVector(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) return v;
  const scale = 1 / Math.sqrt(norm);
  return v.map((x) => x * scale);
}

export interface KuzuGraphStore extends GraphStore {
  readonly dbPath: string;
  /** True once open on a library that cannot be changed (read-only option or read-only disk). */
  isReadOnly(): boolean;
  /**
   * Builds the search index now if a write left it stale (otherwise the next search does it):
   * call after a batch of imports so the first question does not pay for the rebuild.
   */
  refreshSearchIndex(): Promise<void>;
}

const DEFAULT_BATCH = 500;
const DEFAULT_BUFFER_POOL = 512 * 1024 * 1024;
const DEFAULT_RECYCLE_AFTER_REBUILDS = 20;
const MAX_K = 1000;
/** Dead rows a vector table may carry before it is compacted, at the least (see compactIfWorn). */
const MIN_DEAD_VECTORS = 32;
const COMPACT_SUFFIX = "_compact";
/** Size of a Kuzu 0.11.3 write-ahead log with its header and no record. */
const EMPTY_WAL_BYTES = 12;
/** The Meta key counting a vector table's deleted rows since it was last built. */
const deadVectorsKey = (spec: VectorTableSpec): string => `deadVectors.${spec.table}`;

interface OpenState {
  db: Database;
  conn: Connection;
  session: KuzuSession;
  version: number;
  /** Opened read-only: asked for, or the library sits on a read-only file system. */
  readOnly: boolean;
  /** The relationship tables, read from the catalog on first use (see rel-checkpoint-guard.ts). */
  relConnections?: RelConnection[];
  /** Graph questions' own read-only connection (read-only-query.ts), made on first use. */
  readOnlyConnection?: Promise<ReadOnlyConnection>;
  liveSchema?: LiveGraphSchema;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** False for the zero vector (and for NaN/∞ components): such a query has no nearest neighbours. */
function hasDirection(vector: Float32Array): boolean {
  let norm = 0;
  for (const x of vector) norm += x * x;
  return Number.isFinite(norm) && norm > 0;
}

/** Cosine top-k by a full scan; ties broken by id so results are reproducible. */
function exactSearch(matrix: VectorMatrix, query: Float32Array, k: number): Array<ScoredId & { sectionId: string }> {
  const { values, dimensions, ids } = matrix;
  let qNorm = 0;
  for (const x of query) qNorm += x * x;
  if (qNorm === 0) return [];
  const scale = 1 / Math.sqrt(qNorm);
  const scores = new Float32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    let dot = 0;
    const base = i * dimensions;
    for (let j = 0; j < dimensions; j++) dot += (values[base + j] ?? 0) * (query[j] ?? 0);
    scores[i] = dot * scale;
  }
  // The k-th best score from a sorted copy, then one pass: cheaper than sorting the indices.
  const threshold = Float32Array.from(scores).sort()[Math.max(0, scores.length - k)] ?? Number.NEGATIVE_INFINITY;
  const picked: Array<ScoredId & { sectionId: string }> = [];
  for (let i = 0; i < ids.length; i++) {
    const score = scores[i] ?? 0;
    if (score >= threshold) picked.push({ id: ids[i] ?? "", sectionId: matrix.sectionIds[i] ?? "", score });
  }
  return picked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, k);
}

export function createKuzuStore(options: KuzuStoreOptions): KuzuGraphStore {
  const dbPath = path.resolve(options.dbPath);
  const readOnlyOption = options.readOnly ?? false;
  const minFree = Math.max(0, options.minFreeBytes ?? DEFAULT_MIN_FREE_BYTES);
  const log = options.log ?? (() => {});
  const fault = options.faultInjector ?? (() => {});
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  let state: OpenState | null = null;
  // Only this process can write (Kuzu locks the file), so this flag is the truth about the index.
  let indexFresh = false;
  // Vector indexes are maintained by Kuzu on insert and delete once they exist; they only need
  // building after a bulk load (first import, re-embedding), so this is checked lazily too.
  let vectorIndexFresh = false;
  const exactLimit = Math.max(0, options.exactVectorLimit ?? 100_000);
  // Read-through caches of what only this process can change; every write clears them.
  let spaceCache: EmbeddingSpace | null | undefined;
  const matrices = new Map<string, VectorMatrix | null>();
  const forgetVectors = (): void => {
    spaceCache = undefined;
    matrices.clear();
  };

  // One connection serves everything; Kuzu runs one transaction per connection, so a search
  // arriving while an insert awaits must not slip into that insert's transaction.
  let queue: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  function opened(): OpenState {
    if (!state) throw new ClauseGraphError("INTERNAL", "the graph store is not open", { file: dbPath });
    return state;
  }

  /**
   * A library on a read-only disk (write-protected media, a read-only mount) still opens, for
   * reading: searching and asking work, and every write says why it cannot happen.
   */
  async function openDatabase(): Promise<OpenState> {
    if (readOnlyOption) return openDatabaseAs(true);
    try {
      await mkdir(path.dirname(dbPath), { recursive: true });
      return await openDatabaseAs(false);
    } catch (err) {
      if (!isReadOnlyFsError(err) || !(await exists(dbPath))) {
        if (isReadOnlyFsError(err)) {
          throw new ClauseGraphError("WRITE_FAILED", `cannot create a library in ${path.dirname(dbPath)}: the folder is on a read-only disk`, { file: dbPath, cause: err });
        }
        throw err;
      }
      log(`${dbPath} is on a read-only disk: opened for reading only`);
      return openDatabaseAs(true);
    }
  }

  async function openDatabaseAs(readOnly: boolean): Promise<OpenState> {
    // A write-ahead log left behind means the last session ended without closing: Kuzu replays it
    // on open, and what it replays has not been checkpointed yet (see recoveryGuard below).
    const walBytes = readOnly ? 0 : await stat(`${dbPath}.wal`).then((st) => st.size, () => 0);
    if (walBytes > 0 && walBytes <= EMPTY_WAL_BYTES) {
      // A log holding only its header (the session was killed before its first write) has nothing
      // to replay, yet Kuzu 0.11.3 "recovered" it and checkpointed on close into a library whose
      // next delete of sections segfaulted (kill runs). Without the file it opens as closed cleanly.
      await rm(`${dbPath}.wal`, { force: true });
      log(`removed the empty write-ahead log of an unclosed session (${walBytes} bytes)`);
    }
    const recovering = walBytes > EMPTY_WAL_BYTES;
    const db = newDatabase(dbPath, { bufferPoolBytes: options.bufferPoolBytes ?? DEFAULT_BUFFER_POOL, readOnly });
    const backup = options.beforeMigrate || readOnly ? null : createMigrationBackup(dbPath, { log });
    let conn: Connection | null = null;
    try {
      await db.init();
      conn = await openConnection(db);
      const session = createKuzuSession(conn, dbPath);
      const version = await migrate(session, {
        dbPath,
        readOnly,
        ...(options.migrations ? { migrations: options.migrations } : {}),
        ...(options.beforeMigrate ? { beforeMigrate: options.beforeMigrate } : {}),
        ...(backup ? { beforeMigrate: backup.beforeMigrate } : {}),
        log,
      });
      if (recovering) await recoveryGuard(session);
      return { db, conn, session, version, readOnly };
    } catch (err) {
      await conn?.close().catch(() => undefined);
      await db.close().catch(() => undefined);
      // Only once Kuzu has let go of the files can the backup be put back over them.
      const restored = backup ? await backup.restoreAfterFailure(err) : null;
      if (restored) throw restored;
      throw toStoreError(err, dbPath, "opening the database");
    }
  }

  /**
   * Anchors the edges that survive the deletions of a write (rel-checkpoint-guard.ts): without it
   * Kuzu 0.11.3 may drop the edges of other documents at the next checkpoint. In a transaction of
   * its own, or at the end of one that only deleted: Kuzu replays a transaction that both
   * re-creates an edge this way and creates new nodes wrongly after a crash (its new nodes went
   * missing in the kill runs, differently at each opening).
   */
  async function protectSurvivingEdges(session: KuzuSession): Promise<void> {
    await anchorSurvivingEdges(session, await relConnections(session));
  }

  /**
   * After a crash the replayed log may hold a write's deletions without the anchors that were to
   * follow them (replaceLlmTriplets anchors in a second transaction); anchoring again before
   * anything checkpoints makes that harmless. A failure here changes nothing and is only logged.
   */
  async function recoveryGuard(session: KuzuSession): Promise<void> {
    try {
      const connections = await readRelConnections(session);
      await session.transaction(() => anchorSurvivingEdges(session, connections));
      log("recovered from an unclosed session: surviving edges anchored before the first checkpoint");
    } catch (err) {
      log(`could not anchor edges after recovery: ${toErrorInfo(err).message}`);
    }
  }

  /** Writes what the last write committed into the database file, while its anchors are in place. */
  async function checkpoint(session: KuzuSession): Promise<void> {
    await session.run("CHECKPOINT");
  }

  async function relConnections(session: KuzuSession): Promise<RelConnection[]> {
    const open = opened();
    open.relConnections ??= await readRelConnections(session);
    return open.relConnections;
  }

  async function invalidateIndex(session: KuzuSession): Promise<void> {
    forgetVectors();
    await dropSearchIndexes(session);
    indexFresh = false;
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
  }

  /**
   * Kuzu 0.11.3 keeps ~2 MB of native memory per full-text index build for as long as the
   * Database object lives (measured: RSS +1.1 GB over 500 rebuilds in the soak, JS heap flat);
   * closing and reopening the database gives it back. So after this many rebuilds the next one
   * first reopens the database, which costs well under a second.
   */
  const recycleAfter = Math.max(0, options.recycleAfterRebuilds ?? DEFAULT_RECYCLE_AFTER_REBUILDS);
  let rebuildsSinceOpen = 0;

  async function recycle(): Promise<void> {
    const { conn, db, readOnlyConnection } = opened();
    state = null;
    const started = Date.now();
    try {
      await (await readOnlyConnection)?.close();
      await conn.close();
      await db.close();
    } catch (err) {
      throw toStoreError(err, dbPath, "closing the database to reopen it");
    }
    state = await openDatabase();
    rebuildsSinceOpen = 0;
    vectorIndexFresh = false;
    forgetVectors();
    log(`database reopened to release the memory of ${recycleAfter} index rebuilds (${Date.now() - started} ms)`);
  }

  /** Rebuilds the full-text index if a write dropped it. May reopen the database: re-read opened(). */
  async function refresh(): Promise<void> {
    if (indexFresh) return;
    if (opened().readOnly) {
      indexFresh = true; // nothing can change it; a missing index surfaces on the query itself
      return;
    }
    if (await hasSearchIndexes(opened().session)) {
      indexFresh = true;
      return;
    }
    await beforeWrite("rebuilding the search index");
    if (recycleAfter > 0 && rebuildsSinceOpen >= recycleAfter) await recycle();
    const started = Date.now();
    const built = await ensureSearchIndexes(opened().session);
    indexFresh = true;
    if (built > 0) {
      rebuildsSinceOpen++;
      log(`search index rebuilt in ${Date.now() - started} ms`);
    }
  }

  async function tableNames(session: KuzuSession): Promise<Set<string>> {
    const rows = await session.run("CALL show_tables() RETURN name");
    return new Set(rows.map((r) => String(r.name)));
  }

  async function readMeta(session: KuzuSession, key: string): Promise<string | null> {
    const rows = await session.run(`MATCH (m:${META_TABLE}) WHERE m.key = $key RETURN m.value AS value`, { key });
    const value = rows[0]?.value;
    return typeof value === "string" ? value : null;
  }

  async function writeMeta(session: KuzuSession, key: string, value: string): Promise<void> {
    await session.run(`MERGE (m:${META_TABLE} {key: $key}) SET m.value = $value`, { key, value });
  }

  /** Deletes vectors (inside the caller's transaction) and adds them to the table's dead count. */
  async function deleteVectors(session: KuzuSession, spec: VectorTableSpec, where: string, params: Params): Promise<void> {
    const [row] = await session.run(`MATCH (v:${spec.table}) WHERE ${where} RETURN count(v) AS n`, params);
    const n = Number(row?.n ?? 0);
    if (n === 0) return;
    await session.run(`MATCH (v:${spec.table}) WHERE ${where} DELETE v`, params);
    const dead = Number((await readMeta(session, deadVectorsKey(spec))) ?? 0);
    await writeMeta(session, deadVectorsKey(spec), String(dead + n));
  }

  async function readSpace(session: KuzuSession): Promise<EmbeddingSpace | null> {
    const modelId = await readMeta(session, EMBEDDING_MODEL_KEY);
    const dims = Number(await readMeta(session, EMBEDDING_DIMS_KEY));
    if (modelId === null || modelId === "" || !Number.isInteger(dims) || dims < 1) return null;
    return { modelId, dimensions: dims };
  }

  async function refreshVectors(session: KuzuSession): Promise<void> {
    if (vectorIndexFresh) return;
    if (opened().readOnly) {
      vectorIndexFresh = true;
      return;
    }
    const space = await cachedSpace(session);
    if (space !== null) for (const spec of VECTOR_TABLES) await compactIfWorn(session, spec, space);
    const tables = await tableNames(session);
    const indexes = await session.run("CALL SHOW_INDEXES() RETURN table_name AS t, index_name AS i");
    const existing = new Set(indexes.map((r) => `${String(r.t)}.${String(r.i)}`));
    for (const spec of VECTOR_TABLES) {
      if (!tables.has(spec.table) || existing.has(`${spec.table}.${spec.index}`)) continue;
      const [row] = await session.run(`MATCH (v:${spec.table}) RETURN count(v) AS n`);
      // An index over an empty table is legal but would then be filled row by row; waiting for the
      // first bulk load builds it in one pass.
      if (Number(row?.n ?? 0) === 0) continue;
      await beforeWrite(`building the vector index ${spec.index}`);
      const started = Date.now();
      await session.run(`CALL CREATE_VECTOR_INDEX(${cypherString(spec.table)}, ${cypherString(spec.index)}, 'vector', metric := 'cosine')`);
      log(`vector index ${spec.index} built over ${String(row?.n)} rows in ${Date.now() - started} ms`);
    }
    vectorIndexFresh = true;
  }

  /**
   * Kuzu's HNSW index keeps deleted rows as dead ends in its graph (they are skipped, never
   * removed), so a library whose documents are deleted and re-imported wears it out: in the soak,
   * after 572 re-imports of one PDF three quarters of the graph was dead and some vector queries
   * kept only 40 % of their top 10. Every write that deletes vectors counts them in Meta (in its
   * own transaction); past a quarter of the live rows (and at least MIN_DEAD_VECTORS) the table is
   * copied into a fresh one and indexed again.
   */
  async function compactIfWorn(session: KuzuSession, spec: VectorTableSpec, space: EmbeddingSpace): Promise<void> {
    if (!(await tableNames(session)).has(spec.table)) return;
    const [row] = await session.run(`MATCH (v:${spec.table}) RETURN count(v) AS live`);
    const live = Number(row?.live ?? 0);
    const dead = Number((await readMeta(session, deadVectorsKey(spec))) ?? 0);
    if (live === 0 || dead < Math.max(MIN_DEAD_VECTORS, live / 4)) return;
    await beforeWrite(`compacting the vector table ${spec.table}`);
    const started = Date.now();
    const fresh: VectorTableSpec = { table: `${spec.table}${COMPACT_SUFFIX}`, index: spec.index };
    // Until the copy is in place the documents count as not embedded: a crash meanwhile makes the
    // engine re-embed them on the next start instead of leaving vectors missing.
    const embedded = (await session.run("MATCH (d:Document) WHERE d.embeddedWith = $model RETURN d.id AS id", { model: space.modelId })).map((r) => String(r.id));
    await session.run("MATCH (d:Document) WHERE d.embeddedWith = $model SET d.embeddedWith = ''", { model: space.modelId });
    if ((await tableNames(session)).has(fresh.table)) await session.run(`DROP TABLE ${fresh.table}`);
    await session.run(vectorTableDdl(fresh, space.dimensions));
    await session.transaction(() =>
      session.run(`MATCH (v:${spec.table}) CREATE (:${fresh.table} {id: v.id, documentId: v.documentId, sectionId: v.sectionId, vector: v.vector})`),
    );
    const indexes = await session.run("CALL SHOW_INDEXES() RETURN table_name AS t, index_name AS i");
    if (indexes.some((r) => r.t === spec.table && r.i === spec.index)) {
      await session.run(`CALL DROP_VECTOR_INDEX(${cypherString(spec.table)}, ${cypherString(spec.index)})`);
    }
    await session.run(`DROP TABLE ${spec.table}`);
    await session.run(`ALTER TABLE ${fresh.table} RENAME TO ${spec.table}`);
    session.resetPrepared();
    await session.run(`CALL CREATE_VECTOR_INDEX(${cypherString(spec.table)}, ${cypherString(spec.index)}, 'vector', metric := 'cosine')`);
    await session.transaction(async () => {
      await session.run("MATCH (d:Document) WHERE list_contains($ids, d.id) SET d.embeddedWith = $model", { ids: embedded, model: space.modelId });
      await writeMeta(session, deadVectorsKey(spec), "0");
    });
    await checkpoint(session);
    forgetVectors();
    log(`vector table ${spec.table} compacted: ${live} rows kept, ${dead} deleted ones dropped from its index (${Date.now() - started} ms)`);
  }

  async function cachedSpace(session: KuzuSession): Promise<EmbeddingSpace | null> {
    if (spaceCache === undefined) spaceCache = await readSpace(session);
    return spaceCache;
  }

  /** The table's vectors in memory when it is small enough for an exact scan; null otherwise. */
  async function matrixOf(session: KuzuSession, spec: VectorTableSpec, dimensions: number): Promise<VectorMatrix | null> {
    if (matrices.has(spec.table)) return matrices.get(spec.table) ?? null;
    const [row] = await session.run(`MATCH (v:${spec.table}) RETURN count(v) AS n`);
    const n = Number(row?.n ?? 0);
    let matrix: VectorMatrix | null = null;
    if (n <= exactLimit) {
      const rows = await session.run(`MATCH (v:${spec.table}) RETURN v.id AS id, v.sectionId AS sectionId, v.vector AS vector`);
      const values = new Float32Array(rows.length * dimensions);
      const ids: string[] = [];
      const sectionIds: string[] = [];
      rows.forEach((r, i) => {
        const v = Array.isArray(r.vector) ? r.vector : [];
        let norm = 0;
        for (let j = 0; j < dimensions; j++) norm += Number(v[j] ?? 0) ** 2;
        const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
        for (let j = 0; j < dimensions; j++) values[i * dimensions + j] = Number(v[j] ?? 0) * scale;
        ids.push(String(r.id));
        sectionIds.push(String(r.sectionId));
      });
      matrix = { ids, sectionIds, values, dimensions };
    }
    matrices.set(spec.table, matrix);
    return matrix;
  }

  async function vectorSearch(session: KuzuSession, spec: VectorTableSpec, vector: Float32Array, k: number): Promise<Array<ScoredId & { sectionId: string }>> {
    const top = Math.min(MAX_K, Math.floor(k));
    if (!Number.isFinite(top) || top < 1) return [];
    const space = await cachedSpace(session);
    if (space === null || vector.length !== space.dimensions) return [];
    // A query of unknown words (an Italian question under the English GloVe model) embeds to the
    // zero vector. Its cosine to everything is undefined, so HNSW returned an arbitrary top k that
    // changed with every insert and fed noise into the fusion (the exact scan already gave none).
    if (!hasDirection(vector)) return [];
    const matrix = await matrixOf(session, spec, space.dimensions);
    if (matrix !== null) return exactSearch(matrix, vector, top);
    await refreshVectors(session);
    const indexes = await session.run("CALL SHOW_INDEXES() RETURN table_name AS t, index_name AS i");
    if (!indexes.some((r) => r.t === spec.table && r.i === spec.index)) return [];
    // The query vector goes in as a literal: bound as a parameter, Kuzu 0.11.3 compared it wrongly
    // against a FLOAT[n] index (nearest neighbours came back in the wrong order), and a CAST of a
    // parameter is refused there. vectorLiteral prints numbers only.
    const rows = await session.run(
      `CALL QUERY_VECTOR_INDEX(${cypherString(spec.table)}, ${cypherString(spec.index)}, CAST(${vectorLiteral(vector)} AS FLOAT[${space.dimensions}]), ${top})
       RETURN node.id AS id, node.sectionId AS sectionId, distance ORDER BY distance, id`,
    );
    return rows.map((r) => ({ id: String(r.id), sectionId: String(r.sectionId), score: 1 - Number(r.distance) }));
  }

  /**
   * A document's vectors, each table in a transaction of its own (hnsw-commit-guard.ts), then the
   * mark that they are complete: until it is set the document counts as not embedded, so a crash
   * in between is healed by re-embedding on the next start.
   */
  async function storeVectors(
    session: KuzuSession,
    documentId: string,
    space: EmbeddingSpace,
    tables: ReadonlyArray<{ spec: VectorTableSpec; vectors: ReadonlyMap<string, Float32Array>; sectionOf: (id: string) => string }>,
  ): Promise<void> {
    for (const { spec, vectors, sectionOf } of tables) {
      await commitVectorRows(session, { documentId, spec, space, vectors, sectionOf, batchSize });
    }
    await session.run("MATCH (d:Document) WHERE d.id = $id SET d.embeddedWith = $model", { id: documentId, model: space.modelId });
  }

  async function findDocument(session: KuzuSession, where: string, value: string): Promise<DocumentRecord | null> {
    const rows = await session.run(`MATCH (d:Document) WHERE d.${where} = $value RETURN d LIMIT 1`, { value });
    return rows.length === 0 ? null : documentFromNode(rows[0]?.d);
  }

  async function writeDocument(
    session: KuzuSession,
    doc: DocumentRecord,
    sections: readonly Section[],
    derived?: DerivedGraph,
  ): Promise<void> {
    fault("begin");
    await session.run(
      `CREATE (:Document {id: $id, sha256: $sha256, file: $file, fileName: $fileName, title: $title,
         format: $format, language: $language, pages: $pages, bytes: $bytes, sections: $sections,
         importedAt: $importedAt})`,
      documentParams(doc),
    );
    // Lists by a statement of their own, cast: Kuzu types a bare `[]` parameter as STRING.
    if ((doc.aliases?.length ?? 0) + (doc.userAliases?.length ?? 0) + (doc.hiddenAliases?.length ?? 0) > 0) {
      await session.run(
        `MATCH (d:Document) WHERE d.id = $id SET d.aliases = CAST($aliases AS STRING[]),
           d.userAliases = CAST($userAliases AS STRING[]), d.hiddenAliases = CAST($hiddenAliases AS STRING[])`,
        { id: doc.id, aliases: doc.aliases ?? [], userAliases: doc.userAliases ?? [], hiddenAliases: doc.hiddenAliases ?? [] },
      );
    }
    // Only scanned documents carry an OCR summary (schema v6); a statement of its own, as for the aliases.
    if (doc.ocr !== undefined) {
      await session.run("MATCH (d:Document) WHERE d.id = $id SET d.ocr = $ocr", { id: doc.id, ocr: JSON.stringify(doc.ocr) });
    }
    fault("document");
    for (const [i, batch] of chunks(sections, batchSize).entries()) {
      await session.run(
        `UNWIND $rows AS r MATCH (d:Document) WHERE d.id = $documentId
         CREATE (s:Section {id: r.id, documentId: r.documentId, ordinal: r.ordinal, kind: r.kind,
           label: r.label, heading: r.heading, parentId: r.parentId, level: r.level, text: r.text,
           pageStart: r.pageStart, pageEnd: r.pageEnd, spans: r.spans, numberTerms: r.numberTerms})
           -[:IN_DOCUMENT]->(d)`,
        { rows: batch.map(sectionRow), documentId: doc.id },
      );
      fault(`sections:${i}`);
    }
    const withPath = sections.filter((s) => s.path.length > 0).map((s): Params => ({ id: s.id, path: s.path }));
    for (const batch of chunks(withPath, batchSize)) {
      await session.run(
        "UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.id SET s.path = r.path",
        { rows: batch, documentId: doc.id },
      );
    }
    fault("paths");
    // Edges between this document's sections: matching `{id: r.child}` from an UNWIND row is
    // planned as a join over the whole Section table (750 edges took 4 s at 40k sections); the
    // documentId filter narrows it to this document first (34 ms).
    const parents = sections.flatMap((s): Params[] => (s.parentId === null ? [] : [{ child: s.id, parent: s.parentId }]));
    for (const batch of chunks(parents, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (c:Section), (p:Section)
         WHERE c.documentId = $documentId AND p.documentId = $documentId AND c.id = r.child AND p.id = r.parent
         CREATE (c)-[:PART_OF]->(p)`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("part-of");
    const ordered = [...sections].sort((a, b) => a.ordinal - b.ordinal);
    const pairs = ordered.slice(1).map((s, i): Params => ({ from: ordered[i]?.id ?? "", to: s.id }));
    for (const batch of chunks(pairs, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (a:Section), (b:Section)
         WHERE a.documentId = $documentId AND b.documentId = $documentId AND a.id = r.from AND b.id = r.to
         CREATE (a)-[:NEXT]->(b)`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("next");
    if (derived) await writeGraph(session, doc, derived);
  }

  async function writeGraph(session: KuzuSession, doc: DocumentRecord, derived: DerivedGraph): Promise<void> {
    const references = derived.crossReferences.map(referenceRow);
    for (const batch of chunks(references, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.fromSectionId
         CREATE (s)-[:CITES]->(:Reference {id: r.id, documentId: r.documentId, fromSectionId: r.fromSectionId,
           toSectionId: r.toSectionId, toDocumentId: r.toDocumentId, raw: r.raw, label: r.label,
           pinpoint: r.pinpoint, instrument: r.instrument, spanStart: r.spanStart, spanEnd: r.spanEnd,
           resolved: r.resolved})`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("references");
    // Section ids start with their document's id: knowing the target's document lets Kuzu narrow
    // both ends before the id match, as for the structure edges.
    const resolved = references
      .filter((r) => r.toSectionId !== "")
      .map((r): Params => ({ ...r, targetDocumentId: String(r.toSectionId).split(":")[0] ?? "" }));
    for (const batch of chunks(resolved, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (a:Section), (b:Section)
         WHERE a.documentId = $documentId AND a.id = r.fromSectionId AND b.documentId = r.targetDocumentId AND b.id = r.toSectionId
         CREATE (a)-[:REFERS_TO {referenceId: r.id, raw: r.raw, pinpoint: r.pinpoint, spanStart: r.spanStart, spanEnd: r.spanEnd}]->(b)`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("refers-to");
    for (const batch of chunks(derived.terms.map(termRow), batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.sectionId
         CREATE (:Term {id: r.id, documentId: r.documentId, term: r.term, normalizedTerm: r.normalizedTerm,
           definition: r.definition, sectionId: r.sectionId, spanStart: r.spanStart, spanEnd: r.spanEnd})-[:DEFINED_IN]->(s)`,
        { rows: batch, documentId: doc.id },
      );
    }
    const mentions = derived.terms.flatMap((t) => t.mentionedIn.map((sectionId): Params => ({ term: t.id, section: sectionId })));
    for (const batch of chunks(mentions, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (s:Section), (t:Term)
         WHERE s.documentId = $documentId AND s.id = r.section AND t.documentId = $documentId AND t.id = r.term
         CREATE (s)-[:MENTIONS]->(t)`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("terms");
    for (const batch of chunks(derived.entities.map(entityRow), batchSize)) {
      await session.run(
        "UNWIND $rows AS r CREATE (:Entity {id: r.id, documentId: r.documentId, key: r.key, name: r.name, type: r.type, party: r.party})",
        { rows: batch },
      );
    }
    const triplets = derived.triplets.map(tripletRow);
    for (const batch of chunks(triplets, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.sectionId
         CREATE (:Triplet {id: r.id, documentId: r.documentId, sectionId: r.sectionId, subjectId: r.subjectId,
           subject: r.subject, predicate: r.predicate, objectId: r.objectId, object: r.object, recipientId: r.recipientId,
           recipient: r.recipient, modality: r.modality, deadline: r.deadline, source: r.source, confidence: r.confidence,
           spanStart: r.spanStart, spanEnd: r.spanEnd, evidence: r.evidence})-[:STATED_IN]->(s)`,
        { rows: batch, documentId: doc.id },
      );
    }
    for (const [rel, field] of [["HAS_SUBJECT", "subjectId"], ["HAS_OBJECT", "objectId"], ["HAS_RECIPIENT", "recipientId"]] as const) {
      const links = derived.triplets.flatMap((t): Params[] => ((t[field] ?? "") === "" ? [] : [{ triplet: t.id, entity: t[field] ?? "" }]));
      for (const batch of chunks(links, batchSize)) {
        await session.run(
          `UNWIND $rows AS r MATCH (t:Triplet), (e:Entity)
           WHERE t.documentId = $documentId AND e.documentId = $documentId AND t.id = r.triplet AND e.id = r.entity
           CREATE (t)-[:${rel}]->(e)`,
          { rows: batch, documentId: doc.id },
        );
      }
    }
    fault("triplets");
    for (const batch of chunks((derived.deadlines ?? []).map(deadlineRow), batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.sectionId
         CREATE (s)-[:SETS_DEADLINE]->(:${DEADLINE_TABLE} {id: r.id, documentId: r.documentId, sectionId: r.sectionId, text: r.text,
           sentence: r.sentence, spanStart: r.spanStart, spanEnd: r.spanEnd})`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("deadlines");
  }

  /**
   * Reads back what a document's transaction committed: the document and every section linked to
   * it. When they are missing, whatever the commit did keep of it is removed and the write fails
   * with DB_ERROR, so an import never reports "ok" for a document the library does not have.
   */
  async function verifyCommitted(session: KuzuSession, doc: DocumentRecord, sectionCount: number): Promise<void> {
    const [row] = await session.run(
      "MATCH (d:Document) WHERE d.id = $id OPTIONAL MATCH (s:Section)-[:IN_DOCUMENT]->(d) RETURN count(s) AS n",
      { id: doc.id },
    );
    const linked = row === undefined ? -1 : Number(row.n);
    const found = (await findDocument(session, "id", doc.id)) !== null;
    if (found && linked === sectionCount) return;
    // Such a commit can leave edges whose ends are gone; the library check reports what this
    // cleanup cannot reach, and a rebuild repairs it (library-rebuild.ts).
    const cleaned = await removeDocumentRows(session, doc.id, { danglingEdges: true }).then(
      () => true,
      (err: unknown) => {
        log(`cleanup after a lost commit failed: ${toErrorInfo(err).message}`);
        return false;
      },
    );
    const kept = found ? `${Math.max(0, linked)} of its ${sectionCount} sections` : "none of it";
    throw new ClauseGraphError(
      "DB_ERROR",
      `${doc.fileName} was not stored: the database kept ${kept} after the commit. ${cleaned ? "What remained of it was removed." : "Repair the library (clausegraph check --repair) before importing it again."}`,
      { file: doc.file },
    );
  }

  /** Deletes every row of a document (vectors, derived nodes, sections, the document) and anchors the rest. */
  async function removeDocumentRows(session: KuzuSession, documentId: string, options: { danglingEdges?: boolean } = {}): Promise<void> {
    const tables = await tableNames(session);
    await session.transaction(async () => {
      for (const spec of VECTOR_TABLES) {
        if (tables.has(spec.table)) await deleteVectors(session, spec, "v.documentId = $documentId", { documentId });
      }
      for (const cypher of DOCUMENT_CASCADE.updates) await session.run(cypher, { documentId });
      const connections = await relConnections(session);
      // What a lost commit left behind has edges whose other end is gone (a CITES edge into a
      // Reference from a Section that vanished): no MATCH reaches them, so a plain DELETE is
      // refused ("has connected edges"), while DETACH DELETE walks the node's own adjacency. Used
      // for purges only: its write-ahead-log replay is wrong (delete-nodes.ts), which the
      // checkpoint that follows every purge makes harmless unless the process dies in between.
      const detachDangling = options.danglingEdges ?? false;
      for (const deletion of DOCUMENT_CASCADE.deletions) await deleteNodesWithEdges(session, connections, deletion, { documentId }, { detachDangling });
      fault("delete:cascade");
      await protectSurvivingEdges(session);
    });
  }

  /** The FTS call for `query` (a literal: Kuzu 0.11 fails on a $param here; ftsQueryLiteral leaves only letters and spaces, and cypherString escapes anyway), or null when nothing can match. */
  function ftsCall(query: string, k: number): string | null {
    const literal = ftsQueryLiteral(query);
    const top = Math.min(MAX_K, Math.floor(k));
    if (literal === "" || !Number.isFinite(top) || top < 1) return null;
    return `CALL QUERY_FTS_INDEX(${cypherString(SECTION_FTS.table)}, ${cypherString(SECTION_FTS.name)}, ${cypherString(literal)}, top := ${top})`;
  }

  async function searchIds(query: string, k: number): Promise<ScoredId[]> {
    const call = ftsCall(query, k);
    if (call === null) return [];
    await refresh();
    const rows = await opened().session.run(`${call} RETURN node.id AS id, score ORDER BY score DESC, id`);
    return rows.map((r) => ({ id: String(r.id), score: typeof r.score === "number" ? r.score : Number(r.score) }));
  }

  /** Triplet rows by id (ids are `<documentId>:…`, which lets Kuzu prune by document first). */
  async function tripletsByIds(session: KuzuSession, ids: readonly string[]): Promise<TripletRecord[]> {
    if (ids.length === 0) return [];
    const docs = [...new Set(ids.map((id) => id.split(":")[0] ?? ""))];
    const rows = await session.run("MATCH (t:Triplet) WHERE list_contains($docs, t.documentId) AND list_contains($ids, t.id) RETURN t", { docs, ids: [...ids] });
    return rows.map((r) => tripletFromNode(r.t));
  }

  async function search(query: string, k: number): Promise<SearchHit[]> {
    const literal = ftsQueryLiteral(query);
    const top = Math.min(MAX_K, Math.floor(k));
    if (literal === "" || !Number.isFinite(top) || top < 1) return [];
    await refresh();
    const { session } = opened();
    // The query is a literal because Kuzu 0.11 fails on a $param here; ftsQueryLiteral leaves
    // only letters and spaces, and cypherString escapes anyway.
    const rows = await session.run(
      `CALL QUERY_FTS_INDEX(${cypherString(SECTION_FTS.table)}, ${cypherString(SECTION_FTS.name)}, ${cypherString(literal)}, top := ${top})
       WITH node AS s, score MATCH (s)-[:IN_DOCUMENT]->(d:Document)
       RETURN s, d, score ORDER BY score DESC, s.id`,
    );
    return rows.map((r) => ({
      section: sectionFromNode(r.s),
      document: documentFromNode(r.d),
      score: typeof r.score === "number" ? r.score : Number(r.score),
    }));
  }

  return {
    dbPath,

    isReadOnly: () => state?.readOnly ?? readOnlyOption,

    open: () =>
      exclusive(async () => {
        if (state) return;
        state = await openDatabase();
        indexFresh = false;
        vectorIndexFresh = false;
        forgetVectors();
      }),

    close: () =>
      exclusive(async () => {
        if (!state) return;
        const { conn, db, readOnlyConnection } = state;
        state = null;
        try {
          await (await readOnlyConnection)?.close();
          await conn.close();
          await db.close();
        } catch (err) {
          throw toStoreError(err, dbPath, "closing the database");
        }
      }),

    schemaVersion: () => exclusive(async () => readSchemaVersion(opened().session)),

    findDocumentBySha: (sha256) => exclusive(() => findDocument(opened().session, "sha256", sha256)),

    getDocument: (id) => exclusive(() => findDocument(opened().session, "id", id)),

    listDocuments: () =>
      exclusive(async () => {
        const rows = await opened().session.run("MATCH (d:Document) RETURN d ORDER BY d.importedAt, d.id");
        return rows.map((r) => documentFromNode(r.d));
      }),

    setUserAliases: (id, edit) =>
      exclusive(async () => {
        const { session } = opened();
        await beforeWrite("changing a document's names");
        if (!(await findDocument(session, "id", id))) throw new ClauseGraphError("NOT_FOUND", `No document with id ${id}`);
        await session.transaction(async () => {
          await session.run("MATCH (d:Document) WHERE d.id = $id SET d.userAliases = CAST($userAliases AS STRING[]), d.hiddenAliases = CAST($hiddenAliases AS STRING[])", {
            id,
            userAliases: edit.userAliases,
            hiddenAliases: edit.hiddenAliases,
          });
        });
        await checkpoint(session);
        const updated = await findDocument(session, "id", id);
        if (!updated) throw new ClauseGraphError("NOT_FOUND", `No document with id ${id}`);
        return updated;
      }),

    insertDocument: (doc, sections, derived) =>
      exclusive(async () => {
        const { session } = opened();
        validateInsert(doc, sections);
        if (derived !== undefined) validateDerived(doc, derived);
        await beforeWrite(`storing ${doc.fileName}`);
        if (await findDocument(session, "id", doc.id)) {
          throw new ClauseGraphError("VALIDATION", `document ${doc.id} is already in the database`, { file: doc.file });
        }
        const started = Date.now();
        await invalidateIndex(session);
        const withVectors = derived !== undefined && (derived.sectionEmbeddings.size > 0 || derived.tripletEmbeddings.size > 0);
        const space = withVectors ? await readSpace(session) : null;
        if (withVectors && space === null) throw new ClauseGraphError("INTERNAL", "vectors were given before an embedding model was chosen (useEmbeddingSpace)");
        try {
          await session.transaction(() => writeDocument(session, doc, sections, derived));
          // A commit that loses rows is a Kuzu bug (hnsw-commit-guard.ts); should another one
          // appear, the import fails here instead of reporting "ok" for a document that is gone.
          await verifyCommitted(session, doc, sections.length);
          if (derived && space) {
            const tripletSection = new Map(derived.triplets.map((t) => [t.id, t.sectionId]));
            try {
              await storeVectors(session, doc.id, space, [
                { spec: SECTION_VECTORS, vectors: derived.sectionEmbeddings, sectionOf: (id) => id },
                { spec: TRIPLET_VECTORS, vectors: derived.tripletEmbeddings, sectionOf: (id) => tripletSection.get(id) ?? "" },
              ]);
              fault("embeddings");
            } catch (err) {
              // The vectors are written after the graph (hnsw-commit-guard.ts); a failure there
              // takes the document out again, so a failed import leaves the library as it was.
              // (A crash there instead leaves the document without vectors, re-embedded at the next start.)
              await removeDocumentRows(session, doc.id).catch((cleanup: unknown) => log(`could not remove ${doc.id} after a failed vector write: ${toErrorInfo(cleanup).message}`));
              throw err;
            }
          }
          await checkpoint(session);
        } catch (err) {
          throw toStoreError(err, dbPath, `storing ${doc.fileName}`);
        }
        log(`stored ${doc.fileName}: ${sections.length} sections in ${Date.now() - started} ms`);
      }),

    deleteDocument: (id) =>
      exclusive(async () => {
        const { session } = opened();
        const doc = await findDocument(session, "id", id);
        if (!doc) return false;
        await beforeWrite(`deleting ${doc.fileName}`);
        const started = Date.now();
        await invalidateIndex(session);
        // Deleted vectors stay in the HNSW graph: the next refresh checks for wear (compactIfWorn).
        vectorIndexFresh = false;
        await removeDocumentRows(session, id);
        await checkpoint(session);
        log(`deleted ${doc.fileName} in ${Date.now() - started} ms`);
        return true;
      }),

    checkLibrary: () => exclusive(() => checkLibraryRows(opened().session)),

    getSection: (id) =>
      exclusive(async () => {
        const rows = await opened().session.run("MATCH (s:Section) WHERE s.id = $id RETURN s", { id });
        return rows.length === 0 ? null : sectionFromNode(rows[0]?.s);
      }),

    getSections: (documentId) =>
      exclusive(async () => {
        const rows = await opened().session.run(
          "MATCH (s:Section) WHERE s.documentId = $documentId RETURN s ORDER BY s.ordinal",
          { documentId },
        );
        return rows.map((r) => sectionFromNode(r.s));
      }),

    getCrossReferences: (sectionIds) =>
      exclusive(async () => {
        if (sectionIds.length === 0) return [];
        const rows = await opened().session.run(
          `MATCH (r:Reference) WHERE list_contains($ids, r.fromSectionId) OR list_contains($ids, r.toSectionId)
           RETURN r ORDER BY r.fromSectionId, r.spanStart, r.id`,
          { ids: sectionIds },
        );
        return rows.map((row) => referenceFromNode(row.r));
      }),

    getTermsByNormalized: (normalizedTerms) =>
      exclusive(async () => {
        if (normalizedTerms.length === 0) return [];
        const rows = await opened().session.run(
          `MATCH (t:Term) WHERE list_contains($terms, t.normalizedTerm)
           OPTIONAL MATCH (s:Section)-[:MENTIONS]->(t)
           RETURN t, collect(s.id) AS mentionedIn ORDER BY t.documentId, t.normalizedTerm`,
          { terms: normalizedTerms },
        );
        return rows.map((row) => termFromNode(row.t, Array.isArray(row.mentionedIn) ? row.mentionedIn.filter((x): x is string => typeof x === "string").sort() : []));
      }),

    searchSections: (query, k) => exclusive(() => search(query, k)),
    searchSectionIds: (query, k) => exclusive(() => searchIds(query, k)),

    stats: () =>
      exclusive(async (): Promise<StoreStats> => {
        const { session } = opened();
        const [d] = await session.run("MATCH (d:Document) RETURN count(d) AS n");
        const [s] = await session.run("MATCH (s:Section) RETURN count(s) AS n");
        const [r] = await session.run(
          "MATCH (r:Reference) RETURN count(r) AS n, sum(CASE WHEN r.toSectionId = '' THEN 0 ELSE 1 END) AS resolved",
        );
        const [t] = await session.run("MATCH (t:Term) RETURN count(t) AS n");
        const [tr] = await session.run("MATCH (t:Triplet) RETURN count(t) AS n");
        const [e] = await session.run("MATCH (e:Entity) RETURN count(e) AS n");
        const tables = await tableNames(session);
        const [v] = tables.has(SECTION_VECTORS.table) ? await session.run(`MATCH (v:${SECTION_VECTORS.table}) RETURN count(v) AS n`) : [];
        const space = await readSpace(session);
        return {
          documents: Number(d?.n ?? 0),
          sections: Number(s?.n ?? 0),
          crossReferences: Number(r?.n ?? 0),
          resolvedCrossReferences: Number(r?.resolved ?? 0),
          terms: Number(t?.n ?? 0),
          triplets: Number(tr?.n ?? 0),
          entities: Number(e?.n ?? 0),
          embeddedSections: Number(v?.n ?? 0),
          embeddingModel: space?.modelId ?? "",
        };
      }),

    refreshSearchIndex: () =>
      exclusive(async () => {
        await refresh();
        await refreshVectors(opened().session);
      }),

    searchSectionsByVector: (vector, k) =>
      exclusive(async () => (await vectorSearch(opened().session, SECTION_VECTORS, vector, k)).map(({ id, score }) => ({ id, score }))),

    searchTripletsByVector: (vector, k) =>
      exclusive(async () => {
        const { session } = opened();
        const hits = await vectorSearch(session, TRIPLET_VECTORS, vector, k);
        if (hits.length === 0) return [];
        const byId = new Map((await tripletsByIds(session, hits.map((h) => h.id))).map((t) => [t.id, t] as const));
        return hits.flatMap((h) => {
          const triplet = byId.get(h.id);
          return triplet ? [{ triplet, score: h.score }] : [];
        });
      }),

    searchTripletIdsByVector: (vector, k) =>
      exclusive(async () => (await vectorSearch(opened().session, TRIPLET_VECTORS, vector, k)).map(({ id, score }) => ({ id, score }))),

    getTripletsByIds: (ids) => exclusive(() => tripletsByIds(opened().session, ids)),

    sectionVectorsByIds: (ids, modelId) =>
      exclusive(async () => {
        const { session } = opened();
        const out = new Map<string, Float32Array>();
        const space = await cachedSpace(session);
        if (space === null || space.modelId !== modelId || ids.length === 0) return out;
        // The matrix the exact scan keeps in memory has them (unit length, as cosines need).
        const matrix = await matrixOf(session, SECTION_VECTORS, space.dimensions);
        if (matrix !== null) {
          const rows = matrixRows(matrix);
          for (const id of ids) {
            const row = rows.get(id);
            if (row !== undefined) out.set(id, matrix.values.subarray(row * matrix.dimensions, (row + 1) * matrix.dimensions));
          }
          return out;
        }
        if (!(await tableNames(session)).has(SECTION_VECTORS.table)) return out;
        const docs = [...new Set(ids.map((id) => id.split(":")[0] ?? ""))];
        const rows = await session.run(`MATCH (v:${SECTION_VECTORS.table}) WHERE list_contains($docs, v.documentId) AND list_contains($ids, v.sectionId) RETURN v.sectionId AS id, v.vector AS vector`, { docs, ids });
        for (const r of rows) if (Array.isArray(r.vector)) out.set(String(r.id), unitVector(Float32Array.from(r.vector, (x) => Number(x))));
        return out;
      }),

    getSectionsByIds: (ids) =>
      exclusive(async () => {
        if (ids.length === 0) return [];
        // Section ids start with their document id: filtering on it first avoids a full scan.
        const docs = [...new Set(ids.map((id) => id.split(":")[0] ?? ""))];
        const rows = await opened().session.run(
          `MATCH (s:Section)-[:IN_DOCUMENT]->(d:Document) WHERE list_contains($docs, s.documentId) AND list_contains($ids, s.id) RETURN s, d`,
          { docs, ids },
        );
        const byId = new Map(rows.map((r) => { const section = sectionFromNode(r.s); return [section.id, { section, document: documentFromNode(r.d) }] as const; }));
        return ids.flatMap((id) => byId.get(id) ?? []);
      }),

    getChildSectionIds: (ids) =>
      exclusive(async () => {
        const out = new Map<string, string[]>(ids.map((id) => [id, []]));
        if (ids.length === 0) return out;
        const docs = [...new Set(ids.map((id) => id.split(":")[0] ?? ""))];
        const rows = await opened().session.run(
          `MATCH (c:Section) WHERE list_contains($docs, c.documentId) AND list_contains($ids, c.parentId)
           RETURN c.parentId AS parent, c.id AS id ORDER BY c.ordinal`,
          { docs, ids },
        );
        for (const r of rows) out.get(String(r.parent))?.push(String(r.id));
        return out;
      }),

    getTripletsForSections: (ids) =>
      exclusive(async () => {
        if (ids.length === 0) return [];
        const docs = [...new Set(ids.map((id) => id.split(":")[0] ?? ""))];
        const rows = await opened().session.run(
          "MATCH (t:Triplet) WHERE list_contains($docs, t.documentId) AND list_contains($ids, t.sectionId) RETURN t ORDER BY t.sectionId, t.spanStart, t.id",
          { docs, ids },
        );
        return rows.map((r) => tripletFromNode(r.t));
      }),

    getTriplets: (documentId) =>
      exclusive(async () => {
        const rows = await opened().session.run("MATCH (t:Triplet) WHERE t.documentId = $documentId RETURN t ORDER BY t.sectionId, t.spanStart, t.id", {
          documentId,
        });
        return rows.map((r) => tripletFromNode(r.t));
      }),

    getTripletsForEntityKeys: (keys, limit) =>
      exclusive(async () => {
        const top = Math.max(0, Math.min(MAX_K, Math.floor(limit)));
        if (keys.length === 0 || top === 0) return [];
        const rows = await opened().session.run(
          `MATCH (t:Triplet)-[:HAS_SUBJECT|:HAS_OBJECT]->(e:Entity) WHERE list_contains($keys, e.key)
           RETURN DISTINCT t ORDER BY t.confidence DESC, t.id LIMIT ${top}`,
          { keys },
        );
        return rows.map((r) => tripletFromNode(r.t));
      }),

    getTermsByIds: (ids) =>
      exclusive(async () => {
        if (ids.length === 0) return [];
        const rows = await opened().session.run(
          `MATCH (t:Term) WHERE list_contains($ids, t.id)
           OPTIONAL MATCH (s:Section)-[:MENTIONS]->(t)
           RETURN t, collect(s.id) AS mentionedIn ORDER BY t.documentId, t.normalizedTerm`,
          { ids },
        );
        return rows.map((row) => termFromNode(row.t, Array.isArray(row.mentionedIn) ? row.mentionedIn.filter((x): x is string => typeof x === "string").sort() : []));
      }),

    embeddingSpace: () => exclusive(() => readSpace(opened().session)),

    useEmbeddingSpace: (space) =>
      exclusive(async () => {
        const { session } = opened();
        const current = await readSpace(session);
        const tables = await tableNames(session);
        const complete = VECTOR_TABLES.every((spec) => tables.has(spec.table));
        if (current !== null && current.modelId === space.modelId && current.dimensions === space.dimensions && complete) return { changed: false };
        await beforeWrite(`switching the library to the embedding model ${space.modelId}`);
        // DDL runs outside a transaction; a crash between the steps leaves tables without a recorded
        // model (or none at all), which the next call repairs the same way.
        // Kuzu refuses to drop a table an index refers to, and cannot re-create a dropped index on
        // the same table: drop both, then make fresh tables.
        const indexes = await session.run("CALL SHOW_INDEXES() RETURN table_name AS t, index_name AS i");
        for (const spec of VECTOR_TABLES) {
          if (indexes.some((r) => r.t === spec.table && r.i === spec.index)) {
            await session.run(`CALL DROP_VECTOR_INDEX(${cypherString(spec.table)}, ${cypherString(spec.index)})`);
          }
          if (tables.has(spec.table)) await session.run(`DROP TABLE ${spec.table}`);
          // A compaction a crash interrupted (compactIfWorn).
          if (tables.has(`${spec.table}${COMPACT_SUFFIX}`)) await session.run(`DROP TABLE ${spec.table}${COMPACT_SUFFIX}`);
        }
        session.resetPrepared();
        for (const spec of VECTOR_TABLES) await session.run(vectorTableDdl(spec, space.dimensions));
        await session.transaction(async () => {
          await writeMeta(session, EMBEDDING_MODEL_KEY, space.modelId);
          await writeMeta(session, EMBEDDING_DIMS_KEY, String(space.dimensions));
          for (const spec of VECTOR_TABLES) await writeMeta(session, deadVectorsKey(spec), "0");
          await session.run("MATCH (d:Document) SET d.embeddedWith = ''");
        });
        vectorIndexFresh = false;
        forgetVectors();
        log(`embedding space set to ${space.modelId} (${space.dimensions} dimensions)${current ? ` (was ${current.modelId})` : ""}`);
        return { changed: current !== null };
      }),

    documentsMissingEmbeddings: () =>
      exclusive(async () => {
        const { session } = opened();
        const space = await readSpace(session);
        const rows = await session.run("MATCH (d:Document) WHERE d.embeddedWith <> $model RETURN d.id AS id ORDER BY d.importedAt, d.id", {
          model: space?.modelId ?? "",
        });
        return rows.map((r) => String(r.id));
      }),

    putEmbeddings: (documentId, sections, triplets) =>
      exclusive(async () => {
        const { session } = opened();
        const space = await readSpace(session);
        if (space === null) throw new ClauseGraphError("INTERNAL", "vectors were given before an embedding model was chosen (useEmbeddingSpace)");
        await beforeWrite(`storing the vectors of ${documentId}`);
        forgetVectors();
        const tripletSection = new Map<string, string>();
        const rows = await session.run("MATCH (t:Triplet) WHERE t.documentId = $documentId RETURN t.id AS id, t.sectionId AS sectionId", { documentId });
        for (const r of rows) tripletSection.set(String(r.id), String(r.sectionId));
        try {
          await session.transaction(async () => {
            // An interrupted earlier run may have stored part of them: start this document afresh.
            for (const spec of VECTOR_TABLES) await deleteVectors(session, spec, "v.documentId = $documentId", { documentId });
            await session.run("MATCH (d:Document) WHERE d.id = $id SET d.embeddedWith = ''", { id: documentId });
          });
          await storeVectors(session, documentId, space, [
            { spec: SECTION_VECTORS, vectors: sections, sectionOf: (id) => id },
            { spec: TRIPLET_VECTORS, vectors: triplets, sectionOf: (id) => tripletSection.get(id) ?? "" },
          ]);
          await checkpoint(session);
        } catch (err) {
          throw toStoreError(err, dbPath, `storing vectors of ${documentId}`);
        }
      }),

    getSectionVectors: (documentIds) =>
      exclusive(async () => {
        const { session } = opened();
        const out = new Map<string, Float32Array>();
        if (documentIds.length === 0 || !(await tableNames(session)).has(SECTION_VECTORS.table)) return out;
        const rows = await session.run(`MATCH (v:${SECTION_VECTORS.table}) WHERE list_contains($docs, v.documentId) RETURN v.sectionId AS id, v.vector AS vector`, {
          docs: documentIds,
        });
        for (const r of rows) if (Array.isArray(r.vector)) out.set(String(r.id), Float32Array.from(r.vector, (x) => Number(x)));
        return out;
      }),

    nearestSections: (queries, k, documentIds) =>
      exclusive(async () => {
        const { session } = opened();
        const space = await cachedSpace(session);
        if (space === null || queries.length === 0) return new Map();
        // A restricted search projects a graph, which Kuzu counts as a write; a comparison is
        // stored in the library anyway, so a read-only one says so here, before any work.
        if (opened().readOnly) {
          throw new ClauseGraphError("WRITE_FAILED", `the library ${dbPath} is open read-only: comparisons are stored in it, so none can be computed`, { file: dbPath });
        }
        // The index is built lazily after bulk loads (refreshVectors), as for searches.
        await refreshVectors(session);
        const indexes = await session.run("CALL SHOW_INDEXES() RETURN table_name AS t, index_name AS i");
        if (!indexes.some((r) => r.t === SECTION_VECTORS.table && r.i === SECTION_VECTORS.index)) return new Map();
        return nearestSectionsIn(session, space, queries, Math.min(MAX_K, k), documentIds);
      }),

    graphSchema: () =>
      exclusive(async () => {
        const open = opened();
        open.liveSchema ??= await readLiveSchema(open.session);
        return open.liveSchema;
      }),

    readOnlyQuery: (cypher, params, queryOptions) =>
      exclusive(async () => {
        const open = opened();
        open.readOnlyConnection ??= createReadOnlyConnection(open.db, dbPath);
        return (await open.readOnlyConnection).run(cypher, params, queryOptions.timeoutMs);
      }),

    getComparison: (id) => exclusive(() => readComparison(opened().session, id)),

    listComparisons: () => exclusive(() => listComparisonRecords(opened().session)),

    getComparisonEdges: (id) =>
      exclusive(async () => {
        const { session } = opened();
        const comparison = await readComparison(session, id);
        return comparison === null ? [] : readComparisonEdges(session, comparison);
      }),

    startComparison: (comparison) =>
      exclusive(async () => {
        const { session } = opened();
        await beforeWrite(`starting the comparison ${comparison.id}`);
        try {
          await startComparison(session, comparison);
          await checkpoint(session);
        } catch (err) {
          throw toStoreError(err, dbPath, `starting the comparison ${comparison.id}`);
        }
      }),

    writeComparison: (write) =>
      exclusive(async () => {
        const { session } = opened();
        await beforeWrite(`storing the comparison ${write.comparison.id}`);
        let deleted = 0;
        try {
          await session.transaction(async () => {
            deleted = await replaceComparisonEdges(session, write, batchSize);
            fault("compare:edges");
            // Replaced edges were deleted: the survivors are anchored before anything checkpoints
            // (rel-checkpoint-guard.ts). This transaction creates no node, so the anchors may end it.
            if (deleted > 0) await protectSurvivingEdges(session);
          });
          await checkpoint(session);
        } catch (err) {
          throw toStoreError(err, dbPath, `storing the comparison ${write.comparison.id}`);
        }
        return { deleted, created: write.edges.length };
      }),

    setComparisonVerdicts: (comparison, verdicts) =>
      exclusive(async () => {
        const { session } = opened();
        await beforeWrite(`storing verdicts of the comparison ${comparison.id}`);
        try {
          const updated = await session.transaction(() => updateVerdicts(session, comparison, verdicts, batchSize));
          await checkpoint(session);
          return updated;
        } catch (err) {
          throw toStoreError(err, dbPath, `storing verdicts of the comparison ${comparison.id}`);
        }
      }),

    deleteComparison: (id) =>
      exclusive(async () => {
        const { session } = opened();
        const comparison = await readComparison(session, id);
        if (comparison === null) return false;
        await beforeWrite(`deleting the comparison ${id}`);
        try {
          await session.transaction(async () => {
            const deleted = await removeComparison(session, comparison);
            if (deleted > 0) await protectSurvivingEdges(session);
          });
          await checkpoint(session);
        } catch (err) {
          throw toStoreError(err, dbPath, `deleting the comparison ${id}`);
        }
        return true;
      }),

    getComparisonCache: (keys) => exclusive(() => readComparisonCache(opened().session, keys, batchSize)),

    putComparisonCache: (entry) =>
      exclusive(async () => {
        await beforeWrite("saving a comparison result");
        await writeComparisonCache(opened().session, entry, new Date().toISOString());
      }),

    getExtractionCache: (keys) =>
      exclusive(async () => {
        const out = new Map<string, string>();
        for (const batch of chunks(keys, batchSize)) {
          const rows = await opened().session.run(`MATCH (c:${EXTRACTION_CACHE_TABLE}) WHERE list_contains($keys, c.key) RETURN c.key AS key, c.json AS json`, { keys: batch });
          for (const r of rows) out.set(String(r.key), String(r.json));
        }
        return out;
      }),

    putExtractionCache: (entry) =>
      exclusive(async () => {
        await beforeWrite("saving an extraction result");
        // One auto-committed statement: a crash leaves the entry either whole or absent.
        await opened().session.run(
          `MERGE (c:${EXTRACTION_CACHE_TABLE} {key: $key}) SET c.modelId = $modelId, c.promptVersion = $promptVersion, c.json = $json, c.createdAt = $createdAt`,
          { ...entry, createdAt: new Date().toISOString() },
        );
      }),

    replaceLlmTriplets: (documentId, write) =>
      exclusive(async () => {
        const { session } = opened();
        if (!(await findDocument(session, "id", documentId))) throw new ClauseGraphError("NOT_FOUND", `No document with id ${documentId}`);
        await beforeWrite(`storing the LLM triplets of ${documentId}`);
        for (const t of write.triplets) {
          if (t.source !== "llm" || t.documentId !== documentId || !t.id.startsWith(`${documentId}:`)) {
            throw new ClauseGraphError("VALIDATION", `triplet ${t.id} is not an LLM triplet of document ${documentId}`);
          }
        }
        validateEntities(`the LLM triplets of ${documentId}`, write.entities, write.triplets);
        const space = await readSpace(session);
        const tables = await tableNames(session);
        const withVectors = space !== null && write.embeddingModel === space.modelId && tables.has(TRIPLET_VECTORS.table);
        forgetVectors();
        vectorIndexFresh = false;
        let replaced = 0;
        try {
          await session.transaction(async () => {
            const old = await session.run("MATCH (t:Triplet) WHERE t.documentId = $documentId AND t.source = 'llm' RETURN t.id AS id", { documentId });
            replaced = old.length;
            if (tables.has(TRIPLET_VECTORS.table) && old.length > 0) {
              for (const batch of chunks(old.map((r) => String(r.id)), batchSize)) {
                await deleteVectors(session, TRIPLET_VECTORS, "v.documentId = $documentId AND list_contains($ids, v.id)", { documentId, ids: batch });
              }
            }
            await deleteNodesWithEdges(session, await relConnections(session), { table: "Triplet", where: "n.documentId = $documentId AND n.source = 'llm'" }, { documentId });
            // Entities only the previous LLM triplets used; rule entities always keep a triplet.
            await session.run(
              "MATCH (e:Entity) WHERE e.documentId = $documentId AND NOT EXISTS { MATCH (e)<-[:HAS_SUBJECT|:HAS_OBJECT|:HAS_RECIPIENT]-(:Triplet) } DELETE e",
              { documentId },
            );
            fault("llm:deleted");
            for (const batch of chunks(write.entities.map(entityRow), batchSize)) {
              await session.run(
                "UNWIND $rows AS r MERGE (e:Entity {id: r.id}) ON CREATE SET e.documentId = r.documentId, e.key = r.key, e.name = r.name, e.type = r.type, e.party = r.party",
                { rows: batch },
              );
            }
            for (const batch of chunks(write.triplets.map(tripletRow), batchSize)) {
              await session.run(
                `UNWIND $rows AS r CREATE (:Triplet {id: r.id, documentId: r.documentId, sectionId: r.sectionId, subjectId: r.subjectId,
                   subject: r.subject, predicate: r.predicate, objectId: r.objectId, object: r.object, recipientId: r.recipientId,
                   recipient: r.recipient, modality: r.modality,
                   deadline: r.deadline, source: r.source, confidence: r.confidence, spanStart: r.spanStart,
                   spanEnd: r.spanEnd, evidence: r.evidence})`,
                { rows: batch },
              );
            }
            fault("llm:triplets");
            const stated = write.statedIn.map((x): Params => ({ triplet: x.tripletId, section: x.sectionId, sectionDocumentId: x.sectionId.split(":")[0] ?? "", spanStart: x.start, spanEnd: x.end }));
            for (const batch of chunks(stated, batchSize)) {
              await session.run(
                `UNWIND $rows AS r MATCH (t:Triplet), (s:Section)
                 WHERE t.documentId = $documentId AND t.id = r.triplet AND s.documentId = r.sectionDocumentId AND s.id = r.section
                 CREATE (t)-[:STATED_IN {spanStart: r.spanStart, spanEnd: r.spanEnd}]->(s)`,
                { rows: batch, documentId },
              );
            }
            for (const [rel, field] of [["HAS_SUBJECT", "subjectId"], ["HAS_OBJECT", "objectId"]] as const) {
              const links = write.triplets.filter((t) => t[field] !== "").map((t): Params => ({ triplet: t.id, entity: t[field] }));
              for (const batch of chunks(links, batchSize)) {
                await session.run(
                  `UNWIND $rows AS r MATCH (t:Triplet), (e:Entity)
                   WHERE t.documentId = $documentId AND e.documentId = $documentId AND t.id = r.triplet AND e.id = r.entity
                   CREATE (t)-[:${rel}]->(e)`,
                  { rows: batch, documentId },
                );
              }
            }
            fault("llm:links");
            // Not embedded until the new triplets' vectors are in (their own transaction below).
            if (withVectors) await session.run("MATCH (d:Document) WHERE d.id = $id SET d.embeddedWith = ''", { id: documentId });
          });
          // Replacing removed edges: anchor the survivors before anything checkpoints, in a
          // transaction of its own (see protectSurvivingEdges).
          if (replaced > 0) await session.transaction(() => protectSurvivingEdges(session));
          if (withVectors) {
            const tripletSection = new Map(write.triplets.map((t) => [t.id, t.sectionId]));
            // New rows only: a property under a vector index cannot be SET.
            await storeVectors(session, documentId, space, [
              { spec: TRIPLET_VECTORS, vectors: write.tripletEmbeddings, sectionOf: (id) => tripletSection.get(id) ?? "" },
            ]);
          }
          await checkpoint(session);
        } catch (err) {
          throw toStoreError(err, dbPath, `storing the LLM triplets of ${documentId}`);
        }
        return { triplets: write.triplets.length, entities: write.entities.length };
      }),
  };
}
