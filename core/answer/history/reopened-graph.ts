import type { RetrievalStore } from "../../store/retrieval-store.ts";
import { buildSubgraph } from "../../retrieve/subgraph.ts";
import type { Subgraph } from "../../model/subgraph-types.ts";
import type { RankedSection } from "../../model/retrieval-types.ts";
import type { TripletRecord } from "../../model/graph-records.ts";
import type { AnswerLogRecord } from "../../model/answer-log-schema.ts";

// The graph beside a reopened answer: drawn again from the sections its record names (the
// evidence, best first), as far as the library still holds them. The answer itself comes from the
// log unchanged; the graph is the library's current view of the same sections.

export async function reopenedGraph(store: RetrievalStore, record: AnswerLogRecord): Promise<{ subgraph: Subgraph; triplets: TripletRecord[] }> {
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
