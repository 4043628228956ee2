import type { Embedder } from "../embed/embedder.ts";
import type { DocumentRecord } from "../store/graph-store.ts";
import type { Section } from "../structure/types.ts";
import { bm25Stage } from "./bm25-stage.ts";
import { linearScore, rankFeature } from "./fusion.ts";
import { DEFAULT_EXPANSION, graphExpansionStage, type ExpansionOptions } from "./graph-expansion-stage.ts";
import { analyzeQuery } from "./query-terms.ts";
import { poolStats, termFeatures, type CandidateText } from "./rescore.ts";
import type { RetrievalStore } from "./retrieval-store.ts";
import { tripletStage } from "./triplet-stage.ts";
import type { RankedSection, SectionEvidence, StageSwitches } from "./types.ts";
import { vectorStage } from "./vector-stage.ts";
import { activeWeights, DEFAULT_WEIGHTS, FUSION_FEATURES, type HybridWeights } from "./weights.ts";

export interface HybridSearchOptions {
  /** Results returned. */
  k: number;
  stages: StageSwitches;
  weights?: Partial<HybridWeights>;
  /** Candidates each first-stage retriever contributes (default 100 for BM25, 100 vectors, 50 triplets). */
  bm25Pool?: number;
  vectorPool?: number;
  tripletPool?: number;
  /** First-pass sections graph expansion starts from (default 10). */
  expansionSeeds?: number;
  expansion?: ExpansionOptions;
  /** Drop the request vocabulary ("what specific requirements…") from the BM25 query (default true). */
  dropRequestWords?: boolean;
}

interface Candidate {
  id: string;
  section?: Section;
  document?: DocumentRecord;
  evidence: SectionEvidence;
}

const DOC_PRIOR_DEPTH = 20;
const ANCESTOR_LEVELS = 3;

function candidateOf(pool: Map<string, Candidate>, id: string): Candidate {
  let c = pool.get(id);
  if (!c) {
    c = { id, evidence: { stages: {}, tripletIds: [], links: [], features: {} } };
    pool.set(id, c);
  }
  return c;
}

function sortByScore<T extends { score: number; id: string }>(items: T[]): T[] {
  return items.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

async function hydrate(store: RetrievalStore, pool: Map<string, Candidate>): Promise<void> {
  const missing = [...pool.values()].filter((c) => !c.section).map((c) => c.id);
  if (missing.length === 0) return;
  for (const { section, document } of await store.getSectionsByIds(missing)) {
    const c = pool.get(section.id);
    if (c) {
      c.section = section;
      c.document = document;
    }
  }
}

/** Own label and heading, then the headings of up to three ancestors. */
async function contexts(store: RetrievalStore, sections: readonly Section[]): Promise<Map<string, string>> {
  const known = new Map<string, Section>(sections.map((s) => [s.id, s]));
  let frontier = sections.map((s) => s.parentId).filter((id): id is string => id !== null && !known.has(id));
  for (let level = 0; level < ANCESTOR_LEVELS && frontier.length > 0; level++) {
    const fetched = await store.getSectionsByIds([...new Set(frontier)]);
    for (const { section } of fetched) known.set(section.id, section);
    frontier = fetched.map((f) => f.section.parentId).filter((id): id is string => id !== null && !known.has(id));
  }
  const out = new Map<string, string>();
  for (const s of sections) {
    const parts = [s.label, s.heading];
    let parent = s.parentId === null ? undefined : known.get(s.parentId);
    for (let level = 0; level < ANCESTOR_LEVELS && parent; level++) {
      parts.push(parent.heading);
      parent = parent.parentId === null ? undefined : known.get(parent.parentId);
    }
    out.set(s.id, parts.filter((p) => p !== "").join(" "));
  }
  return out;
}

function stageFeatures(c: Candidate, bm25Max: number): void {
  const f = c.evidence.features;
  const bm25 = c.evidence.stages.bm25;
  f.bm25 = bm25 && bm25Max > 0 ? bm25.score / bm25Max : 0;
  f.bm25Rank = rankFeature(bm25?.rank);
  const vec = c.evidence.stages.sectionVectors;
  f.vector = vec ? Math.max(0, vec.score) : 0;
  f.vectorRank = rankFeature(vec?.rank);
  const trip = c.evidence.stages.tripletVectors;
  f.triplet = trip ? Math.max(0, trip.score) : 0;
  f.graph = c.evidence.stages.graphExpansion?.score ?? 0;
}

/**
 * Hybrid retrieval: BM25, section vectors and triplet vectors find candidates; graph expansion
 * adds the parents, children and cited sections of the best ones; a linear fusion (plus the
 * query-term re-scoring when on) orders them. Every stage can be switched off; a result keeps the
 * evidence of each stage that found it.
 */
export async function hybridSearch(
  store: RetrievalStore,
  embedder: Embedder | null,
  query: string,
  options: HybridSearchOptions,
): Promise<RankedSection[]> {
  const { stages } = options;
  const weights: HybridWeights = { ...DEFAULT_WEIGHTS, ...options.weights };
  const analyzed = analyzeQuery(query, { dropRequestWords: options.dropRequestWords ?? true });
  const wantVectors = embedder !== null && (stages.sectionVectors || stages.tripletVectors);
  const queryVector = wantVectors ? ((await embedder.embedQueries([query]))[0] ?? null) : null;

  const [bm25Hits, vectorHits, tripletHits] = await Promise.all([
    stages.bm25 ? bm25Stage(store, analyzed.bm25Text, options.bm25Pool ?? 100) : Promise.resolve([]),
    stages.sectionVectors ? vectorStage(store, queryVector, options.vectorPool ?? 100) : Promise.resolve([]),
    stages.tripletVectors ? tripletStage(store, queryVector, options.tripletPool ?? 50) : Promise.resolve([]),
  ]);

  const pool = new Map<string, Candidate>();
  bm25Hits.forEach((hit, i) => {
    const c = candidateOf(pool, hit.section.id);
    c.section = hit.section;
    c.document = hit.document;
    c.evidence.stages.bm25 = { rank: i + 1, score: hit.score };
  });
  vectorHits.forEach((hit, i) => {
    candidateOf(pool, hit.id).evidence.stages.sectionVectors = { rank: i + 1, score: hit.score };
  });
  tripletHits.forEach((hit, i) => {
    const c = candidateOf(pool, hit.sectionId);
    c.evidence.stages.tripletVectors = { rank: i + 1, score: hit.score };
    c.evidence.tripletIds = hit.tripletIds;
  });
  const bm25Max = bm25Hits[0]?.score ?? 0;
  const fusionWeights: Record<string, number> = {};
  for (const name of FUSION_FEATURES) fusionWeights[name] = name === "graph" ? 0 : weights[name];
  const firstPass = (): Array<{ id: string; score: number }> =>
    sortByScore(
      [...pool.values()].map((c) => {
        stageFeatures(c, bm25Max);
        return { id: c.id, score: linearScore(c.evidence.features, fusionWeights) };
      }),
    );

  if (stages.graphExpansion) {
    const ranked = firstPass();
    const top = ranked[0]?.score ?? 0;
    const seeds = ranked.slice(0, options.expansionSeeds ?? 10).map((r) => ({ sectionId: r.id, score: top > 0 ? r.score / top : 0 }));
    await hydrate(store, pool);
    const sectionsById = new Map<string, Section>();
    for (const c of pool.values()) if (c.section) sectionsById.set(c.id, c.section);
    const expanded = await graphExpansionStage(store, seeds, sectionsById, options.expansion ?? DEFAULT_EXPANSION);
    expanded.forEach((hit, i) => {
      const c = candidateOf(pool, hit.sectionId);
      c.evidence.stages.graphExpansion = { rank: i + 1, score: hit.score };
      c.evidence.links = hit.links;
    });
  }

  await hydrate(store, pool);
  const candidates = [...pool.values()].filter((c): c is Candidate & { section: Section; document: DocumentRecord } => !!c.section && !!c.document);
  for (const c of candidates) stageFeatures(c, bm25Max);

  if (stages.rescore) {
    const context = await contexts(store, candidates.map((c) => c.section));
    const texts: CandidateText[] = candidates.map((c) => ({ id: c.id, text: c.section.text, context: context.get(c.id) ?? "" }));
    const stats = poolStats(analyzed.stems, texts);
    // The document prior: a question is usually about one rulebook, and the first pass tells which.
    const ranked = firstPass();
    const docMass = new Map<string, number>();
    let mass = 0;
    for (const r of ranked.slice(0, DOC_PRIOR_DEPTH)) {
      const doc = pool.get(r.id)?.document?.id ?? pool.get(r.id)?.section?.documentId;
      if (doc === undefined || r.score <= 0) continue;
      docMass.set(doc, (docMass.get(doc) ?? 0) + r.score);
      mass += r.score;
    }
    for (const c of candidates) {
      const f = c.evidence.features;
      Object.assign(f, termFeatures(analyzed.stems, c.id, stats));
      f.docPrior = mass > 0 ? (docMass.get(c.section.documentId) ?? 0) / mass : 0;
      f.emptyText = c.section.text.trim() === "" ? 1 : 0;
    }
  }

  const active = activeWeights(weights, stages.rescore);
  const scored = candidates.map((c) => ({ id: c.id, c, score: linearScore(c.evidence.features, active) }));
  return sortByScore(scored)
    .slice(0, Math.max(0, options.k))
    .map((s, i) => ({ section: s.c.section, document: s.c.document, score: s.score, rank: i + 1, evidence: s.c.evidence }));
}
