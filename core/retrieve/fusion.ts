// Combines what the stages found into one score per section. Two tools:
// - weighted reciprocal-rank fusion, rank-only and robust when stage scores are not comparable;
// - a linear fusion of per-stage features (normalised BM25 score, rank, cosine…), whose weights
//   are fitted on the ObliQA dev split by bench/retrieval.ts (`--fit`). On that data plain RRF
//   of BM25 and GloVe vectors lowers recall (STACK.md), while a fitted linear fusion does not.

export interface RankedList {
  ids: readonly string[];
  weight: number;
}

/** Σ weight / (k + rank), rank 1-based; ties broken by id for a stable order. */
export function weightedRrf(lists: readonly RankedList[], k = 60): Array<{ id: string; score: number }> {
  const scores = new Map<string, number>();
  for (const list of lists) {
    if (list.weight === 0) continue;
    list.ids.forEach((id, i) => {
      scores.set(id, (scores.get(id) ?? 0) + list.weight / (k + i + 1));
    });
  }
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A rank as a feature in (0, 1]: 1 for the first hit, 0.5 for the 11th, 0 when not found. */
export function rankFeature(rank: number | undefined): number {
  return rank === undefined ? 0 : 1 / (1 + (rank - 1) / 10);
}

/** Σ weight × feature over the features that have a weight; unknown features count 0. */
export function linearScore(features: Readonly<Record<string, number>>, weights: Readonly<Record<string, number>>): number {
  let score = 0;
  for (const [name, weight] of Object.entries(weights)) score += weight * (features[name] ?? 0);
  return score;
}
