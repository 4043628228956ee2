import { describe, expect, it } from "vitest";
import type { Embedder } from "../../core/model/embedder.ts";
import { analyzeQuery } from "../../core/retrieve/query-terms.ts";
import { feedbackModel, feedbackScore, neighbourFeatures, poolStats, StemCache } from "../../core/retrieve/rescore.ts";
import { poolCosines, SectionVectorCache } from "../../core/retrieve/section-cosine.ts";
import { section } from "./retrieve-fake-store.ts";

describe("pseudo-relevance feedback", () => {
  const pool = [
    { id: "a", text: "The firm must report a breach to the regulator within 72 hours of discovery.", context: "" },
    { id: "b", text: "A breach report names the discovery date and the hours elapsed.", context: "" },
    { id: "c", text: "Annual fees are payable to the regulator.", context: "" },
    { id: "d", text: "Fees and charges schedule.", context: "" },
  ];
  const stems = analyzeQuery("breach").stems;
  const stats = poolStats(stems, pool, new StemCache());

  it("learns the words the best candidates share, not the question's own", () => {
    const model = feedbackModel(
      [
        { id: "a", score: 2 },
        { id: "b", score: 1.5 },
        { id: "c", score: 0.1 },
      ],
      stems,
      stats,
      { docs: 2, terms: 5 },
    );
    expect(model.has(stems[0] ?? "")).toBe(false);
    expect([...model.keys()]).toContain("discoveri");
    expect([...model.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    // Words of one feedback section only are not the topic.
    expect([...model.keys()]).not.toContain("firm");
    expect(feedbackScore(model, "b", stats)).toBeGreaterThan(feedbackScore(model, "d", stats));
    expect(feedbackScore(model, "d", stats)).toBe(0);
  });

  it("is empty without positive feedback", () => {
    expect(feedbackModel([{ id: "a", score: 0 }], stems, stats).size).toBe(0);
    expect(feedbackScore(new Map(), "a", stats)).toBe(0);
  });
});

describe("neighbour features", () => {
  const sections = [
    { id: "p", parentId: null },
    { id: "a", parentId: "p" },
    { id: "b", parentId: "p" },
    { id: "c", parentId: "p" },
    { id: "x", parentId: null },
  ];

  it("reads parent, best other sibling and best child from the first pass", () => {
    const f = neighbourFeatures(
      sections,
      new Map([
        ["p", 1],
        ["a", 4],
        ["b", 2],
        ["x", 0],
      ]),
    );
    expect(f.get("a")).toEqual({ parentScore: 0.25, siblingScore: 0.5, childScore: 0 });
    expect(f.get("b")?.siblingScore).toBe(1);
    expect(f.get("c")?.siblingScore).toBe(1);
    expect(f.get("p")?.childScore).toBe(1);
    expect(f.get("x")).toEqual({ parentScore: 0, siblingScore: 0, childScore: 0 });
  });
});

describe("stem cache", () => {
  it("serves the same stems until the text changes", () => {
    const cache = new StemCache();
    const first = cache.index("s1", "Notified parties");
    expect(cache.index("s1", "Notified parties")).toBe(first);
    expect(cache.stems("s1", "Notified parties")).toEqual(["notifi", "parti"]);
    expect(cache.stems("s1", "Other words")).not.toEqual(cache.stems("s1", "Notified parties"));
  });
});

describe("pool cosines", () => {
  it("spreads cosines over the pool and gives 0 without a vector", () => {
    const q = Float32Array.from([1, 0]);
    const vectors = new Map([
      ["a", Float32Array.from([1, 0])],
      ["b", Float32Array.from([0.6, 0.8])],
      ["c", Float32Array.from([0.8, 0.6])],
    ]);
    const out = poolCosines(q, vectors, ["a", "b", "c", "d"]);
    expect(out.get("a")).toBe(1);
    expect(out.get("b")).toBe(0);
    expect(out.get("c")).toBeCloseTo(0.5, 5);
    expect(out.get("d")).toBe(0);
  });

  it("embeds each section once per model and text", async () => {
    let embedded = 0;
    const embedder: Embedder = {
      id: "m",
      dimensions: 2,
      embedQueries: async (texts) => texts.map(() => Float32Array.from([1, 0])),
      embedDocuments: async (texts) => {
        embedded += texts.length;
        return texts.map(() => Float32Array.from([0, 1]));
      },
      close: async () => {},
    };
    const cache = new SectionVectorCache();
    const sections = [section("a", "alpha"), section("b", "beta"), section("e", "")];
    expect((await cache.vectors(embedder, sections)).size).toBe(2);
    await cache.vectors(embedder, sections);
    expect(embedded).toBe(2);
    await cache.vectors(embedder, [section("a", "alpha changed")]);
    expect(embedded).toBe(3);
  });
});
