import { FEATURE_NAMES, type FeatureName, type FeatureVector } from "./crosswalk-features.ts";

// How the signals of a candidate pair become its score: a logistic model, P(match) =
// σ(bias + Σ weight·feature), fitted by `npm run bench:compare -- --fit` on the "fit" half of the
// labelled topical crosswalk (test/corpus/compare-crosswalk.json) and reported on the other half
// and on the NIST SP 800-66 → HIPAA crosswalk, which the fit never sees (README, "Comparing
// regulations"). The weights are per raw feature, so a pair's score does not depend on which other
// sections were compared; ranking within a row uses the same score.

/** Changes whenever the features or the weights change: stored with every comparison. */
export const SCORER_VERSION = "crosswalk-1";

export interface CrosswalkModel {
  bias: number;
  weights: FeatureVector;
}

export const CROSSWALK_MODEL: CrosswalkModel = {
  bias: -6.62,
  weights: {
    similarity: 0.65,
    lexical: 6.83,
    heading: 2.58,
    headingSimilarity: -0.07,
    headingText: 10.12,
    // Shared defined terms are shown as a reason but not scored: fitted, their weight came out
    // negative (they follow the lexical overlap, and across regimes few terms are shared at all).
    terms: 0,
    parties: 0.27,
    // Not fitted: no labelled topical pair cites its match. An explicit citation multiplies the
    // odds of a match by e³ ≈ 20, about what a heading match adds.
    citation: 3,
    structure: 1.3,
    centrality: 8.89,
    reciprocal: 2.29,
  },
};

/**
 * Below this score a section's best match is too weak to call it matched ("only unmatched" in the
 * Compare view, `unmatched` in the CLI), and its flags are not worth reading. 0.1 is the 10th
 * percentile of the labelled matches' scores (bench:compare -- --fit): nine in ten clear it.
 */
export const MATCH_THRESHOLD = 0.1;

function logit(model: CrosswalkModel, features: FeatureVector): number {
  let z = model.bias;
  for (const name of FEATURE_NAMES) z += model.weights[name] * features[name];
  return z;
}

export function matchScore(features: FeatureVector, model: CrosswalkModel = CROSSWALK_MODEL): number {
  return 1 / (1 + Math.exp(-logit(model, features)));
}

/** Each feature's share of the logit: what made this pair score as it did. */
export function contributions(features: FeatureVector, model: CrosswalkModel = CROSSWALK_MODEL): Record<FeatureName, number> {
  const out = {} as Record<FeatureName, number>;
  for (const name of FEATURE_NAMES) out[name] = model.weights[name] * features[name];
  return out;
}
