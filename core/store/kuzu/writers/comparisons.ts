import { ClauseGraphError } from "../../../model/errors.ts";
import type { ComparisonCacheEntry, ComparisonRecord, ComparisonWrite, VerdictUpdate } from "../../../model/comparison-records.ts";
import { chunks } from "../batches.ts";
import { doubleParam } from "../double-params.ts";
import type { KuzuSession, Params } from "../session.ts";
import { COMPARISON_CACHE_TABLE, COMPARISON_TABLE } from "../schema.ts";

// Writing comparisons (schema v7) on the writer's session; kuzu-store.ts wraps these in its
// write rules: the free-space check, the anchors of the rel-checkpoint guard after any edge is
// deleted, and a checkpoint after each write. Kuzu 0.11.3 rules kept here:
// - A Comparison node is created in a transaction of its own (startComparison), never in one that
//   deletes and re-creates SIMILAR_TO edges: a transaction re-creating an edge and creating nodes
//   replays wrongly after a crash (rel-checkpoint-guard.ts).
// - Edges are deleted one statement per rel table and end (plain DELETE r), never DETACH DELETE
//   (delete-nodes.ts).
// - Scores travel as text in UNWIND rows (double-params.ts).

/** The parameters of SET_PROPERTIES (Kuzu refuses parameters a statement does not use). */
function comparisonParams(c: ComparisonRecord): Params {
  return {
    id: c.id,
    documentId: c.documentId,
    otherDocumentId: c.otherDocumentId,
    libraryDocuments: c.libraryDocuments,
    k: c.k,
    embeddingModel: c.embeddingModel,
    scorerVersion: c.scorerVersion,
    llmModel: c.llmModel,
    status: c.status,
    sections: c.sections,
    pairsExamined: c.pairsExamined,
    updatedAt: c.updatedAt,
  };
}

const SET_PROPERTIES = `c.documentId = $documentId, c.otherDocumentId = $otherDocumentId,
  c.libraryDocuments = CAST($libraryDocuments AS STRING[]), c.k = $k, c.embeddingModel = $embeddingModel,
  c.scorerVersion = $scorerVersion, c.llmModel = $llmModel, c.status = $status, c.sections = $sections,
  c.pairsExamined = $pairsExamined, c.updatedAt = $updatedAt`;

/** The documents a comparison names must exist when it is written (NOT_FOUND otherwise). */
export async function assertComparedDocuments(session: KuzuSession, c: Pick<ComparisonRecord, "documentId" | "libraryDocuments">): Promise<void> {
  const ids = [...new Set([c.documentId, ...c.libraryDocuments])];
  const rows = await session.run("MATCH (d:Document) WHERE list_contains($ids, d.id) RETURN d.id AS id", { ids });
  const found = new Set(rows.map((r) => String(r.id)));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) throw new ClauseGraphError("NOT_FOUND", `The compared document ${missing.join(", ")} is no longer in the library`);
}

/** Creates the comparison (or marks an existing one "computing" again), in a transaction of its own. */
export async function startComparison(session: KuzuSession, c: ComparisonRecord): Promise<void> {
  await session.transaction(async () => {
    await assertComparedDocuments(session, c);
    await session.run(`MERGE (c:${COMPARISON_TABLE} {id: $id}) ON CREATE SET c.createdAt = $createdAt SET ${SET_PROPERTIES}`, {
      ...comparisonParams(c),
      createdAt: c.createdAt,
    });
  });
}

/**
 * Inside the caller's transaction: replaces the edges of the listed A sections and records the
 * comparison's new state. Creates no node (see the top of this file). Returns how many edges were
 * deleted, so the caller knows whether the rel-checkpoint anchors are needed.
 */
export async function replaceComparisonEdges(session: KuzuSession, write: ComparisonWrite, batchSize: number): Promise<number> {
  const c = write.comparison;
  await assertComparedDocuments(session, c);
  const [existing] = await session.run(`MATCH (c:${COMPARISON_TABLE}) WHERE c.id = $id RETURN count(c) AS n`, { id: c.id });
  if (Number(existing?.n ?? 0) === 0) throw new ClauseGraphError("NOT_FOUND", `No comparison ${c.id}: it was deleted meanwhile`);
  let deleted = 0;
  for (const batch of chunks(write.aSectionIds, batchSize)) {
    const [row] = await session.run(
      `MATCH (a:Section)-[r:SIMILAR_TO]->(:Section) WHERE a.documentId = $documentId AND list_contains($ids, a.id) AND r.comparisonId = $id
       DELETE r RETURN count(*) AS n`,
      { documentId: c.documentId, ids: batch, id: c.id },
    );
    deleted += Number(row?.n ?? 0);
  }
  const rows = write.edges.map((e): Params => ({
    a: e.aSectionId,
    aDoc: e.aSectionId.split(":")[0] ?? "",
    b: e.bSectionId,
    bDoc: e.bSectionId.split(":")[0] ?? "",
    comparisonId: c.id,
    embeddingModel: e.embeddingModel,
    rank: e.rank,
    score: doubleParam(e.score),
    aHash: e.aHash,
    bHash: e.bHash,
    reasons: e.reasons,
    flags: e.flags,
    evidence: e.evidence,
    verdict: e.verdict,
  }));
  let created = 0;
  for (const batch of chunks(rows, batchSize)) {
    // Section ids start with their document id: the filter on it keeps the join to the two documents.
    const [row] = await session.run(
      `UNWIND $rows AS r MATCH (a:Section), (b:Section)
       WHERE a.documentId = r.aDoc AND a.id = r.a AND b.documentId = r.bDoc AND b.id = r.b
       CREATE (a)-[:SIMILAR_TO {comparisonId: r.comparisonId, embeddingModel: r.embeddingModel, rank: r.rank, score: CAST(r.score AS DOUBLE),
         aHash: r.aHash, bHash: r.bHash, reasons: r.reasons, flags: r.flags, evidence: r.evidence, verdict: r.verdict}]->(b)
       RETURN count(*) AS n`,
      { rows: batch },
    );
    created += Number(row?.n ?? 0);
  }
  if (created !== rows.length) {
    throw new ClauseGraphError("NOT_FOUND", `${rows.length - created} compared section(s) are no longer in the library; compare again`);
  }
  await session.run(`MATCH (c:${COMPARISON_TABLE}) WHERE c.id = $id SET ${SET_PROPERTIES}`, comparisonParams(c));
  return deleted;
}

/** Inside the caller's transaction: sets the verdict of existing edges (no edge is deleted or created). */
export async function updateVerdicts(
  session: KuzuSession,
  comparison: ComparisonRecord,
  verdicts: readonly VerdictUpdate[],
  batchSize: number,
): Promise<number> {
  let updated = 0;
  for (const batch of chunks(
    verdicts.map((v): Params => ({ a: v.aSectionId, b: v.bSectionId, verdict: v.verdict })),
    batchSize,
  )) {
    const [row] = await session.run(
      `UNWIND $rows AS v MATCH (a:Section)-[r:SIMILAR_TO]->(b:Section)
       WHERE a.documentId = $documentId AND a.id = v.a AND b.id = v.b AND r.comparisonId = $id
       SET r.verdict = v.verdict RETURN count(*) AS n`,
      { rows: batch, documentId: comparison.documentId, id: comparison.id },
    );
    updated += Number(row?.n ?? 0);
  }
  await session.run(`MATCH (c:${COMPARISON_TABLE}) WHERE c.id = $id SET ${SET_PROPERTIES}`, comparisonParams(comparison));
  return updated;
}

/** Inside the caller's transaction: the comparison's edges, then its node. Returns the edges deleted. */
export async function removeComparison(session: KuzuSession, comparison: ComparisonRecord): Promise<number> {
  const [row] = await session.run(
    `MATCH (a:Section)-[r:SIMILAR_TO]->(:Section) WHERE a.documentId = $documentId AND r.comparisonId = $id DELETE r RETURN count(*) AS n`,
    { documentId: comparison.documentId, id: comparison.id },
  );
  await session.run(`MATCH (c:${COMPARISON_TABLE}) WHERE c.id = $id DELETE c`, { id: comparison.id });
  return Number(row?.n ?? 0);
}

/** One auto-committed statement per entry: a crash keeps each entry whole or absent. */
export async function writeComparisonCache(session: KuzuSession, entry: ComparisonCacheEntry, createdAt: string): Promise<void> {
  await session.run(
    `MERGE (c:${COMPARISON_CACHE_TABLE} {key: $key}) SET c.kind = $kind, c.modelId = $modelId, c.version = $version, c.json = $json, c.createdAt = $createdAt`,
    { ...entry, createdAt },
  );
}
