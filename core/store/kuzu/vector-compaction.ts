import type { EmbeddingSpace } from "../../model/store-records.ts";
import { cypherString } from "./driver.ts";
import { countRows, deadVectorsKey, hasVectorIndex, indexNames, readMeta, tableNames } from "./readers/metadata.ts";
import type { KuzuSession } from "./session.ts";
import { vectorTableDdl, type VectorTableSpec } from "./schema.ts";
import { writeMeta } from "./writers/metadata.ts";
import { COMPACT_SUFFIX } from "./writers/vectors.ts";

// Kuzu 0.11.3 workaround: its HNSW index keeps deleted rows as dead ends in its graph (they are
// skipped, never removed), so a library whose documents are deleted and re-imported wears it out:
// in the soak, after hundreds of re-imports of one PDF most of the graph was dead and some vector
// queries lost most of their top k; with most of a small table deleted, queries came back
// empty. Every write that deletes vectors counts them in Meta (writers/vectors.ts deleteVectors);
// past a quarter of the live rows (and at least MIN_DEAD_VECTORS) the table is copied into a fresh
// one and indexed again. Tested in test/integration/store-vectors.test.ts.

/** Dead rows a vector table may carry before it is compacted, at the least. */
export const MIN_DEAD_VECTORS = 32;

/**
 * Compacts `spec` when it is worn. Runs DDL: the caller is in the write lane and holds reads back
 * (lanes.ts quiesce). `beforeWrite` refuses on a read-only library or a full disk. True when it compacted.
 */
export async function compactIfWorn(
  session: KuzuSession,
  spec: VectorTableSpec,
  space: EmbeddingSpace,
  beforeWrite: (doing: string) => Promise<void>,
  log: (message: string) => void,
): Promise<boolean> {
  if (!(await tableNames(session)).has(spec.table)) return false;
  // Without an index (a table its mirror serves) deleted rows leave nothing behind to wear.
  if (!hasVectorIndex(await indexNames(session), spec)) return false;
  const live = await countRows(session, spec.table);
  const dead = Number((await readMeta(session, deadVectorsKey(spec))) ?? 0);
  if (live === 0 || dead < Math.max(MIN_DEAD_VECTORS, live / 4)) return false;
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
  if (hasVectorIndex(await indexNames(session), spec)) {
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
  await session.run("CHECKPOINT");
  log(`vector table ${spec.table} compacted: ${live} rows kept, ${dead} deleted ones dropped from its index (${Date.now() - started} ms)`);
  return true;
}
