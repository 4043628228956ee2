import { describe, expect, it } from "vitest";
import { linearScore, rankFeature, weightedRrf } from "../../core/retrieve/fusion.ts";
import { activeWeights, DEFAULT_WEIGHTS, RESCORE_FEATURES } from "../../core/retrieve/weights.ts";

describe("fusion", () => {
  it("weighted RRF sums weight / (k + rank)", () => {
    const fused = weightedRrf(
      [
        { ids: ["a", "b"], weight: 2 },
        { ids: ["b", "c"], weight: 1 },
      ],
      60,
    );
    const score = Object.fromEntries(fused.map((f) => [f.id, f.score]));
    expect(score.a).toBeCloseTo(2 / 61, 12);
    expect(score.b).toBeCloseTo(2 / 62 + 1 / 61, 12);
    expect(score.c).toBeCloseTo(1 / 62, 12);
    expect(fused.map((f) => f.id)).toEqual(["b", "a", "c"]);
  });

  it("skips zero-weight lists and breaks ties by id", () => {
    const fused = weightedRrf([
      { ids: ["z", "y"], weight: 0 },
      { ids: ["b"], weight: 1 },
      { ids: ["a"], weight: 1 },
    ]);
    expect(fused.map((f) => f.id)).toEqual(["a", "b"]);
  });

  it("rank features fall from 1 and are 0 when absent", () => {
    expect(rankFeature(1)).toBe(1);
    expect(rankFeature(11)).toBeCloseTo(0.5, 12);
    expect(rankFeature(undefined)).toBe(0);
  });

  it("linear score uses only weighted features", () => {
    expect(linearScore({ bm25: 0.5, vector: 0.8, other: 100 }, { bm25: 2, vector: -1, missing: 3 })).toBeCloseTo(0.2, 12);
  });

  it("re-scoring weights drop out when the stage is off", () => {
    const off = activeWeights(DEFAULT_WEIGHTS, false);
    const on = activeWeights(DEFAULT_WEIGHTS, true);
    for (const name of RESCORE_FEATURES) {
      expect(off[name]).toBeUndefined();
      expect(on[name]).toBe(DEFAULT_WEIGHTS[name]);
    }
    expect(off.bm25).toBe(DEFAULT_WEIGHTS.bm25);
  });
});
