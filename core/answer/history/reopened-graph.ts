import type { RetrievalStore } from "../../store/retrieval-store.ts";
import { buildSubgraph } from "../../retrieve/subgraph.ts";
import type { Subgraph } from "../../model/subgraph-types.ts";
import type { RankedSection } from "../../model/retrieval-types.ts";
import type { TripletRecord } from "../../model/graph-records.ts";
import type { AnswerLogRecord } from "../../model/answer-log-schema.ts";

// The graph beside a reopened answer: the one shown with it, as its record keeps it, less the nodes
// of sections and documents the library no longer holds; so the same answer shows the same graph
// after a reload or a restart. Older records kept no graph: it is drawn again from the sections
// they name (the evidence, best first), as far as the library still holds them.

/**
 * The recorded graph without what was deleted since: sections gone, the names of documents gone
 * (a document is deleted with all its sections, so one still holding a section of the graph is
 * there), and their links.
 */
async function recordedGraph(store: RetrievalStore, recorded: Subgraph): Promise<Subgraph> {
  const sectionIds = recorded.nodes.filter((n) => n.kind === "section").map((n) => n.id.replace(/^section:/, ""));
  const hits = await store.getSectionsByIds(sectionIds);
  const present = new Set(hits.map((hit) => `section:${hit.section.id}`));
  const documents = new Set(hits.map((hit) => hit.document.id));
  const nodes = recorded.nodes.filter((n) => (n.kind === "section" ? present.has(n.id) : n.documentId === undefined || documents.has(n.documentId)));
  const kept = new Set(nodes.map((n) => n.id));
  return { nodes, edges: recorded.edges.filter((e) => kept.has(e.source) && kept.has(e.target)) };
}

export async function reopenedGraph(store: RetrievalStore, record: AnswerLogRecord): Promise<{ subgraph: Subgraph; triplets: TripletRecord[] }> {
  if (record.subgraph !== undefined) {
    const cited = record.citedSectionIds;
    const [subgraph, triplets] = await Promise.all([
      recordedGraph(store, record.subgraph),
      cited.length === 0 ? Promise.resolve([]) : store.getTripletsForSections(cited),
    ]);
    return { subgraph, triplets };
  }
  const ids = [...new Set([...record.evidenceSectionIds, ...record.citedSectionIds])];
  const found = new Map((await store.getSectionsByIds(ids)).map((hit) => [hit.section.id, hit] as const));
  const ranked: RankedSection[] = [];
  for (const id of ids) {
    const hit = found.get(id);
    if (hit === undefined) continue;
    ranked.push({ ...hit, score: 1 / (ranked.length + 1), rank: ranked.length + 1, evidence: { stages: {}, tripletIds: [], links: [], features: {} } });
  }
  const cited = record.citedSectionIds.filter((id) => found.has(id));
  const [subgraph, triplets] = await Promise.all([
    buildSubgraph(store, ranked, { query: record.askedAs ?? record.question }),
    cited.length === 0 ? Promise.resolve([]) : store.getTripletsForSections(cited),
  ]);
  return { subgraph, triplets };
}
