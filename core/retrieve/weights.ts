// Feature weights of the fused score. Stage features are fusion (always used); the others belong
// to the re-scoring stage and are ignored when it is switched off. The values are fitted on the
// ObliQA dev split (bench/retrieval.ts --fit); see the report in bench/retrieval.ts for figures.

export interface HybridWeights {
  /** BM25 score / best BM25 score of the query. */
  bm25: number;
  /** rankFeature of the BM25 rank. */
  bm25Rank: number;
  /** Cosine of query and section vectors (0 when the section was not among the vector hits). */
  vector: number;
  vectorRank: number;
  /** Best triplet cosine in the section. */
  triplet: number;
  /** Score propagated by graph expansion from a strong neighbour. */
  graph: number;
  /** IDF-weighted share of the query's content words found in the section text. */
  coverage: number;
  /** Share of query words found in the section's heading, label or ancestors' headings. */
  headingCoverage: number;
  /** Share of adjacent query-word pairs found close together in the text. */
  proximity: number;
  /** How much of the first-pass evidence falls in the section's document. */
  docPrior: number;
  /** 1 for a section with no body text (a bare heading). */
  emptyText: number;
}

export type WeightName = keyof HybridWeights;

export const FUSION_FEATURES: readonly WeightName[] = ["bm25", "bm25Rank", "vector", "vectorRank", "triplet", "graph"];
export const RESCORE_FEATURES: readonly WeightName[] = ["coverage", "headingCoverage", "proximity", "docPrior", "emptyText"];

// Fitted on ObliQA dev (2,788 questions) by bench/retrieval.ts --fit: objective R@10 + MAP@10
// 1.414 with hand-set weights → 1.461. `triplet` is not fitted yet (no triplets in the bench).
export const DEFAULT_WEIGHTS: HybridWeights = {
  bm25: 1,
  bm25Rank: 0.25,
  vector: 0.075,
  vectorRank: 0.2,
  triplet: 0.2,
  graph: 0.1,
  coverage: 1.05,
  headingCoverage: 0.2,
  proximity: 1.825,
  docPrior: 0.325,
  emptyText: -1,
};

/** The weights that apply with the given stages on: re-scoring features drop out when it is off. */
export function activeWeights(weights: HybridWeights, rescore: boolean): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of FUSION_FEATURES) out[name] = weights[name];
  if (rescore) for (const name of RESCORE_FEATURES) out[name] = weights[name];
  return out;
}
