import type { Subgraph, SubgraphEdge, SubgraphNode, TripletRecord } from "../../../core/contract/contract.ts";

// The graph beside the chat is the subgraph of the current answer or search, grown by the nodes
// the user expands. Pure functions here: what is drawn, and which sections a node or edge comes from.

export interface GraphData {
  /** Insertion order is priority order: the engine lists the most relevant nodes first. */
  nodes: SubgraphNode[];
  edges: SubgraphEdge[];
  triplets: ReadonlyMap<string, TripletRecord>;
}

export const EMPTY_GRAPH: GraphData = { nodes: [], edges: [], triplets: new Map() };

/** How many nodes are drawn before "show more": enough to explain an answer, few enough to read. */
export const INITIAL_NODE_LIMIT = 40;
export const NODE_LIMIT_STEP = 20;

export function graphFrom(subgraph: Subgraph, triplets: readonly TripletRecord[]): GraphData {
  return { nodes: subgraph.nodes, edges: subgraph.edges, triplets: new Map(triplets.map((t) => [t.id, t])) };
}

/** Adds what a neighbours request returned; nodes already shown keep their place. */
export function mergeGraph(graph: GraphData, extra: Subgraph, extraTriplets: readonly TripletRecord[] = []): GraphData {
  const nodeIds = new Set(graph.nodes.map((n) => n.id));
  const edgeIds = new Set(graph.edges.map((e) => e.id));
  const triplets = new Map(graph.triplets);
  for (const t of extraTriplets) triplets.set(t.id, t);
  return {
    nodes: [...graph.nodes, ...extra.nodes.filter((n) => !nodeIds.has(n.id))],
    edges: [...graph.edges, ...extra.edges.filter((e) => !edgeIds.has(e.id))],
    triplets,
  };
}

/** The first `limit` nodes and the edges between them. */
export function visibleGraph(graph: GraphData, limit: number): { nodes: SubgraphNode[]; edges: SubgraphEdge[] } {
  const nodes = graph.nodes.slice(0, Math.max(0, limit));
  const ids = new Set(nodes.map((n) => n.id));
  return { nodes, edges: graph.edges.filter((e) => ids.has(e.source) && ids.has(e.target)) };
}

const SECTION_PREFIX = "section:";

export function sectionIdOf(nodeId: string): string | null {
  return nodeId.startsWith(SECTION_PREFIX) ? nodeId.slice(SECTION_PREFIX.length) : null;
}

export function sectionNodeId(sectionId: string): string {
  return `${SECTION_PREFIX}${sectionId}`;
}

export interface SectionRef {
  sectionId: string;
  /** Why this section is listed: the relation as the graph shows it. */
  via: string;
  /** A stretch of the section text to highlight (a triplet's evidence). */
  highlight?: { start: number; end: number };
}

function pushUnique(out: SectionRef[], ref: SectionRef): void {
  if (!out.some((r) => r.sectionId === ref.sectionId)) out.push(ref);
}

/**
 * The sections a node comes from, most telling first: a section is itself; a term is defined in
 * one section and mentioned in others; an entity is stated by the sections of its triplets.
 */
export function sectionsOfNode(graph: GraphData, nodeId: string): SectionRef[] {
  const own = sectionIdOf(nodeId);
  if (own !== null) return [{ sectionId: own, via: "section" }];
  const out: SectionRef[] = [];
  const touching = graph.edges.filter((e) => e.source === nodeId || e.target === nodeId);
  for (const kind of ["defines", "triplet", "in-section", "mentions"] as const) {
    for (const edge of touching) {
      if (edge.kind !== kind) continue;
      if (kind === "triplet") {
        const triplet = edge.tripletId === undefined ? undefined : graph.triplets.get(edge.tripletId);
        if (triplet !== undefined) {
          pushUnique(out, { sectionId: triplet.sectionId, via: edge.label, highlight: { start: triplet.start, end: triplet.end } });
        }
        continue;
      }
      const other = edge.source === nodeId ? edge.target : edge.source;
      const sectionId = sectionIdOf(other);
      if (sectionId !== null) pushUnique(out, { sectionId, via: edge.label });
    }
  }
  return out;
}

/** The section an edge was read from: a triplet's own section, where a citation is written, … */
export function sectionOfEdge(graph: GraphData, edge: SubgraphEdge): SectionRef | null {
  if (edge.kind === "triplet") {
    const triplet = edge.tripletId === undefined ? undefined : graph.triplets.get(edge.tripletId);
    if (triplet !== undefined) return { sectionId: triplet.sectionId, via: edge.label, highlight: { start: triplet.start, end: triplet.end } };
    // Expanded triplets come without their record: the section stating the subject is the best guess.
    return sectionsOfNode(graph, edge.source).find((r) => r.via !== edge.label) ?? sectionsOfNode(graph, edge.source)[0] ?? null;
  }
  const sectionId = sectionIdOf(edge.source) ?? sectionIdOf(edge.target);
  return sectionId === null ? null : { sectionId, via: edge.label };
}

export function nodeLabel(graph: GraphData, nodeId: string): string {
  return graph.nodes.find((n) => n.id === nodeId)?.label ?? nodeId;
}

/** Sections the graph links to this one: by citation either way, or through a shared defined term. */
export function relatedSections(graph: GraphData, sectionId: string): { sectionId: string; label: string; via: string }[] {
  const self = sectionNodeId(sectionId);
  const out = new Map<string, { sectionId: string; label: string; via: string }>();
  const add = (nodeId: string, via: string): void => {
    const id = sectionIdOf(nodeId);
    if (id === null || id === sectionId || out.has(id)) return;
    out.set(id, { sectionId: id, label: nodeLabel(graph, nodeId), via });
  };
  for (const e of graph.edges) {
    if (e.kind !== "cites") continue;
    if (e.source === self) add(e.target, `cited here (${e.label})`);
    else if (e.target === self) add(e.source, `cites this (${e.label})`);
  }
  for (const e of graph.edges) {
    if ((e.kind !== "defines" && e.kind !== "mentions") || e.source !== self) continue;
    const term = nodeLabel(graph, e.target);
    for (const other of graph.edges) {
      if (other.target === e.target && other.source !== self && (other.kind === "defines" || other.kind === "mentions")) {
        add(other.source, `${other.kind === "defines" ? "defines" : "also uses"} “${term}”`);
      }
    }
  }
  return [...out.values()];
}
