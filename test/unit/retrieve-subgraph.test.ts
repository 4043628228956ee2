import { describe, expect, it } from "vitest";
import { hybridSearch } from "../../core/retrieve/hybrid-search.ts";
import { buildSubgraph, MAX_SUBGRAPH_NODES } from "../../core/retrieve/subgraph.ts";
import type { TermRecord } from "../../core/model/graph-records.ts";
import { DOC, fakeStore, reference, section, triplet } from "./retrieve-fake-store.ts";

const stages = { bm25: true, sectionVectors: false, tripletVectors: false, graphExpansion: false, rescore: false };

describe("buildSubgraph", () => {
  it("links results through citations, triplets and terms", async () => {
    const term: TermRecord = {
      id: "term1",
      documentId: DOC.id,
      term: "Regulator",
      normalizedTerm: "regulator",
      definition: "the FSRA",
      sectionId: "a",
      start: 0,
      end: 9,
      mentionedIn: ["b"],
    };
    const store = fakeStore({
      sections: [section("a", "x"), section("b", "y")],
      bm25: ["a", "b"],
      triplets: [triplet("t1", "a", "Firm", "Regulator")],
      references: [reference("r1", "b", "a"), reference("r2", "a", "zzz")],
      terms: [term],
    });
    const results = await hybridSearch(store, null, "regulator", { k: 10, stages });
    const graph = await buildSubgraph(store, results, { query: "who is the regulator" });
    const ids = graph.nodes.map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining(["section:a", "section:b", "term:term1", "entity:firm", "entity:regulator", "section:zzz"]));
    const kinds = graph.edges.map((e) => `${e.kind}:${e.source}->${e.target}`);
    expect(kinds).toContain("cites:section:b->section:a");
    expect(kinds).toContain("triplet:entity:firm->entity:regulator");
    expect(kinds).toContain("defines:section:a->term:term1");
    expect(kinds).toContain("mentions:section:b->term:term1");
    for (const e of graph.edges) {
      expect(ids).toContain(e.source);
      expect(ids).toContain(e.target);
    }
  });

  it("never exceeds 60 nodes", async () => {
    const sections = Array.from({ length: 40 }, (_, i) => section(`s${i}`, "text"));
    const triplets = sections.flatMap((s, i) => [triplet(`t${i}a`, s.id, `Subject ${i}`, `Object ${i}`), triplet(`t${i}b`, s.id, `Actor ${i}`, `Thing ${i}`)]);
    const store = fakeStore({ sections, bm25: sections.map((s) => s.id), triplets });
    const results = await hybridSearch(store, null, "text", { k: 40, stages });
    const graph = await buildSubgraph(store, results, { topSections: 40, maxNodes: 500 });
    expect(graph.nodes.length).toBeLessThanOrEqual(MAX_SUBGRAPH_NODES);
    expect(graph.nodes.length).toBe(MAX_SUBGRAPH_NODES);
    const small = await buildSubgraph(store, results, { maxNodes: 5 });
    expect(small.nodes.length).toBeLessThanOrEqual(5);
  });
});
