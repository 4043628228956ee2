import type { GraphStore } from "../store/graph-store.ts";
import type { TripletRecord } from "../model/graph-records.ts";
import type { Subgraph, SubgraphEdge, SubgraphNode } from "../model/subgraph-types.ts";

// One hop around a node of the subgraph the UI shows, for "expand" (double click): the node ids
// are the ones buildSubgraph makes (`section:…`, `entity:…`, `term:…`), so the UI can merge the
// answer into the graph it already draws.

/** Neighbours drawn per expansion: enough to be useful, few enough to stay readable. */
export const MAX_NEIGHBORS = 30;

function sectionNode(id: string, label: string, documentId?: string): SubgraphNode {
  return documentId === undefined ? { id: `section:${id}`, kind: "section", label } : { id: `section:${id}`, kind: "section", label, documentId };
}

/** The entity key inside an entity id (`<documentId>:e:<key>`). */
function entityKey(entityId: string): string {
  const at = entityId.indexOf(":e:");
  return at < 0 ? entityId : entityId.slice(at + 3);
}

function addTriplets(
  triplets: readonly TripletRecord[],
  nodes: Map<string, SubgraphNode>,
  edges: Map<string, SubgraphEdge>,
  sectionLabels: ReadonlyMap<string, string>,
): void {
  for (const t of triplets) {
    if (nodes.size >= MAX_NEIGHBORS) break;
    const subject = `entity:${t.subjectId}`;
    nodes.set(subject, { id: subject, kind: "entity", label: t.subject, documentId: t.documentId });
    const section = `section:${t.sectionId}`;
    nodes.set(section, { ...sectionNode(t.sectionId, sectionLabels.get(t.sectionId) ?? t.sectionId), documentId: t.documentId });
    edges.set(`in-section:${t.sectionId}:${t.subjectId}`, {
      id: `in-section:${t.sectionId}:${t.subjectId}`,
      source: section,
      target: subject,
      kind: "in-section",
      label: "states",
    });
    if (t.objectId !== "") {
      const object = `entity:${t.objectId}`;
      nodes.set(object, { id: object, kind: "entity", label: t.object, documentId: t.documentId });
      edges.set(`triplet:${t.id}`, { id: `triplet:${t.id}`, source: subject, target: object, kind: "triplet", label: t.predicate, tripletId: t.id });
    }
  }
}

async function labelsOf(store: GraphStore, ids: readonly string[]): Promise<Map<string, string>> {
  const found = await store.getSectionsByIds([...new Set(ids)]);
  return new Map(found.map(({ section }) => [section.id, section.heading === "" ? section.label : `${section.label} ${section.heading}`]));
}

/** The document of each section, so the UI can draw every neighbour inside its document. */
async function documentsOf(store: GraphStore, ids: readonly string[]): Promise<Map<string, string>> {
  const found = await store.getSectionsByIds([...new Set(ids)]);
  return new Map(found.map(({ section }) => [section.id, section.documentId]));
}

export async function graphNeighbors(store: GraphStore, nodeId: string): Promise<Subgraph> {
  const nodes = new Map<string, SubgraphNode>();
  const edges = new Map<string, SubgraphEdge>();
  const colon = nodeId.indexOf(":");
  const kind = colon < 0 ? "" : nodeId.slice(0, colon);
  const id = colon < 0 ? "" : nodeId.slice(colon + 1);
  if (id === "") return { nodes: [], edges: [] };

  if (kind === "section") {
    const [own] = await store.getSectionsByIds([id]);
    if (!own) return { nodes: [], edges: [] };
    const { section } = own;
    nodes.set(nodeId, sectionNode(section.id, section.heading === "" ? section.label : `${section.label} ${section.heading}`, section.documentId));
    const [references, triplets, children] = await Promise.all([
      store.getCrossReferences([id]),
      store.getTripletsForSections([id]),
      store.getChildSectionIds([id]),
    ]);
    const related = [
      ...references.flatMap((r) => [r.fromSectionId, r.toSectionId ?? ""]),
      ...(section.parentId === null ? [] : [section.parentId]),
      ...(children.get(id) ?? []),
    ].filter((x) => x !== "" && x !== id);
    const labels = await labelsOf(store, [...related, ...triplets.map((t) => t.sectionId)]);
    const documents = await documentsOf(store, related);
    for (const r of references) {
      const other = r.fromSectionId === id ? r.toSectionId : r.fromSectionId;
      if (other === null || other === "" || other === id || nodes.size >= MAX_NEIGHBORS) continue;
      nodes.set(`section:${other}`, sectionNode(other, labels.get(other) ?? r.label ?? r.raw, documents.get(other)));
      edges.set(`cites:${r.id}`, {
        id: `cites:${r.id}`,
        source: `section:${r.fromSectionId}`,
        target: `section:${r.toSectionId ?? ""}`,
        kind: "cites",
        label: r.raw,
      });
    }
    addTriplets(triplets, nodes, edges, labels);
    return { nodes: [...nodes.values()], edges: [...edges.values()] };
  }

  if (kind === "entity") {
    const key = entityKey(id);
    const triplets = await store.getTripletsForEntityKeys([key], MAX_NEIGHBORS);
    const labels = await labelsOf(
      store,
      triplets.map((t) => t.sectionId),
    );
    addTriplets(triplets, nodes, edges, labels);
    return { nodes: [...nodes.values()], edges: [...edges.values()] };
  }

  if (kind === "term") {
    const [term] = await store.getTermsByIds([id]);
    if (!term) return { nodes: [], edges: [] };
    nodes.set(nodeId, { id: nodeId, kind: "term", label: term.term, documentId: term.documentId });
    const sectionIds = [term.sectionId, ...term.mentionedIn].slice(0, MAX_NEIGHBORS - 1);
    const labels = await labelsOf(store, sectionIds);
    for (const sectionId of sectionIds) {
      const relation = sectionId === term.sectionId ? "defines" : "mentions";
      nodes.set(`section:${sectionId}`, { ...sectionNode(sectionId, labels.get(sectionId) ?? sectionId), documentId: term.documentId });
      edges.set(`${relation}:${term.id}:${sectionId}`, {
        id: `${relation}:${term.id}:${sectionId}`,
        source: `section:${sectionId}`,
        target: nodeId,
        kind: relation,
        label: relation,
      });
    }
    return { nodes: [...nodes.values()], edges: [...edges.values()] };
  }
  return { nodes: [], edges: [] };
}
