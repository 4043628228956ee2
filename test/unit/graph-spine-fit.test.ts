import { describe, expect, it } from "vitest";
import type { SubgraphEdge, SubgraphNode } from "../../core/contract/contract.ts";
import { DOCUMENT_BOX_PX, MIN_SPINE_SECTIONS, SPINE_ROW_PX, visibleGraph, type GraphData } from "../../renderer/src/graph/graph-model.ts";

// The answer's spine is cut to the pane's height (graph-model.ts): a spine taller than the pane
// was drawn past its edge at the smallest zoom, where labels are 11 px. The sections that do not
// fit wait behind "show more" with the facts that hang only from them.

/** An answer citing `perDocument[d]` sections of each document, each section stating one fact. */
function answerGraph(perDocument: readonly number[]): GraphData {
  const sections: SubgraphNode[] = [];
  perDocument.forEach((n, d) => {
    for (let i = 0; i < n; i++)
      sections.push({ id: `section:d${d}s${i}`, kind: "section", label: `Section ${d}.${i}`, documentId: `doc${d}`, rank: sections.length + 1 });
  });
  const facts: SubgraphNode[] = sections.map((s, i) => ({ id: `entity:e${i}`, kind: "entity", label: `party ${i}`, documentId: s.documentId ?? "" }));
  const objects: SubgraphNode[] = sections.map((s, i) => ({ id: `entity:o${i}`, kind: "entity", label: `object ${i}`, documentId: s.documentId ?? "" }));
  const edges: SubgraphEdge[] = sections.flatMap((s, i) => [
    { id: `in-section:${i}`, source: s.id, target: `entity:e${i}`, kind: "in-section", label: "states" },
    { id: `triplet:${i}`, source: `entity:e${i}`, target: `entity:o${i}`, kind: "triplet", label: "must notify" },
  ]);
  return { nodes: [...sections, ...facts, ...objects], edges, triplets: new Map() };
}

const sectionsOf = (v: { nodes: SubgraphNode[] }): string[] => v.nodes.filter((n) => n.kind === "section").map((n) => n.id);

describe("the answer's spine fits the pane's height", () => {
  it("two documents' eight sections in a laptop's pane: the first that fit, with their facts only", () => {
    const graph = answerGraph([3, 5]);
    const height = 494;
    const v = visibleGraph(graph, 60, new Set(), height);
    const kept = sectionsOf(v);
    expect(kept.length).toBeLessThan(8);
    expect(2 * DOCUMENT_BOX_PX + kept.length * SPINE_ROW_PX).toBeLessThanOrEqual(height);
    // In the answer's order, and each kept section's fact and its object with it; none of the others'.
    expect(kept).toEqual(graph.nodes.slice(0, kept.length).map((n) => n.id));
    const ids = new Set(v.nodes.map((n) => n.id));
    graph.nodes.slice(0, 8).forEach((s, i) => {
      const shown = i < kept.length;
      expect(ids.has(`entity:e${i}`), `${s.id}'s fact`).toBe(shown);
      expect(ids.has(`entity:o${i}`), `${s.id}'s object`).toBe(shown);
    });
    // No edge to a node not drawn.
    for (const e of v.edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
  });

  it("a tall pane, one document, or no height measured: every section", () => {
    expect(sectionsOf(visibleGraph(answerGraph([3, 5]), 60, new Set(), 900))).toHaveLength(8);
    expect(sectionsOf(visibleGraph(answerGraph([9]), 60, new Set(), 494))).toHaveLength(9);
    expect(sectionsOf(visibleGraph(answerGraph([3, 5]), 60))).toHaveLength(8);
  });

  it("fitted to the pane, a fact whose section waits behind 'show more' waits with it", () => {
    const node = (id: string, kind: SubgraphNode["kind"], documentId: string): SubgraphNode => ({ id, kind, label: id, documentId });
    // A search's graph lists its nodes by relevance: a fact can come before its own section.
    const graph: GraphData = {
      nodes: [
        node("section:a", "section", "d1"),
        node("entity:a", "entity", "d1"),
        node("entity:c", "entity", "d3"),
        node("section:b", "section", "d2"),
        node("entity:b", "entity", "d2"),
        node("section:c", "section", "d3"),
      ],
      edges: ["a", "b", "c"].map((x) => ({ id: `in-section:${x}`, source: `section:${x}`, target: `entity:${x}`, kind: "in-section", label: "states" })),
      triplets: new Map(),
    };
    const ids = (v: { nodes: SubgraphNode[] }): string[] => v.nodes.map((n) => n.id);
    expect(ids(visibleGraph(graph, 5, new Set(), 900))).toEqual(["section:a", "entity:a", "section:b", "entity:b"]);
    // Without the pane's height (the user asked for more) the limit alone decides.
    expect(ids(visibleGraph(graph, 5))).toEqual(["section:a", "entity:a", "entity:c", "section:b", "entity:b"]);
  });

  it("keeps a few sections however low the pane, and a pinned one wherever it stands", () => {
    const graph = answerGraph([3, 5]);
    expect(sectionsOf(visibleGraph(graph, 60, new Set(), 100))).toHaveLength(MIN_SPINE_SECTIONS);
    const pinned = new Set(["section:d1s4"]);
    expect(sectionsOf(visibleGraph(graph, 60, pinned, 100))).toEqual([...graph.nodes.slice(0, MIN_SPINE_SECTIONS).map((n) => n.id), "section:d1s4"]);
  });
});
