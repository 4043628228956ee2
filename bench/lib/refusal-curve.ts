// The refusal decision's figures (core/answer/compose/in-library.ts): a class-balanced logistic fit of its
// features on in-library against out-of-library questions, the threshold that refuses at most a
// given share of each in-library set, and the curve of refusals per threshold that bench:answer
// and bench:fit-refusal print. Pure: the benches supply the questions' decisions.
import { inLibraryProbability } from "../../core/answer/compose/in-library.ts";
import { IN_LIBRARY_FEATURES, type InLibraryFeature } from "../../core/model/answer-rules.ts";
import type { AskResult } from "../../core/model/answer-types.ts";

/** One asked question as the decision saw it. */
export interface DecisionPoint {
  /** The set it belongs to ("labelled", "auditor read", …); in-library sets are each held to the refusal budget. */
  set: string;
  inLibrary: boolean;
  /** Null when a rule before the fitted one decided (a missing instrument or name: refused at every threshold) or the graph answered. */
  features: Record<InLibraryFeature, number> | null;
  /** Refused by a rule the threshold does not move (names, nothing retrieved); false for graph answers. */
  refusedByRule: boolean;
}

export interface LogisticModel {
  weights: Record<InLibraryFeature, number>;
  bias: number;
}

/**
 * The decision's fields of an answer, as a point of `set`. A refusal counts as the rules' (fixed at
 * every threshold) unless the fitted decision under `model` and `threshold` is what refused it.
 */
export function decisionPoint(set: string, inLibrary: boolean, result: AskResult, model: LogisticModel, threshold: number): DecisionPoint {
  const features = result.inLibrary?.features ?? null;
  const byThreshold = features !== null && probability(model, features) < threshold;
  return { set, inLibrary, features, refusedByRule: result.citations.length === 0 && !byThreshold };
}

/** The engine's own computation (in-library.ts), under `model`. */
export function probability(model: LogisticModel, features: Readonly<Record<InLibraryFeature, number>>): number {
  return inLibraryProbability(features, model);
}

/**
 * Class-balanced logistic regression by Newton's method (a handful of parameters, so exact and
 * deterministic), with a small ridge so separable data stays finite.
 */
export function fitLogistic(points: readonly DecisionPoint[], ridge = 1e-3, iterations = 50): LogisticModel {
  const rows = points.filter((p): p is DecisionPoint & { features: Record<InLibraryFeature, number> } => p.features !== null);
  const positives = rows.filter((r) => r.inLibrary).length;
  const negatives = rows.length - positives;
  if (positives === 0 || negatives === 0) throw new Error("the refusal fit needs in-library and out-of-library questions");
  const d = IN_LIBRARY_FEATURES.length + 1;
  const x = rows.map((r) => [...IN_LIBRARY_FEATURES.map((f) => r.features[f]), 1]);
  const y = rows.map((r) => (r.inLibrary ? 1 : 0));
  const w = rows.map((r) => (r.inLibrary ? 0.5 / positives : 0.5 / negatives));
  let beta = new Array<number>(d).fill(0);
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    x.forEach((xi, i) => {
      const p = 1 / (1 + Math.exp(-xi.reduce((s, v, j) => s + v * (beta[j] ?? 0), 0)));
      const wi = w[i] ?? 0;
      for (let j = 0; j < d; j++) {
        grad[j] = (grad[j] ?? 0) + wi * (p - (y[i] ?? 0)) * (xi[j] ?? 0);
        for (let k = 0; k < d; k++) (hess[j] as number[])[k] = ((hess[j] as number[])[k] ?? 0) + wi * p * (1 - p) * (xi[j] ?? 0) * (xi[k] ?? 0);
      }
    });
    for (let j = 0; j < d - 1; j++) {
      grad[j] = (grad[j] ?? 0) + ridge * (beta[j] ?? 0);
      (hess[j] as number[])[j] = ((hess[j] as number[])[j] ?? 0) + ridge;
    }
    const step = solve(hess, grad);
    beta = beta.map((b, j) => b - (step[j] ?? 0));
    if (step.every((s) => Math.abs(s) < 1e-10)) break;
  }
  const weights = Object.fromEntries(IN_LIBRARY_FEATURES.map((f, j) => [f, beta[j] ?? 0])) as Record<InLibraryFeature, number>;
  return { weights, bias: beta[d - 1] ?? 0 };
}

/** Gaussian elimination with partial pivoting: a d×d system, d tiny. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]?.[c] ?? 0) > Math.abs(m[pivot]?.[c] ?? 0)) pivot = r;
    [m[c], m[pivot]] = [m[pivot] as number[], m[c] as number[]];
    const row = m[c] as number[];
    const lead = row[c] ?? 0;
    if (Math.abs(lead) < 1e-15) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const other = m[r] as number[];
      const f = (other[c] ?? 0) / lead;
      for (let k = c; k <= n; k++) other[k] = (other[k] ?? 0) - f * (row[k] ?? 0);
    }
  }
  return m.map((row, i) => (row[n] ?? 0) / (row[i] ?? 1));
}

/** Whether the question is refused when the fitted decision refuses below `threshold`. */
export function refusedAt(point: DecisionPoint, model: LogisticModel, threshold: number): boolean {
  return point.refusedByRule || (point.features !== null && probability(model, point.features) < threshold);
}

/**
 * The largest threshold that refuses at most `budget` of every in-library set: each set allows
 * floor(budget × size) refusals, and the threshold stops at the next in-library probability.
 */
export function refusalThreshold(points: readonly DecisionPoint[], model: LogisticModel, budget: number): number {
  const sets = [...new Set(points.filter((p) => p.inLibrary).map((p) => p.set))];
  let threshold = 1;
  for (const set of sets) {
    const members = points.filter((p) => p.inLibrary && p.set === set);
    // A question refused by its names (before the fitted rule) is no threshold's doing: it does not
    // spend the budget, which is the fitted decision's own.
    const allowed = Math.floor(budget * members.length);
    const probs = members.flatMap((p) => (p.features === null || p.refusedByRule ? [] : [probability(model, p.features)])).sort((a, b) => a - b);
    const stop = probs[allowed] ?? 1;
    threshold = Math.min(threshold, stop);
  }
  return threshold;
}

export interface CurveRow {
  threshold: number;
  /** Per set: share refused (in-library sets) or share refused (out-of-library sets), with counts. */
  sets: Array<{ set: string; inLibrary: boolean; refused: number; of: number }>;
}

export function refusalCurve(points: readonly DecisionPoint[], model: LogisticModel, thresholds: readonly number[]): CurveRow[] {
  const keys = [...new Map(points.map((p) => [`${p.set}|${p.inLibrary}`, { set: p.set, inLibrary: p.inLibrary }])).values()];
  return thresholds.map((threshold) => ({
    threshold,
    sets: keys.map(({ set, inLibrary }) => {
      const members = points.filter((p) => p.set === set && p.inLibrary === inLibrary);
      return { set, inLibrary, refused: members.filter((p) => refusedAt(p, model, threshold)).length, of: members.length };
    }),
  }));
}

export const CURVE_THRESHOLDS = [0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5] as const;

/** The curve as lines: one row per threshold, one column per set ("in"/"out" of the library). */
export function curveLines(rows: readonly CurveRow[], current: number): string[] {
  const first = rows[0];
  if (first === undefined) return [];
  const head = `  refuse below  ${first.sets.map((s) => `${s.set} ${s.inLibrary ? "in" : "out"}`.padStart(22)).join("")}`;
  const lines = [head];
  for (const row of rows) {
    const mark = Math.abs(row.threshold - current) < 1e-9 ? " ← now" : "";
    lines.push(
      `  ${row.threshold.toFixed(3).padStart(12)}  ${row.sets.map((s) => `${((100 * s.refused) / Math.max(1, s.of)).toFixed(1)} % (${s.refused}/${s.of})`.padStart(22)).join("")}${mark}`,
    );
  }
  return lines;
}
