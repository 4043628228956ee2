// The subgraph shown beside results and answers: plain data, shared with the renderer.

export type SubgraphNodeKind = "section" | "entity" | "term";

export interface SubgraphNode {
  id: string;
  kind: SubgraphNodeKind;
  label: string;
  /** The document the node belongs to (the UI groups nodes by document). */
  documentId?: string;
  /** Section nodes: 1-based rank in the results. */
  rank?: number;
}

export type SubgraphEdgeKind = "triplet" | "cites" | "defines" | "mentions" | "in-section";

export interface SubgraphEdge {
  id: string;
  source: string;
  target: string;
  kind: SubgraphEdgeKind;
  label: string;
  /** Triplet edges: the triplet id, for evidence lookup. */
  tripletId?: string;
}

export interface Subgraph {
  nodes: SubgraphNode[];
  edges: SubgraphEdge[];
}
