import type { EmbeddingSpace } from "../../../model/store-records.ts";
import { cypherString } from "../driver.ts";
import { commitVectorRows } from "../hnsw-commit-guard.ts";
import { countRows, deadVectorsKey, hasVectorIndex, indexNames, readMeta, tableNames } from "../readers/metadata.ts";
import type { KuzuSession, Params } from "../session.ts";
import { EMBEDDING_DIMS_KEY, EMBEDDING_MODEL_KEY, VECTOR_TABLES, vectorTableDdl, type VectorTableSpec } from "../schema.ts";
import { storedVector, type VectorRow } from "../vector-mirror.ts";
import { writeMeta } from "./metadata.ts";
import type { WriteContext } from "./write-context.ts";

// Writes of the vector tables: a document's vectors (each table in a transaction of its own:
// hnsw-commit-guard.ts), their deletion (counted for vector-compaction.ts), a change of embedding
// model, and the HNSW indexes built after a bulk load.

/** A compaction a crash interrupted leaves `<table>_compact` behind (vector-compaction.ts). */
export const COMPACT_SUFFIX = "_compact";

/** Deletes vectors (inside the caller's transaction) and adds them to the table's dead count. Returns how many. */
export async function deleteVectors(session: KuzuSession, spec: VectorTableSpec, where: string, params: Params): Promise<number> {
  const [row] = await session.run(`MATCH (v:${spec.table}) WHERE ${where} RETURN count(v) AS n`, params);
  const n = Number(row?.n ?? 0);
  if (n === 0) return 0;
  await session.run(`MATCH (v:${spec.table}) WHERE ${where} DELETE v`, params);
  const dead = Number((await readMeta(session, deadVectorsKey(spec))) ?? 0);
  await writeMeta(session, deadVectorsKey(spec), String(dead + n));
  return n;
}

export interface VectorTableWrite {
  spec: VectorTableSpec;
  vectors: ReadonlyMap<string, Float32Array>;
  /** The section a vector belongs to (its own id for a section vector). */
  sectionOf: (id: string) => string;
}

/**
 * A document's vectors, each table in a transaction of its own (hnsw-commit-guard.ts), then the
 * mark that they are complete: until it is set the document counts as not embedded, so a crash
 * in between is healed by re-embedding on the next start. Returns the rows as the table now holds
 * them, per table, for the in-memory mirror.
 */
export async function storeVectors(
  ctx: WriteContext,
  documentId: string,
  space: EmbeddingSpace,
  tables: readonly VectorTableWrite[],
): Promise<Map<string, VectorRow[]>> {
  const written = new Map<string, VectorRow[]>();
  for (const { spec, vectors, sectionOf } of tables) {
    await commitVectorRows(ctx.session, { documentId, spec, space, vectors, sectionOf, batchSize: ctx.batchSize });
    written.set(
      spec.table,
      [...vectors].map(([id, vector]) => ({ id, documentId, sectionId: sectionOf(id), vector: storedVector(vector) })),
    );
  }
  await ctx.session.run("MATCH (d:Document) WHERE d.id = $id SET d.embeddedWith = $model", { id: documentId, model: space.modelId });
  return written;
}

/**
 * Makes the vector tables those of `space`: Kuzu refuses to drop a table an index refers to, and
 * cannot re-create a dropped index on the same table, so both go and fresh tables are made. DDL
 * runs outside a transaction; a crash between the steps leaves tables without a recorded model (or
 * none at all), which the next call repairs the same way. The caller holds reads back (lanes.ts).
 */
export async function switchEmbeddingSpace(session: KuzuSession, space: EmbeddingSpace): Promise<void> {
  const tables = await tableNames(session);
  const indexes = await indexNames(session);
  for (const spec of VECTOR_TABLES) {
    if (hasVectorIndex(indexes, spec)) await session.run(`CALL DROP_VECTOR_INDEX(${cypherString(spec.table)}, ${cypherString(spec.index)})`);
    if (tables.has(spec.table)) await session.run(`DROP TABLE ${spec.table}`);
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
}

/**
 * Builds the HNSW index of every vector table that has rows and none. An index over an empty table
 * is legal but would then be filled row by row; waiting for the first bulk load builds it in one
 * pass. Kuzu maintains it on every insert and delete afterwards. The caller holds reads back.
 */
export async function buildMissingVectorIndexes(
  session: KuzuSession,
  log: (message: string) => void,
  wanted: (spec: VectorTableSpec, rows: number) => boolean = () => true,
): Promise<void> {
  const tables = await tableNames(session);
  const indexes = await indexNames(session);
  for (const spec of VECTOR_TABLES) {
    if (!tables.has(spec.table) || hasVectorIndex(indexes, spec)) continue;
    const n = await countRows(session, spec.table);
    if (n === 0 || !wanted(spec, n)) continue;
    const started = Date.now();
    await session.run(`CALL CREATE_VECTOR_INDEX(${cypherString(spec.table)}, ${cypherString(spec.index)}, 'vector', metric := 'cosine')`);
    log(`vector index ${spec.index} built over ${n} rows in ${Date.now() - started} ms`);
  }
}
