import { normalizeEntity } from "../extract/normalize-entity.ts";
import type { RetrievalStore } from "../store/retrieval-store.ts";
import { tokenize } from "../text/index.ts";
import type { Subgraph, SubgraphEdge, SubgraphNode } from "../model/subgraph-types.ts";
import type { RankedSection } from "../model/retrieval-types.ts";

// The small graph shown beside search results: the top sections, the entities of their triplets,
// the defined terms the question uses, and the citations between them. Capped so a layout stays
// readable (and fast) whatever the corpus.

export type { Subgraph, SubgraphEdge, SubgraphEdgeKind, SubgraphNode, SubgraphNodeKind } from "../model/subgraph-types.ts";

export interface SubgraphOptions {
  /** Most nodes (default and hard maximum 60). */
  maxNodes?: number;
  /** Results whose neighbourhood is drawn (default 10). */
  topSections?: number;
  /** The question: its words and word pairs are looked up as defined terms. */
  query?: string;
}

export const MAX_SUBGRAPH_NODES = 60;

/** Single words and adjacent pairs of the question, in the form definitions are stored. */
function termCandidates(query: string): string[] {
  const words = tokenize(query).filter((w) => w.length > 2);
  const out = new Set<string>();
  words.forEach((w, i) => {
    out.add(normalizeEntity(w));
    const next = words[i + 1];
    if (next !== undefined) out.add(normalizeEntity(`${w} ${next}`));
  });
  return [...out];
}

export async function buildSubgraph(store: RetrievalStore, results: readonly RankedSection[], options: SubgraphOptions = {}): Promise<Subgraph> {
  const maxNodes = Math.max(0, Math.min(MAX_SUBGRAPH_NODES, options.maxNodes ?? MAX_SUBGRAPH_NODES));
  const top = results.slice(0, Math.min(options.topSections ?? 10, maxNodes));
  const nodes = new Map<string, SubgraphNode>();
  const edges = new Map<string, SubgraphEdge>();
  const addNode = (node: SubgraphNode): boolean => {
    if (nodes.has(node.id)) return true;
    // A nameless node (an entity extracted as "" by an older rule set) is an empty button in the
    // list view and a blank dot on the canvas: not drawn, nor its edges.
    if (node.label.trim() === "") return false;
    if (nodes.size >= maxNodes) return false;
    nodes.set(node.id, node);
    return true;
  };
  const addEdge = (edge: SubgraphEdge): void => {
    if (nodes.has(edge.source) && nodes.has(edge.target) && !edges.has(edge.id)) edges.set(edge.id, edge);
  };
  for (const r of top) {
    const label = r.section.heading === "" ? r.section.label : `${r.section.label} ${r.section.heading}`;
    addNode({ id: `section:${r.section.id}`, kind: "section", label, documentId: r.section.documentId, rank: r.rank });
  }
  const ids = top.map((r) => r.section.id);
  if (ids.length === 0) return { nodes: [], edges: [] };
  const [references, triplets, terms] = await Promise.all([
    store.getCrossReferences(ids),
    store.getTripletsForSections(ids),
    options.query === undefined ? Promise.resolve([]) : store.getTermsByNormalized(termCandidates(options.query)),
  ]);
  const inTop = new Set(ids);
  // Citations among the results first: they explain why results belong together.
  for (const ref of references) {
    if (ref.toSectionId === null || ref.toSectionId === "") continue;
    if (!inTop.has(ref.fromSectionId) || !inTop.has(ref.toSectionId)) continue;
    addEdge({ id: `cites:${ref.id}`, source: `section:${ref.fromSectionId}`, target: `section:${ref.toSectionId}`, kind: "cites", label: ref.raw });
  }
  for (const term of terms) {
    const linked = [term.sectionId, ...term.mentionedIn].filter((id) => inTop.has(id));
    if (linked.length === 0) continue;
    if (!addNode({ id: `term:${term.id}`, kind: "term", label: term.term, documentId: term.documentId })) break;
    for (const sectionId of linked) {
      const kind = sectionId === term.sectionId ? "defines" : "mentions";
      addEdge({ id: `${kind}:${term.id}:${sectionId}`, source: `section:${sectionId}`, target: `term:${term.id}`, kind, label: kind });
    }
  }
  for (const t of [...triplets].sort((a, b) => b.confidence - a.confidence || (a.id < b.id ? -1 : 1))) {
    const subject = `entity:${t.subjectId}`;
    const object = `entity:${t.objectId}`;
    if (!addNode({ id: subject, kind: "entity", label: t.subject, documentId: t.documentId })) continue;
    if (!addNode({ id: object, kind: "entity", label: t.object, documentId: t.documentId })) continue;
    addEdge({ id: `triplet:${t.id}`, source: subject, target: object, kind: "triplet", label: t.predicate, tripletId: t.id });
    addEdge({ id: `in-section:${t.sectionId}:${t.subjectId}`, source: `section:${t.sectionId}`, target: subject, kind: "in-section", label: "states" });
  }
  // Citations leaving the results to sections outside them, while room remains.
  for (const ref of references) {
    if (ref.toSectionId === null || ref.toSectionId === "" || inTop.has(ref.toSectionId)) continue;
    if (!addNode({ id: `section:${ref.toSectionId}`, kind: "section", label: ref.label ?? ref.raw })) break;
    addEdge({ id: `cites:${ref.id}`, source: `section:${ref.fromSectionId}`, target: `section:${ref.toSectionId}`, kind: "cites", label: ref.raw });
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}
