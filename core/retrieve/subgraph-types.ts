// The subgraph shown beside results and answers: plain data, shared with the renderer.

export type SubgraphNodeKind = "section" | "entity" | "term";

export interface SubgraphNode {
  id: string;
  kind: SubgraphNodeKind;
  label: string;
  /** Section nodes: the document they belong to. */
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
