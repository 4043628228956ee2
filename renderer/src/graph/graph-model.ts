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

/**
 * How many nodes are drawn before "show more": enough to explain an answer, few enough to read
 * (an answer's evidence graph has at most 30: core/graph-query/evidence-graph.ts).
 */
export const INITIAL_NODE_LIMIT = 30;
export const NODE_LIMIT_STEP = 20;
/** A pane shows at least this many nodes at first, however small. */
export const MIN_NODE_LIMIT = 12;
/** A first drawing too large for its pane at a readable size is cut down to this many nodes at the least. */
export const MIN_FITTED_NODES = 6;
/**
 * Canvas area one node needs with its label at its designed size (11–12 px, two or three lines)
 * and room around it: a smaller pane shows fewer nodes at first ("n more hidden"), rather than
 * zooming out until labels are cut off or unreadable.
 */
export const STAGE_PX_PER_NODE = 10_000;

/** How many nodes a canvas of this area shows at first (before "show more"); 0: not measured yet. */
export function fittedNodeLimit(areaPx: number): number {
  if (areaPx <= 0) return INITIAL_NODE_LIMIT;
  return Math.max(MIN_NODE_LIMIT, Math.min(INITIAL_NODE_LIMIT, Math.floor(areaPx / STAGE_PX_PER_NODE)));
}

export function graphFrom(subgraph: Subgraph, triplets: readonly TripletRecord[]): GraphData {
  return { nodes: subgraph.nodes, edges: subgraph.edges, triplets: new Map(triplets.map((t) => [t.id, t])) };
}

/**
 * Adds what a neighbours request returned; nodes already shown keep their place (and their
 * document, when the new copy knows it and the old did not). Edges whose ends are not both in the
 * graph are dropped: they could never be drawn. `added` lists the nodes that were new, in order.
 */
export function mergeGraph(graph: GraphData, extra: Subgraph, extraTriplets: readonly TripletRecord[] = []): GraphData & { added: string[] } {
  const known = new Map(graph.nodes.map((n) => [n.id, n]));
  const edgeIds = new Set(graph.edges.map((e) => e.id));
  const triplets = new Map(graph.triplets);
  for (const t of extraTriplets) triplets.set(t.id, t);
  const fresh: SubgraphNode[] = [];
  for (const n of extra.nodes) {
    if (!known.has(n.id) && !fresh.some((f) => f.id === n.id)) fresh.push(n);
  }
  const nodes = [
    ...graph.nodes.map((n) => {
      const again = n.documentId === undefined ? extra.nodes.find((x) => x.id === n.id && x.documentId !== undefined) : undefined;
      return again?.documentId === undefined ? n : { ...n, documentId: again.documentId };
    }),
    ...fresh,
  ];
  const ids = new Set(nodes.map((n) => n.id));
  return {
    nodes,
    edges: [...graph.edges, ...extra.edges.filter((e) => !edgeIds.has(e.id) && ids.has(e.source) && ids.has(e.target))],
    triplets,
    added: fresh.map((n) => n.id),
  };
}

/** The node's document, for grouping: its own field, else the document id its engine id starts with. */
export function documentOfNode(node: SubgraphNode): string | null {
  if (node.documentId !== undefined && node.documentId !== "") return node.documentId;
  // `section:<documentId>:…`, `entity:<documentId>:e:…`, `term:<documentId>:…`
  const m = /^(?:section|entity|term):([0-9a-f]{16}):/.exec(node.id);
  return m?.[1] ?? null;
}

/** One section of the answer's spine on screen, its label at the smallest size drawn: three lines and room. */
export const SPINE_ROW_PX = 44;
/** A document's box around its spine on screen: its title, its margins and the room to the next box. */
export const DOCUMENT_BOX_PX = 80;
/** The spine keeps this many sections however low the pane. */
export const MIN_SPINE_SECTIONS = 3;

/**
 * The sections whose spine fits a pane this many pixels high, in the answer's order; the rest wait
 * behind "show more" with the facts and terms that hang only from them. A spine taller than the
 * pane had left its last sections below the canvas at the smallest zoom, where labels are 11 px.
 * `null`: no height to fit (not measured yet, or the user asked for more).
 */
function spineThatFits(nodes: readonly SubgraphNode[], heightPx: number, pinned: ReadonlySet<string>): Set<string> | null {
  if (heightPx <= 0) return null;
  const kept = new Set<string>();
  const documents = new Set<string>();
  let full = false;
  for (const n of nodes) {
    if (n.kind !== "section") continue;
    const boxes = documents.size + (n.documentId === undefined || documents.has(n.documentId) ? 0 : 1);
    full ||= kept.size >= MIN_SPINE_SECTIONS && boxes * DOCUMENT_BOX_PX + (kept.size + 1) * SPINE_ROW_PX > heightPx;
    if (full && !pinned.has(n.id)) continue;
    kept.add(n.id);
    if (n.documentId !== undefined) documents.add(n.documentId);
  }
  return kept;
}

/** The nodes hanging from the kept sections: linked to one, or to a node that is. */
function hangingFrom(graph: GraphData, sections: ReadonlySet<string>): Set<string> {
  const isSection = new Set(graph.nodes.filter((n) => n.kind === "section").map((n) => n.id));
  const linkedAtAll = new Set(graph.edges.flatMap((e) => [e.source, e.target]));
  // A node linked to nothing hangs from nothing: it stays.
  const linked = new Set(graph.nodes.filter((n) => !isSection.has(n.id) && !linkedAtAll.has(n.id)).map((n) => n.id));
  for (let hop = 0; hop < 2; hop++) {
    const anchors = new Set([...sections, ...linked]);
    for (const e of graph.edges) {
      if (anchors.has(e.source) && !isSection.has(e.target)) linked.add(e.target);
      if (anchors.has(e.target) && !isSection.has(e.source)) linked.add(e.source);
    }
  }
  return new Set([...sections, ...linked]);
}

/**
 * What is drawn: the first `limit` nodes, the `pinned` ones (what the user expanded: shown whatever
 * the limit), and the edges between them; given the pane's height, only the sections whose spine
 * fits it, with what hangs from them.
 */
export function visibleGraph(
  graph: GraphData,
  limit: number,
  pinned: ReadonlySet<string> = new Set(),
  heightPx = 0,
): { nodes: SubgraphNode[]; edges: SubgraphEdge[] } {
  const spine = spineThatFits(graph.nodes, heightPx, pinned);
  const fits = spine === null ? null : hangingFrom(graph, spine);
  const limited = graph.nodes.filter((n) => pinned.has(n.id) || fits === null || fits.has(n.id)).filter((n, i) => i < limit || pinned.has(n.id));
  // Fitted to the pane, a fact or a term whose sections all wait behind "show more" waits with them:
  // alone in its document's box it said nothing and took the room of a box.
  const sections = new Set(limited.filter((n) => n.kind === "section").map((n) => n.id));
  const hanging = heightPx > 0 && sections.size > 0 ? hangingFrom({ ...graph, nodes: limited }, sections) : null;
  const nodes = hanging === null ? limited : limited.filter((n) => pinned.has(n.id) || hanging.has(n.id));
  const ids = new Set(nodes.map((n) => n.id));
  return { nodes, edges: graph.edges.filter((e) => ids.has(e.source) && ids.has(e.target)) };
}

/** The name a document's box shows: its shortest name ("DORA") and its title. */
export function documentGroupName(
  doc: { title: string; fileName: string; aliases?: string[]; userAliases?: string[]; hiddenAliases?: string[] },
  aliases: readonly string[],
): string {
  const title = doc.title.trim() === "" ? doc.fileName : doc.title.trim();
  const short = [...aliases].filter((a) => a.length >= 2 && a.length <= 24).sort((a, b) => a.length - b.length)[0];
  return short === undefined || title.toLowerCase().startsWith(short.toLowerCase()) ? title : `${short} — ${title}`;
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
  /** The PDF page to open on (the fact's page), when known. */
  page?: number;
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
