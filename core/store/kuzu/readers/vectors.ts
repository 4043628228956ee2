import type { EmbeddingSpace } from "../../../model/store-records.ts";
import { cypherString } from "../driver.ts";
import type { KuzuSession } from "../session.ts";
import { SECTION_VECTORS, type VectorTableSpec } from "../schema.ts";
import { vectorLiteral } from "../store-rows.ts";
import { unitVector, type VectorHit, type VectorRow } from "../vector-mirror.ts";
import { documentsOf } from "./documents.ts";

// Reads of the vector tables: rows for the in-memory mirror (vector-mirror.ts), HNSW queries for
// libraries too large for it, and stored vectors by section.

function toRow(r: Record<string, unknown>): VectorRow {
  return { id: String(r.id), documentId: String(r.documentId), sectionId: String(r.sectionId), vector: Array.isArray(r.vector) ? r.vector.map(Number) : [] };
}

/** Every row of a vector table, or one document's. */
export async function vectorRows(session: KuzuSession, spec: VectorTableSpec, documentId?: string): Promise<VectorRow[]> {
  const rows =
    documentId === undefined
      ? await session.run(`MATCH (v:${spec.table}) RETURN v.id AS id, v.documentId AS documentId, v.sectionId AS sectionId, v.vector AS vector`)
      : await session.run(
          `MATCH (v:${spec.table}) WHERE v.documentId = $documentId RETURN v.id AS id, v.documentId AS documentId, v.sectionId AS sectionId, v.vector AS vector`,
          {
            documentId,
          },
        );
  return rows.map(toRow);
}

/** Each document's row count in a vector table (what a snapshot of its mirror must agree with). */
export async function vectorRowsPerDocument(session: KuzuSession, spec: VectorTableSpec): Promise<Map<string, number>> {
  const rows = await session.run(`MATCH (v:${spec.table}) RETURN v.documentId AS documentId, count(*) AS n`);
  return new Map(rows.map((r) => [String(r.documentId), Number(r.n)]));
}

/** The k nearest rows through the table's HNSW index (which must exist). */
export async function hnswSearch(session: KuzuSession, spec: VectorTableSpec, space: EmbeddingSpace, vector: Float32Array, top: number): Promise<VectorHit[]> {
  // The query vector goes in as a literal: bound as a parameter, Kuzu 0.11.3 compared it wrongly
  // against a FLOAT[n] index (nearest neighbours came back in the wrong order), and a CAST of a
  // parameter is refused there. vectorLiteral prints numbers only.
  const rows = await session.run(
    `CALL QUERY_VECTOR_INDEX(${cypherString(spec.table)}, ${cypherString(spec.index)}, CAST(${vectorLiteral(vector)} AS FLOAT[${space.dimensions}]), ${top})
     RETURN node.id AS id, node.sectionId AS sectionId, distance ORDER BY distance, id`,
  );
  return rows.map((r) => ({ id: String(r.id), sectionId: String(r.sectionId), score: 1 - Number(r.distance) }));
}

/** Unit vectors of these sections read from the section table (the path for libraries beyond the mirror). */
export async function storedSectionVectors(session: KuzuSession, ids: readonly string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (ids.length === 0) return out;
  const rows = await session.run(
    `MATCH (v:${SECTION_VECTORS.table}) WHERE list_contains($docs, v.documentId) AND list_contains($ids, v.sectionId) RETURN v.sectionId AS id, v.vector AS vector`,
    { docs: documentsOf(ids), ids: [...ids] },
  );
  for (const r of rows) if (Array.isArray(r.vector)) out.set(String(r.id), unitVector(Float32Array.from(r.vector, (x) => Number(x))));
  return out;
}

/** Stored section vectors of these documents, as stored (comparisons normalize them themselves). */
export async function sectionVectorsOfDocuments(session: KuzuSession, documentIds: readonly string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (documentIds.length === 0) return out;
  const rows = await session.run(`MATCH (v:${SECTION_VECTORS.table}) WHERE list_contains($docs, v.documentId) RETURN v.sectionId AS id, v.vector AS vector`, {
    docs: [...documentIds],
  });
  for (const r of rows)
    if (Array.isArray(r.vector))
      out.set(
        String(r.id),
        Float32Array.from(r.vector, (x) => Number(x)),
      );
  return out;
}
