import type { Subgraph } from "../../model/subgraph-types.ts";
import type { TripletRecord } from "../../model/graph-records.ts";

// The graph beside an answer shows the facts the answer rests on, not everything retrieval
// touched: the cited sections, the parties and terms linked to them, and the citations between
// them. A refused question shows none (the probe saw 40 unrelated DORA/HIPAA nodes beside "The
// documents provided do not answer this.").

const sectionNode = (sectionId: string): string => `section:${sectionId}`;

export function answerSubgraph(retrieved: Subgraph, citedSectionIds: ReadonlySet<string>, triplets: readonly TripletRecord[]): Subgraph {
  if (citedSectionIds.size === 0) return { nodes: [], edges: [] };
  const cited = new Set([...citedSectionIds].map(sectionNode));
  const citedTriplets = new Set(triplets.filter((t) => citedSectionIds.has(t.sectionId)).map((t) => t.id));
  // Edges that touch a cited section, or state a fact (triplet edge) of one.
  const edges = retrieved.edges.filter((e) => cited.has(e.source) || cited.has(e.target) || (e.tripletId !== undefined && citedTriplets.has(e.tripletId)));
  const keep = new Set<string>(cited);
  for (const e of edges) {
    keep.add(e.source);
    keep.add(e.target);
  }
  const nodes = retrieved.nodes.filter((n) => keep.has(n.id));
  const present = new Set(nodes.map((n) => n.id));
  return { nodes, edges: edges.filter((e) => present.has(e.source) && present.has(e.target)) };
}
