// Fits the crosswalk's logistic model (core/compare/crosswalk-model.ts) on labelled rows: an A
// section, the candidates the crosswalk examined for it (their raw features) and which of them
// are the labelled match. Two steps, so that ranking and calibration do not fight:
//   1. weights by a listwise softmax loss over each row's candidates ("which candidate is the
//      match"), features standardized for the optimizer and L2-regularized — with ~25 labelled
//      rows, ten weights over-fit easily, so the penalty is strong;
//   2. the bias alone by a binary logistic loss over every candidate, weights fixed, so the score
//      reads as a probability that the pair is a match (the "unmatched" threshold uses it).
import { FEATURE_NAMES, type FeatureName, type FeatureVector } from "../../core/compare/crosswalk-features.ts";
import type { CrosswalkModel } from "../../core/compare/crosswalk-model.ts";

export interface LabelledCandidate {
  features: FeatureVector;
  gold: boolean;
}

export interface LabelledRow {
  id: string;
  candidates: LabelledCandidate[];
}

export interface FitOptions {
  l2?: number;
  iterations?: number;
  learningRate?: number;
  /** Features left at weight 0. */
  exclude?: readonly FeatureName[];
  /**
   * Features whose weight is set, not fitted (used as is in the loss): a signal the labelled rows
   * cannot teach, such as an explicit citation, which no topical pair has.
   */
  fixed?: Partial<Record<FeatureName, number>>;
}

export interface FitResult {
  model: CrosswalkModel;
  /** Mean log-likelihood of the gold candidate per row after fitting (higher is better). */
  logLikelihood: number;
}

function stats(rows: readonly LabelledRow[]): { mean: number[]; sd: number[] } {
  const all = rows.flatMap((r) => r.candidates);
  const mean = FEATURE_NAMES.map((f) => all.reduce((s, c) => s + c.features[f], 0) / Math.max(1, all.length));
  const sd = FEATURE_NAMES.map((f, j) => {
    const v = all.reduce((s, c) => s + (c.features[f] - (mean[j] ?? 0)) ** 2, 0) / Math.max(1, all.length);
    return Math.sqrt(v) || 1;
  });
  return { mean, sd };
}

export function fitCrosswalkModel(rows: readonly LabelledRow[], options: FitOptions = {}): FitResult {
  const l2 = options.l2 ?? 0.05;
  const iterations = options.iterations ?? 4000;
  const rate = options.learningRate ?? 0.1;
  const fixed = options.fixed ?? {};
  const excluded = new Set<FeatureName>([...(options.exclude ?? []), ...(Object.keys(fixed) as FeatureName[])]);
  const fixedScore = (f: FeatureVector): number =>
    (Object.entries(fixed) as Array<[FeatureName, number]>).reduce((t, [name, weight]) => t + weight * f[name], 0);
  const usable = rows.filter((r) => r.candidates.some((c) => c.gold) && r.candidates.length > 1);
  const { mean, sd } = stats(usable);
  const z = usable.map((r) => ({
    x: r.candidates.map((c) => FEATURE_NAMES.map((f, j) => (excluded.has(f) ? 0 : (c.features[f] - (mean[j] ?? 0)) / (sd[j] ?? 1)))),
    gold: r.candidates.map((c) => c.gold),
    fixed: r.candidates.map((c) => fixedScore(c.features)),
  }));
  const d = FEATURE_NAMES.length;
  const w = new Array<number>(d).fill(0);
  let logLikelihood = 0;
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d).fill(0);
    logLikelihood = 0;
    for (const row of z) {
      const s = row.x.map((x, i) => x.reduce((t, v, j) => t + v * (w[j] ?? 0), row.fixed[i] ?? 0));
      const max = Math.max(...s);
      const e = s.map((v) => Math.exp(v - max));
      const total = e.reduce((t, v) => t + v, 0);
      const p = e.map((v) => v / total);
      const pGold = p.reduce((t, v, i) => t + (row.gold[i] ? v : 0), 0);
      logLikelihood += Math.log(Math.max(pGold, 1e-12));
      for (let j = 0; j < d; j++) {
        let expectedGold = 0;
        let expected = 0;
        row.x.forEach((x, i) => {
          const v = x[j] ?? 0;
          expected += (p[i] ?? 0) * v;
          if (row.gold[i]) expectedGold += (p[i] ?? 0) * v;
        });
        grad[j] = (grad[j] ?? 0) + expectedGold / Math.max(pGold, 1e-12) - expected;
      }
    }
    for (let j = 0; j < d; j++) {
      if (excluded.has(FEATURE_NAMES[j] as FeatureName)) continue;
      w[j] = (w[j] ?? 0) + rate * ((grad[j] ?? 0) / Math.max(1, z.length) - l2 * (w[j] ?? 0));
    }
  }
  logLikelihood /= Math.max(1, z.length);
  // Back to raw features: w·(x − μ)/σ = Σ (w/σ)·x − Σ w·μ/σ.
  const weights = {} as FeatureVector;
  let offset = 0;
  FEATURE_NAMES.forEach((f, j) => {
    const raw = fixed[f] ?? (w[j] ?? 0) / (sd[j] ?? 1);
    weights[f] = raw;
    if (fixed[f] === undefined) offset -= raw * (mean[j] ?? 0);
  });
  // Calibration: the bias by binary logistic regression over every candidate, weights fixed.
  const logits = usable.flatMap((r) =>
    r.candidates.map((c) => ({ s: FEATURE_NAMES.reduce((t, f) => t + weights[f] * c.features[f], offset), y: c.gold ? 1 : 0 })),
  );
  let bias = offset;
  for (let it = 0; it < 2000; it++) {
    let g = 0;
    for (const { s, y } of logits) g += y - 1 / (1 + Math.exp(-(s - offset + bias)));
    bias += (0.5 * g) / Math.max(1, logits.length);
  }
  return { model: { bias, weights }, logLikelihood };
}
