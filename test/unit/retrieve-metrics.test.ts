import { describe, expect, it } from "vitest";
import { evaluateRun, questionMetrics, rankedToScores, trecOrder, type Qrels, type Run } from "../../bench/lib/metrics.ts";

const rel = (...ids: string[]): Map<string, number> => new Map(ids.map((id) => [id, 1]));

describe("trec_eval recall_10 and map_cut_10", () => {
  it("computes recall and AP by hand for one question", () => {
    // Relevant a, b, c; ranked a x b y … : hits at ranks 1 and 3.
    const m = questionMetrics(rel("a", "b", "c"), rankedToScores(["a", "x", "b", "y"]), 10);
    expect(m.recall).toBeCloseTo(2 / 3, 10);
    // (1/1 + 2/3) / 3 relevant
    expect(m.averagePrecision).toBeCloseTo((1 + 2 / 3) / 3, 10);
  });

  it("ignores hits below the cut-off", () => {
    const ids = ["x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "a"];
    const m = questionMetrics(rel("a"), rankedToScores(ids), 10);
    expect(m).toEqual({ recall: 0, averagePrecision: 0 });
    const at11 = questionMetrics(rel("a"), rankedToScores(ids), 11);
    expect(at11.averagePrecision).toBeCloseTo(1 / 11, 10);
  });

  it("divides AP by all relevant documents, not by min(k, R)", () => {
    const relevant = rel(...Array.from({ length: 12 }, (_, i) => `r${i}`));
    const ranked = Array.from({ length: 10 }, (_, i) => `r${i}`);
    const m = questionMetrics(relevant, rankedToScores(ranked), 10);
    expect(m.recall).toBeCloseTo(10 / 12, 10);
    expect(m.averagePrecision).toBeCloseTo(10 / 12, 10);
  });

  it("orders by score, ties by document id descending, as trec_eval does", () => {
    expect(
      trecOrder(
        new Map([
          ["a", 1],
          ["c", 1],
          ["b", 2],
        ]),
      ),
    ).toEqual(["b", "c", "a"]);
    const m = questionMetrics(
      rel("a"),
      new Map([
        ["a", 1],
        ["c", 1],
      ]),
      1,
    );
    expect(m.recall).toBe(0);
  });

  it("does not count relevance 0 as relevant", () => {
    const relevant = new Map([
      ["a", 1],
      ["b", 0],
    ]);
    const m = questionMetrics(relevant, rankedToScores(["b", "a"]), 10);
    expect(m.recall).toBe(1);
    expect(m.averagePrecision).toBeCloseTo(1 / 2, 10);
  });

  it("averages over questions with a non-empty run, like pytrec_eval", () => {
    const qrels: Qrels = new Map([
      ["q1", rel("a")],
      ["q2", rel("b", "c")],
      ["q3", rel("d")],
    ]);
    const run: Run = new Map([
      ["q1", rankedToScores(["a"])],
      ["q2", rankedToScores(["x", "c"])],
      ["q3", new Map()],
      ["q4", rankedToScores(["a"])],
    ]);
    const m = evaluateRun(qrels, run, 10);
    expect(m.questions).toBe(2);
    expect(m.recallAtK).toBeCloseTo((1 + 0.5) / 2, 10);
    expect(m.mapAtK).toBeCloseTo((1 + 0.5 / 2) / 2, 10);
  });

  it("keeps the first occurrence of a repeated id", () => {
    expect([...rankedToScores(["a", "b", "a"]).keys()]).toEqual(["a", "b"]);
    expect(trecOrder(rankedToScores(["a", "b", "a"]))).toEqual(["a", "b"]);
  });
});
