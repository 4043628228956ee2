import type { ComparisonRecord, ComparisonStatus, SimilarToRecord } from "../../../model/comparison-records.ts";
import { chunks } from "../batches.ts";
import type { KuzuValue } from "../driver.ts";
import type { KuzuSession } from "../session.ts";
import { COMPARISON_CACHE_TABLE, COMPARISON_TABLE } from "../schema.ts";
import { toProps } from "../store-rows.ts";

// Reads of comparisons (schema v7): the Comparison nodes, their SIMILAR_TO edges, the verdict cache.

const STATUSES: readonly ComparisonStatus[] = ["computing", "complete", "partial"];

function text(props: Record<string, KuzuValue>, key: string): string {
  const v = props[key];
  return typeof v === "string" ? v : "";
}

function num(props: Record<string, KuzuValue>, key: string): number {
  const v = props[key];
  return typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : 0;
}

export function comparisonFromNode(value: KuzuValue | undefined): ComparisonRecord {
  const p = toProps(value, "comparison");
  const status = text(p, "status");
  const docs = p.libraryDocuments;
  return {
    id: text(p, "id"),
    documentId: text(p, "documentId"),
    otherDocumentId: text(p, "otherDocumentId"),
    libraryDocuments: Array.isArray(docs) ? docs.filter((d): d is string => typeof d === "string") : [],
    k: num(p, "k"),
    embeddingModel: text(p, "embeddingModel"),
    scorerVersion: text(p, "scorerVersion"),
    llmModel: text(p, "llmModel"),
    status: (STATUSES as readonly string[]).includes(status) ? (status as ComparisonStatus) : "partial",
    sections: num(p, "sections"),
    pairsExamined: num(p, "pairsExamined"),
    createdAt: text(p, "createdAt"),
    updatedAt: text(p, "updatedAt"),
  };
}

export async function readComparison(session: KuzuSession, id: string): Promise<ComparisonRecord | null> {
  const rows = await session.run(`MATCH (c:${COMPARISON_TABLE}) WHERE c.id = $id RETURN c`, { id });
  return rows.length === 0 ? null : comparisonFromNode(rows[0]?.c);
}

export async function listComparisonRecords(session: KuzuSession): Promise<ComparisonRecord[]> {
  const rows = await session.run(`MATCH (c:${COMPARISON_TABLE}) RETURN c ORDER BY c.updatedAt DESC, c.id`);
  return rows.map((r) => comparisonFromNode(r.c));
}

export async function readComparisonEdges(session: KuzuSession, comparison: ComparisonRecord): Promise<SimilarToRecord[]> {
  // Filtering on the A document first keeps Kuzu from scanning every section's edges.
  const rows = await session.run(
    `MATCH (a:Section)-[r:SIMILAR_TO]->(b:Section) WHERE a.documentId = $documentId AND r.comparisonId = $id
     RETURN a.id AS aId, b.id AS bId, r.embeddingModel AS embeddingModel, r.rank AS rank, r.score AS score, r.aHash AS aHash,
       r.bHash AS bHash, r.reasons AS reasons, r.flags AS flags, r.evidence AS evidence, r.verdict AS verdict
     ORDER BY aId, rank, bId`,
    { documentId: comparison.documentId, id: comparison.id },
  );
  return rows.map((r) => ({
    comparisonId: comparison.id,
    aSectionId: String(r.aId),
    bSectionId: String(r.bId),
    embeddingModel: String(r.embeddingModel ?? ""),
    rank: Number(r.rank ?? 0),
    score: Number(r.score ?? 0),
    aHash: String(r.aHash ?? ""),
    bHash: String(r.bHash ?? ""),
    reasons: String(r.reasons ?? ""),
    flags: String(r.flags ?? ""),
    evidence: String(r.evidence ?? ""),
    verdict: String(r.verdict ?? ""),
  }));
}

export async function readComparisonCache(session: KuzuSession, keys: readonly string[], batchSize: number): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const batch of chunks([...new Set(keys)], batchSize)) {
    // One primary-key lookup per key (a list_contains filter would scan the whole cache).
    const rows = await session.run(`UNWIND $keys AS k MATCH (c:${COMPARISON_CACHE_TABLE}) WHERE c.key = k RETURN c.key AS key, c.json AS json`, {
      keys: batch,
    });
    for (const r of rows) out.set(String(r.key), String(r.json));
  }
  return out;
}
