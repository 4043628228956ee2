// Recall@k and MAP@k exactly as the ObliQA / RIRAG evaluation computes them: pytrec_eval
// (trec_eval) `recall_10` and `map_cut_10`, averaged over the evaluated questions.
//
// trec_eval details reproduced here, because they move the figures:
// - a run is ordered by score descending, ties broken by document id descending (trec_eval's
//   qsort comparator), not by the order the system returned them in;
// - only documents with relevance > 0 count as relevant; the denominator of both metrics is the
//   number of relevant documents of the question (not min(k, R));
// - pytrec_eval evaluates only questions present in the run with at least one document: a
//   question the system returned nothing for is left out of the mean, as upstream does.

/** question id → document id → relevance. */
export type Qrels = Map<string, Map<string, number>>;
/** question id → document id → score (higher is better). */
export type Run = Map<string, Map<string, number>>;

export interface QuestionMetrics {
  recall: number;
  averagePrecision: number;
}

export interface RunMetrics {
  /** Questions that entered the mean (in qrels and with a non-empty run). */
  questions: number;
  recallAtK: number;
  mapAtK: number;
  perQuestion: Map<string, QuestionMetrics>;
}

/** The run of one question in trec_eval order. */
export function trecOrder(scores: ReadonlyMap<string, number>): string[] {
  return [...scores.entries()].sort((a, b) => (b[1] !== a[1] ? b[1] - a[1] : a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0)).map(([id]) => id);
}

export function questionMetrics(relevant: ReadonlyMap<string, number>, scores: ReadonlyMap<string, number>, k: number): QuestionMetrics {
  let numRel = 0;
  for (const rel of relevant.values()) if (rel > 0) numRel++;
  if (numRel === 0) return { recall: 0, averagePrecision: 0 };
  const ranked = trecOrder(scores).slice(0, k);
  let hits = 0;
  let precisionSum = 0;
  ranked.forEach((id, i) => {
    if ((relevant.get(id) ?? 0) > 0) {
      hits++;
      precisionSum += hits / (i + 1);
    }
  });
  return { recall: hits / numRel, averagePrecision: precisionSum / numRel };
}

export function evaluateRun(qrels: Qrels, run: Run, k = 10): RunMetrics {
  const perQuestion = new Map<string, QuestionMetrics>();
  let recall = 0;
  let ap = 0;
  for (const [qid, scores] of run) {
    const relevant = qrels.get(qid);
    if (!relevant || scores.size === 0) continue;
    const m = questionMetrics(relevant, scores, k);
    perQuestion.set(qid, m);
    recall += m.recall;
    ap += m.averagePrecision;
  }
  const n = perQuestion.size;
  return { questions: n, recallAtK: n === 0 ? 0 : recall / n, mapAtK: n === 0 ? 0 : ap / n, perQuestion };
}

/** A ranked list of ids → run scores that keep its order under trec_eval's sort (no ties). */
export function rankedToScores(ids: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  ids.forEach((id, i) => {
    if (!out.has(id)) out.set(id, ids.length - i);
  });
  return out;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)] ?? 0;
}
