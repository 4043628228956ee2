import { provisionLabel, shortSectionLabel } from "../citations/index.ts";
import type { Subgraph, SubgraphEdge, SubgraphNode } from "../model/subgraph-types.ts";
import type { TripletRecord } from "../model/graph-records.ts";
import { runGated, type QueryRuntime } from "./intent-queries.ts";

// The graph drawn beside an answer: its evidence and nothing else. The sections it cites, the
// facts (triplets) stated in them — those in the cited sentences first —, the terms they define
// or use, and the citations between them; every node carries its document so the canvas can
// group them. At most ~30 nodes (MAX_EVIDENCE_NODES): beyond that a graph beside a chat answer
// stops being read (a few more nodes, fitted into the pane, were a hairball of tiny labels). A refused
// question cites nothing and gets no graph.

export const MAX_EVIDENCE_NODES = 30;
const MAX_SECTIONS = 10;
const MAX_ENTITY_NODES = 14;
/** Terms the cited sections define come first; terms they merely use fill what is left of this. */
const MAX_TERM_NODES = 6;

export interface EvidenceInput {
  /** Cited sections, most important first. */
  sectionIds: readonly string[];
  /** Character ranges the answer quotes, per section: facts stated there come first. */
  spans?: ReadonlyMap<string, ReadonlyArray<{ start: number; end: number }>>;
  /** Triplets the answer itself rests on (graph rows): always drawn first. */
  tripletIds?: readonly string[];
}

const sectionNodeId = (id: string): string => `section:${id}`;

function overlaps(t: TripletRecord, spans: ReadonlyArray<{ start: number; end: number }> | undefined): boolean {
  return spans?.some((s) => t.start < s.end && s.start < t.end) ?? false;
}

export async function evidenceGraph(rt: QueryRuntime, input: EvidenceInput): Promise<{ subgraph: Subgraph; triplets: TripletRecord[] }> {
  const ids = [...new Set(input.sectionIds)].slice(0, MAX_SECTIONS);
  if (ids.length === 0) return { subgraph: { nodes: [], edges: [] }, triplets: [] };
  const nodes = new Map<string, SubgraphNode>();
  const edges = new Map<string, SubgraphEdge>();
  const add = (node: SubgraphNode): boolean => {
    if (nodes.has(node.id)) return true;
    if (node.label.trim() === "" || nodes.size >= MAX_EVIDENCE_NODES) return false;
    nodes.set(node.id, node);
    return true;
  };
  const link = (edge: SubgraphEdge): void => {
    if (nodes.has(edge.source) && nodes.has(edge.target) && !edges.has(edge.id)) edges.set(edge.id, edge);
  };

  const sections = await rt.store.getSectionsByIds(ids);
  // Cited sections of a document deleted since: nothing left to draw.
  if (sections.length === 0) return { subgraph: { nodes: [], edges: [] }, triplets: [] };
  const order = new Map(ids.map((id, i) => [id, i]));
  sections.sort((a, b) => (order.get(a.section.id) ?? 0) - (order.get(b.section.id) ?? 0));
  sections.forEach(({ section }, i) => {
    const label = shortSectionLabel(provisionLabel(section.label));
    add({
      id: sectionNodeId(section.id),
      kind: "section",
      label: section.heading === "" ? label : `${label} ${section.heading}`,
      documentId: section.documentId,
      rank: i + 1,
    });
  });
  const shown = new Set(sections.map((s) => s.section.id));

  const [references, triplets] = await Promise.all([rt.store.getCrossReferences([...shown]), rt.store.getTripletsForSections([...shown])]);
  for (const ref of references) {
    if (ref.toSectionId === null || !shown.has(ref.fromSectionId) || !shown.has(ref.toSectionId) || ref.fromSectionId === ref.toSectionId) continue;
    link({ id: `cites:${ref.id}`, source: sectionNodeId(ref.fromSectionId), target: sectionNodeId(ref.toSectionId), kind: "cites", label: ref.raw });
  }

  // Facts: those the answer rests on, then those in the cited sentences, then the rest by confidence.
  const wanted = new Set(input.tripletIds ?? []);
  const ranked = [...triplets].sort(
    (a, b) =>
      Number(wanted.has(b.id)) - Number(wanted.has(a.id)) ||
      Number(overlaps(b, input.spans?.get(b.sectionId))) - Number(overlaps(a, input.spans?.get(a.sectionId))) ||
      (order.get(a.sectionId) ?? 0) - (order.get(b.sectionId) ?? 0) ||
      b.confidence - a.confidence ||
      a.start - b.start,
  );
  const drawn: TripletRecord[] = [];
  let entityNodes = 0;
  for (const t of ranked) {
    if (t.object === "" || t.objectId === "") continue;
    const subject = `entity:${t.subjectId}`;
    const object = `entity:${t.objectId}`;
    const newNodes = Number(!nodes.has(subject)) + Number(!nodes.has(object));
    if (entityNodes + newNodes > MAX_ENTITY_NODES || nodes.size + newNodes > MAX_EVIDENCE_NODES) continue;
    if (!add({ id: subject, kind: "entity", label: t.subject, documentId: t.documentId })) continue;
    if (!add({ id: object, kind: "entity", label: t.object, documentId: t.documentId })) continue;
    entityNodes += newNodes;
    link({ id: `triplet:${t.id}`, source: subject, target: object, kind: "triplet", label: t.predicate, tripletId: t.id });
    link({ id: `in-section:${t.sectionId}:${t.subjectId}`, source: sectionNodeId(t.sectionId), target: subject, kind: "in-section", label: "states" });
    drawn.push(t);
  }

  // Terms the sections define, then terms they use, while room remains.
  if (nodes.size < MAX_EVIDENCE_NODES) {
    const defined = await runGated(
      rt,
      "MATCH (t:Term)-[:DEFINED_IN]->(s:Section) WHERE s.id IN $ids RETURN t.id AS id, t.term AS term, t.documentId AS doc, s.id AS section ORDER BY s.ordinal, t.spanStart",
      { ids: [...shown] },
    );
    const used = await runGated(
      rt,
      "MATCH (s:Section)-[:MENTIONS]->(t:Term) WHERE s.id IN $ids RETURN t.id AS id, t.term AS term, t.documentId AS doc, s.id AS section ORDER BY s.ordinal, t.term",
      { ids: [...shown] },
    );
    let termNodes = 0;
    const drawnNames = new Set([...nodes.values()].filter((n) => n.kind === "entity").map((n) => n.label.toLowerCase()));
    for (const [kind, rows] of [
      ["defines", defined],
      ["mentions", used],
    ] as const) {
      for (const r of rows) {
        const termId = String(r.id ?? "");
        const sectionId = String(r.section ?? "");
        const id = `term:${termId}`;
        if (termId === "" || (!nodes.has(id) && termNodes >= MAX_TERM_NODES)) continue;
        // A term already drawn as a party or thing ("Lead Overseer", "lead overseer") is not drawn twice.
        if (!nodes.has(id) && drawnNames.has(String(r.term ?? "").toLowerCase())) continue;
        if (!nodes.has(id)) termNodes++;
        if (!add({ id, kind: "term", label: String(r.term ?? ""), documentId: String(r.doc ?? "") })) continue;
        link({ id: `${kind}:${termId}:${sectionId}`, source: sectionNodeId(sectionId), target: `term:${termId}`, kind, label: kind });
      }
    }
  }
  return { subgraph: { nodes: [...nodes.values()], edges: [...edges.values()] }, triplets: drawn };
}
