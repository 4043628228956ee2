import { describe, expect, it } from "vitest";
import { hybridSearch } from "../../core/retrieve/hybrid-search.ts";
import type { StageSwitches } from "../../core/model/retrieval-types.ts";
import { fakeEmbedder, fakeStore, reference, section, triplet } from "./retrieve-fake-store.ts";

const OFF: StageSwitches = { bm25: false, sectionVectors: false, tripletVectors: false, graphExpansion: false, rescore: false };

function setup() {
  const sections = [
    section("p", "", { heading: "Breach notification", kind: "section" }),
    section("a", "The firm must notify the regulator of a breach within 72 hours.", { parentId: "p", level: 1 }),
    section("b", "Records are kept for six years.", { parentId: "p", level: 1 }),
    section("c", "The regulator publishes an annual report."),
    section("d", "Notification under Rule a is made in writing to the regulator."),
  ];
  return fakeStore({
    sections,
    bm25: ["c", "a"],
    vectors: ["b"],
    triplets: [triplet("t1", "d", "Firm", "regulator")],
    tripletHits: ["t1"],
    references: [reference("r1", "d", "a")],
  });
}

describe("hybridSearch", () => {
  it("runs only BM25 when the other stages are off", async () => {
    const store = setup();
    const embedder = fakeEmbedder();
    const results = await hybridSearch(store, embedder, "notify the regulator of a breach", { k: 10, stages: { ...OFF, bm25: true } });
    expect(results.map((r) => r.section.id)).toEqual(["c", "a"]);
    expect(results[0]?.evidence.stages.bm25?.rank).toBe(1);
    expect(store.calls.searchSectionsByVector).toBeUndefined();
    expect(store.calls.searchTripletIdsByVector).toBeUndefined();
    expect(store.calls.getChildSectionIds).toBeUndefined();
    expect(embedder.calls).toBe(0);
  });

  it("adds vector and triplet hits with their evidence", async () => {
    const store = setup();
    const results = await hybridSearch(store, fakeEmbedder(), "notify the regulator", {
      k: 10,
      stages: { ...OFF, bm25: true, sectionVectors: true, tripletVectors: true },
    });
    const byId = new Map(results.map((r) => [r.section.id, r]));
    expect(byId.get("b")?.evidence.stages.sectionVectors?.rank).toBe(1);
    expect(byId.get("d")?.evidence.tripletIds).toEqual(["t1"]);
    expect(byId.get("d")?.evidence.stages.tripletVectors).toBeDefined();
    expect(results.map((r) => r.rank)).toEqual(results.map((_, i) => i + 1));
  });

  it("skips vector stages without an embedder", async () => {
    const store = setup();
    const results = await hybridSearch(store, null, "notify", { k: 10, stages: { ...OFF, bm25: true, sectionVectors: true, tripletVectors: true } });
    expect(results.map((r) => r.section.id)).toEqual(["c", "a"]);
    expect(store.calls.searchSectionsByVector).toBeUndefined();
  });

  it("graph expansion adds parents, children and citing sections", async () => {
    const store = setup();
    const results = await hybridSearch(store, null, "notify", { k: 10, stages: { ...OFF, bm25: true, graphExpansion: true } });
    const byId = new Map(results.map((r) => [r.section.id, r]));
    expect(byId.get("p")?.evidence.links).toContainEqual({ from: "a", relation: "parent" });
    expect(byId.get("d")?.evidence.links).toContainEqual({ from: "a", relation: "cited-by" });
    expect(byId.has("b")).toBe(false); // b is a sibling, not a neighbour of a seed
  });

  it("re-scoring lifts the section that covers the question", async () => {
    const store = setup();
    const stages = { ...OFF, bm25: true, rescore: true };
    const results = await hybridSearch(store, null, "notify the regulator of a breach within 72 hours", {
      k: 10,
      stages,
      weights: { coverage: 2 },
    });
    expect(results[0]?.section.id).toBe("a");
    expect(results[0]?.evidence.features.coverage).toBeGreaterThan(results[1]?.evidence.features.coverage ?? 1);
  });

  it("returns at most k results and nothing when every stage is off", async () => {
    const store = setup();
    expect(await hybridSearch(store, null, "notify", { k: 1, stages: { ...OFF, bm25: true } })).toHaveLength(1);
    expect(await hybridSearch(store, null, "notify", { k: 10, stages: OFF })).toEqual([]);
  });

  it("graph expansion brings the section defining a term the question asks about", async () => {
    const sections = [
      section("def", "Business associate means a person who performs functions on behalf of a covered entity."),
      section("x", "A covered entity may disclose information to a business associate under a contract."),
      section("y", "Business associate contracts must be reviewed by the covered entity."),
    ];
    const term = {
      id: "t:ba",
      documentId: "doc",
      term: "Business associate",
      normalizedTerm: "business associate",
      definition: "a person who…",
      sectionId: "def",
      start: 0,
      end: 18,
      mentionedIn: ["x", "y"],
    };
    const store = fakeStore({ sections, bm25: ["x", "y"], terms: [term] });
    const stages = { ...OFF, bm25: true, graphExpansion: true, rescore: true };

    const asked = await hybridSearch(store, null, "What is a business associate?", { k: 3, stages });
    expect(asked[0]?.section.id).toBe("def");
    expect(asked[0]?.evidence.links).toContainEqual({ from: "t:ba", relation: "term" });
    expect(asked[0]?.evidence.stages.graphExpansion).toBeDefined();

    // Naming the term without asking what it means: the definition joins the pool, the rules lead.
    const named = await hybridSearch(store, null, "Which contracts with a business associate must be reviewed?", { k: 3, stages });
    expect(named[0]?.section.id).toBe("y");
    expect(named.map((r) => r.section.id)).toContain("def");

    // Without graph expansion the definition is not found at all.
    const off = await hybridSearch(store, null, "What is a business associate?", { k: 3, stages: { ...stages, graphExpansion: false } });
    expect(off.map((r) => r.section.id)).not.toContain("def");
  });
});
