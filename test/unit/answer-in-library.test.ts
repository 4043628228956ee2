import { describe, expect, it } from "vitest";
import { IN_LIBRARY_MODEL, REFUSE_BELOW, UNSURE_BELOW, decideInLibrary, inLibraryProbability } from "../../core/answer/compose/in-library.ts";
import type { SentencePool } from "../../core/answer/compose/sentence-pool.ts";
import { IN_LIBRARY_RULES } from "../../core/model/answer-rules.ts";

// The fitted decision on its own: monotone in each measurement, its thresholds ordered, and the
// named rule it leaves for each band. The rules on real sections: answer-question.test.ts.

/** A pool of `n` answering sentences of the given coverage, the rest not answering. */
function pool(coverages: Array<{ coverage: number; relevant: boolean }>, retrieved = 1): SentencePool {
  const candidates = coverages.map((c) => ({ features: { coverage: c.coverage }, relevant: c.relevant }));
  return { results: new Array(retrieved).fill({}), candidates } as unknown as SentencePool;
}

describe("the in-library decision", () => {
  it("grows with coverage and with the number of answering sentences", () => {
    expect(IN_LIBRARY_MODEL.weights.coverage).toBeGreaterThan(0);
    expect(IN_LIBRARY_MODEL.weights.answeringSentences).toBeGreaterThan(0);
    const p = (coverage: number, n: number): number => inLibraryProbability({ coverage, answeringSentences: Math.log1p(n) });
    expect(p(0.2, 0)).toBeLessThan(p(0.5, 0));
    expect(p(0.5, 0)).toBeLessThan(p(0.5, 10));
    expect(p(1, 50)).toBeGreaterThan(UNSURE_BELOW);
  });

  it("keeps its thresholds in order", () => {
    expect(0).toBeLessThan(REFUSE_BELOW);
    expect(REFUSE_BELOW).toBeLessThan(UNSURE_BELOW);
    expect(UNSURE_BELOW).toBeLessThan(1);
  });

  it("names the rule of each band, and the order of rules is the documented one", () => {
    expect(decideInLibrary(pool([], 0)).rule).toBe("nothing-retrieved");
    expect(decideInLibrary(pool([{ coverage: 0.05, relevant: false }])).rule).toBe("outside-the-library");
    const many = Array.from({ length: 30 }, () => ({ coverage: 0.9, relevant: true }));
    expect(decideInLibrary(pool(many)).rule).toBe("in-the-library");
    const unsure = decideInLibrary(pool([{ coverage: 0.05, relevant: false }]), { refuseBelow: 0, unsureBelow: 1 });
    expect(unsure.rule).toBe("closest-provisions");
    expect(unsure.features).toEqual({ coverage: 0.05, answeringSentences: 0 });
    expect(IN_LIBRARY_RULES.indexOf("outside-the-library")).toBeLessThan(IN_LIBRARY_RULES.indexOf("closest-provisions"));
  });
});
