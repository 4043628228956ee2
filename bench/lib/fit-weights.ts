// Fits the linear fusion weights on a dev split by coordinate ascent: features are computed once
// per question (they do not depend on the weights), then each weight is moved along a grid while
// the others stay fixed, keeping a move when it raises Recall@10 + MAP@10. Hard to over-fit with
// ~20 weights and ~2,800 questions (fitted on half of dev, the other half moves by the same
// amount within ±0.003). Features are packed into one typed matrix per question so an
// evaluation of all of dev takes milliseconds, not the seconds of record lookups.
import { evaluateRun, rankedToScores, type Qrels, type Run } from "./metrics.ts";

export interface FeatureRow {
  id: string;
  features: Readonly<Record<string, number>>;
}

export interface FitQuestion {
  qid: string;
  candidates: readonly FeatureRow[];
}

interface Packed {
  qid: string;
  ids: string[];
  /** Row-major [candidate][feature]. */
  matrix: Float64Array;
}

function pack(questions: readonly FitQuestion[], names: readonly string[]): Packed[] {
  return questions.map((q) => {
    const matrix = new Float64Array(q.candidates.length * names.length);
    q.candidates.forEach((c, i) => names.forEach((n, j) => (matrix[i * names.length + j] = c.features[n] ?? 0)));
    return { qid: q.qid, ids: q.candidates.map((c) => c.id), matrix };
  });
}

function objective(packed: readonly Packed[], qrels: Qrels, weights: Readonly<Record<string, number>>, names: readonly string[]): number {
  const w = Float64Array.from(names.map((n) => weights[n] ?? 0));
  const f = names.length;
  const run: Run = new Map();
  for (const q of packed) {
    const scored = q.ids.map((id, i) => {
      let s = 0;
      for (let j = 0; j < f; j++) s += (w[j] ?? 0) * (q.matrix[i * f + j] ?? 0);
      return { id, s };
    });
    scored.sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1));
    run.set(q.qid, rankedToScores(scored.slice(0, 10).map((x) => x.id)));
  }
  const m = evaluateRun(qrels, run, 10);
  return m.recallAtK + m.mapAtK;
}

export function fitWeights(
  questions: readonly FitQuestion[],
  qrels: Qrels,
  start: Readonly<Record<string, number>>,
  names: readonly string[],
  rounds = 3,
  log: (line: string) => void = () => {},
): { weights: Record<string, number>; objective: number } {
  const packed = pack(questions, names);
  const weights: Record<string, number> = { ...start };
  let best = objective(packed, qrels, weights, names);
  log(`start objective ${best.toFixed(4)}`);
  const steps = [-1, -0.5, -0.25, -0.1, 0.1, 0.25, 0.5, 1];
  for (let round = 0; round < rounds; round++) {
    let improved = false;
    for (const name of names) {
      if (name === "bm25") continue; // the scale anchor: everything else is relative to it
      const base = weights[name] ?? 0;
      let bestValue = base;
      for (const step of steps) {
        const value = Math.round((base + step * (round === 0 ? 1 : 0.5)) * 1000) / 1000;
        weights[name] = value;
        const score = objective(packed, qrels, weights, names);
        if (score > best + 1e-6) {
          best = score;
          bestValue = value;
          improved = true;
        }
      }
      weights[name] = bestValue;
      log(`round ${round} ${name}=${bestValue} objective ${best.toFixed(4)}`);
    }
    if (!improved) break;
  }
  return { weights, objective: best };
}
