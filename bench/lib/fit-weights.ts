// Fits the linear fusion weights by coordinate ascent: features are computed once per question
// (they do not depend on the weights), then each weight is moved along a grid while the others
// stay fixed, keeping a move when it raises the objective. Features are packed into one typed
// matrix per question so an evaluation of all of ObliQA dev takes milliseconds, not the seconds
// of record lookups.
//
// Several sets are fitted together, each measured its own way: ObliQA dev by Recall@10 + MAP@10
// over its gold passages, question sets with one answering provision (the labelled questions,
// the auditor dev set's read part) by hit@10 + reciprocal rank of the first answering section. A
// set may be a floor instead of a goal: no move is kept that lowers it below where it started,
// so a gain on plain-language questions is never bought with ObliQA's figures.
import { evaluateRun, rankedToScores, type Qrels, type Run } from "./metrics.ts";

export interface FeatureRow {
  id: string;
  features: Readonly<Record<string, number>>;
}

export interface FitQuestion {
  qid: string;
  candidates: readonly FeatureRow[];
}

export interface FitSet {
  name: string;
  questions: readonly FitQuestion[];
  /** Per question, its relevant candidate ids. */
  qrels: Qrels;
  measure: "recall-map" | "hit-rank";
  /** Its share of the objective (0: a floor only). */
  weight: number;
  /** Never lowered below its starting value by more than FLOOR_SLACK. */
  floor: boolean;
}

/** What a floor set may lose to a move (noise in its third decimal). */
const FLOOR_SLACK = 0.001;

interface Packed {
  qid: string;
  ids: string[];
  /** Row-major [candidate][feature]. */
  matrix: Float64Array;
}

interface PackedSet {
  set: FitSet;
  packed: Packed[];
}

function pack(questions: readonly FitQuestion[], names: readonly string[]): Packed[] {
  return questions.map((q) => {
    const matrix = new Float64Array(q.candidates.length * names.length);
    q.candidates.forEach((c, i) => names.forEach((n, j) => (matrix[i * names.length + j] = c.features[n] ?? 0)));
    return { qid: q.qid, ids: q.candidates.map((c) => c.id), matrix };
  });
}

function topIds(q: Packed, w: Float64Array, f: number, n: number): string[] {
  const scored = q.ids.map((id, i) => {
    let s = 0;
    for (let j = 0; j < f; j++) s += (w[j] ?? 0) * (q.matrix[i * f + j] ?? 0);
    return { id, s };
  });
  scored.sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1));
  return scored.slice(0, n).map((x) => x.id);
}

/** A set's figures under the weights: [Recall@10, MAP@10] or [hit@10, mean reciprocal rank]. */
/** A set's packed matrices, made once per set and feature list (a report measures a set several times). */
const packedCache = new WeakMap<FitSet, { names: string; packed: Packed[] }>();

function packedSet(set: FitSet, names: readonly string[]): PackedSet {
  const key = names.join(",");
  let hit = packedCache.get(set);
  if (hit === undefined || hit.names !== key) {
    hit = { names: key, packed: pack(set.questions, names) };
    packedCache.set(set, hit);
  }
  return { set, packed: hit.packed };
}

export function measureSet(set: FitSet, weights: Readonly<Record<string, number>>, names: readonly string[]): [number, number] {
  return measurePacked(packedSet(set, names), Float64Array.from(names.map((n) => weights[n] ?? 0)), names.length);
}

function measurePacked({ set, packed }: PackedSet, w: Float64Array, f: number): [number, number] {
  if (set.measure === "recall-map") {
    const run: Run = new Map();
    for (const q of packed) run.set(q.qid, rankedToScores(topIds(q, w, f, 10)));
    const m = evaluateRun(set.qrels, run, 10);
    return [m.recallAtK, m.mapAtK];
  }
  let hits = 0;
  let reciprocal = 0;
  for (const q of packed) {
    const relevant = set.qrels.get(q.qid);
    const ranked = topIds(q, w, f, q.ids.length);
    const first = ranked.findIndex((id) => relevant?.has(id) === true);
    if (first >= 0 && first < 10) hits++;
    if (first >= 0) reciprocal += 1 / (first + 1);
  }
  const n = Math.max(1, packed.length);
  return [hits / n, reciprocal / n];
}

export function fitWeights(
  sets: readonly FitSet[],
  start: Readonly<Record<string, number>>,
  names: readonly string[],
  rounds = 3,
  log: (line: string) => void = () => {},
): { weights: Record<string, number>; objective: number } {
  const packedSets: PackedSet[] = sets.map((set) => packedSet(set, names));
  const value = (weights: Readonly<Record<string, number>>): number[] => {
    const w = Float64Array.from(names.map((n) => weights[n] ?? 0));
    return packedSets.map((p) => {
      const [a, b] = measurePacked(p, w, names.length);
      return a + b;
    });
  };
  const startValues = value(start);
  const totalWeight = sets.reduce((sum, s) => sum + s.weight, 0) || 1;
  const objective = (values: readonly number[]): number => {
    if (sets.some((s, i) => s.floor && (values[i] ?? 0) < (startValues[i] ?? 0) - FLOOR_SLACK)) return Number.NEGATIVE_INFINITY;
    return sets.reduce((sum, s, i) => sum + s.weight * (values[i] ?? 0), 0) / totalWeight;
  };
  const weights: Record<string, number> = { ...start };
  let best = objective(startValues);
  log(`start objective ${best.toFixed(4)}`);
  const steps = [-1, -0.5, -0.25, -0.1, 0.1, 0.25, 0.5, 1];
  for (let round = 0; round < rounds; round++) {
    let improved = false;
    for (const name of names) {
      if (name === "bm25") continue; // the scale anchor: everything else is relative to it
      const base = weights[name] ?? 0;
      let bestValue = base;
      for (const step of steps) {
        const candidate = Math.round((base + step * (round === 0 ? 1 : 0.5)) * 1000) / 1000;
        weights[name] = candidate;
        const score = objective(value(weights));
        if (score > best + 1e-6) {
          best = score;
          bestValue = candidate;
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
