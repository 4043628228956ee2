import type { Subgraph, SubgraphEdge, SubgraphNode } from "../model/subgraph-types.ts";
import type { TermRecord, TripletRecord } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";

// The graph of one crosswalk row: both sections, the defined terms both use (linked to each side),
// a citation between them if there is one, and each side's obligations (who — action → what).
// Node ids are the search graph's (`section:…`, `term:…`, `entity:…`), so the graph pane can
// expand them as usual.

/** Obligations drawn per side: enough to compare, few enough to read. */
const MAX_TRIPLETS_PER_SIDE = 8;

export interface PairGraphInput {
  a: Section;
  b: Section;
  /** Defined terms both sections use (from either document's definitions). */
  sharedTerms: readonly TermRecord[];
  /** The citation between them, as printed, and who cites whom. */
  citation: { raw: string; direction: "a-cites-b" | "b-cites-a" } | null;
  tripletsA: readonly TripletRecord[];
  tripletsB: readonly TripletRecord[];
}

function sectionLabel(s: Section): string {
  return s.heading === "" ? s.label : `${s.label} ${s.heading}`;
}

export function pairGraph(input: PairGraphInput): Subgraph {
  const nodes = new Map<string, SubgraphNode>();
  const edges = new Map<string, SubgraphEdge>();
  const aNode = `section:${input.a.id}`;
  const bNode = `section:${input.b.id}`;
  nodes.set(aNode, { id: aNode, kind: "section", label: sectionLabel(input.a), documentId: input.a.documentId, rank: 1 });
  nodes.set(bNode, { id: bNode, kind: "section", label: sectionLabel(input.b), documentId: input.b.documentId, rank: 2 });
  if (input.citation !== null) {
    const [from, to] = input.citation.direction === "a-cites-b" ? [aNode, bNode] : [bNode, aNode];
    edges.set(`cites:${from}:${to}`, { id: `cites:${from}:${to}`, source: from, target: to, kind: "cites", label: input.citation.raw });
  }
  for (const term of input.sharedTerms) {
    const id = `term:${term.id}`;
    nodes.set(id, { id, kind: "term", label: term.term });
    for (const [section, node] of [
      [input.a, aNode],
      [input.b, bNode],
    ] as const) {
      const kind = term.sectionId === section.id ? "defines" : "mentions";
      edges.set(`${kind}:${term.id}:${section.id}`, { id: `${kind}:${term.id}:${section.id}`, source: node, target: id, kind, label: kind });
    }
  }
  for (const [triplets, node] of [
    [input.tripletsA, aNode],
    [input.tripletsB, bNode],
  ] as const) {
    const binding = [...triplets]
      .filter((t) => t.modality !== "fact" && t.subject.trim() !== "")
      .sort((x, y) => x.start - y.start)
      .slice(0, MAX_TRIPLETS_PER_SIDE);
    for (const t of binding) {
      const subject = `entity:${t.subjectId}`;
      nodes.set(subject, { id: subject, kind: "entity", label: t.subject });
      edges.set(`in-section:${t.sectionId}:${t.subjectId}`, {
        id: `in-section:${t.sectionId}:${t.subjectId}`,
        source: node,
        target: subject,
        kind: "in-section",
        label: "states",
      });
      if (t.objectId === "" || t.object.trim() === "") continue;
      const object = `entity:${t.objectId}`;
      nodes.set(object, { id: object, kind: "entity", label: t.object });
      edges.set(`triplet:${t.id}`, { id: `triplet:${t.id}`, source: subject, target: object, kind: "triplet", label: t.predicate, tripletId: t.id });
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}
