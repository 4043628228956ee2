import { randomUUID } from "node:crypto";
import { ClauseGraphError } from "../../model/errors.ts";
import type { VectorQuery } from "../../model/comparison-records.ts";
import type { EmbeddingSpace } from "../../model/store-records.ts";
import type { ScoredId } from "../../model/graph-records.ts";
import { cypherString } from "./driver.ts";
import type { KuzuSession } from "./session.ts";
import { SECTION_VECTORS } from "./schema.ts";
import { vectorLiteral } from "./store-rows.ts";

// Nearest sections of chosen documents, through the HNSW index (the crosswalk's k-NN search,
// core/compare/). Kuzu 0.11.3 filters inside the index search when it is given a projected graph
// of the rows that qualify, so a small document among many still gets its k neighbours instead of
// the library's top k filtered down to few. Measured on GDPR sections searching DORA's (a small
// share of the vectors): fast, and the same top k as an exact scan for every query tried.

/** Exploration breadth of each search: well above k so that filtering does not cost recall. */
function efsFor(k: number): number {
  return Math.max(64, 4 * k);
}

function hasDirection(vector: Float32Array): boolean {
  let norm = 0;
  for (const x of vector) norm += x * x;
  return Number.isFinite(norm) && norm > 0;
}

/**
 * For each query, the `k` nearest sections (score = cosine) among the documents listed. The index
 * must exist (the caller refreshes it); a query of another width or with no direction gets [].
 */
export async function nearestSectionsIn(
  session: KuzuSession,
  space: EmbeddingSpace,
  queries: readonly VectorQuery[],
  k: number,
  documentIds: readonly string[],
): Promise<Map<string, ScoredId[]>> {
  const out = new Map<string, ScoredId[]>();
  const top = Math.floor(k);
  if (queries.length === 0 || documentIds.length === 0 || !Number.isFinite(top) || top < 1) return out;
  // The filter is a literal inside the projection (Kuzu takes no parameters there): ids only.
  for (const id of documentIds) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new ClauseGraphError("VALIDATION", `not a document id: ${JSON.stringify(id.slice(0, 80))}`);
  }
  const graph = `nearest_${randomUUID().replace(/-/g, "")}`;
  const filter = `list_contains([${documentIds.map((id) => `"${id}"`).join(",")}], n.documentId)`;
  await session.run(`CALL PROJECT_GRAPH(${cypherString(graph)}, {${cypherString(SECTION_VECTORS.table)}: ${cypherString(filter)}}, [])`);
  try {
    for (const query of queries) {
      if (query.vector.length !== space.dimensions || !hasDirection(query.vector)) {
        out.set(query.id, []);
        continue;
      }
      // A literal vector, as in every vector query of the store (a bound one compared wrongly).
      const rows = await session.run(
        `CALL QUERY_VECTOR_INDEX(${cypherString(graph)}, ${cypherString(SECTION_VECTORS.index)}, CAST(${vectorLiteral(query.vector)} AS FLOAT[${space.dimensions}]), ${top}, efs := ${efsFor(top)})
         RETURN node.sectionId AS sectionId, distance ORDER BY distance, sectionId`,
      );
      out.set(
        query.id,
        rows.map((r) => ({ id: String(r.sectionId), score: 1 - Number(r.distance) })),
      );
    }
  } finally {
    await session.run(`CALL DROP_PROJECTED_GRAPH(${cypherString(graph)})`);
  }
  return out;
}
