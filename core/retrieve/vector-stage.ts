import type { ScoredId } from "../model/graph-records.ts";
import type { RetrievalStore } from "../store/retrieval-store.ts";

// Dense retrieval over section embeddings. The query vector is computed once by the caller and
// shared with the triplet stage.
export async function vectorStage(store: RetrievalStore, queryVector: Float32Array | null, k: number): Promise<ScoredId[]> {
  if (queryVector === null || k < 1) return [];
  return store.searchSectionsByVector(queryVector, k);
}
