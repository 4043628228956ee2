import type { Embedder } from "../model/embedder.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import type { Section } from "../model/section-types.ts";
import { bm25Stage } from "./bm25-stage.ts";
import { linearScore, rankFeature } from "./fusion.ts";
import { DEFAULT_EXPANSION, graphExpansionStage, type ExpansionOptions } from "./graph-expansion-stage.ts";
import { instrumentsOfDocument, sensesByRegulation, thesaurusExpansion } from "./legal-thesaurus.ts";
import { analyzeQuery } from "./query-terms.ts";
import {
  DEFAULT_FEEDBACK,
  feedbackModel,
  feedbackScore,
  neighbourFeatures,
  poolStats,
  termFeatures,
  textLength,
  type CandidateText,
  type FeedbackOptions,
} from "./rescore.ts";
import type { RetrievalStore } from "../store/retrieval-store.ts";
import { createRetrievalCaches, type ContextCache, type RetrievalCaches } from "./retrieval-caches.ts";
import { poolCosines } from "./section-cosine.ts";
import { isDefinitionQuestion, termStage } from "./term-stage.ts";
import { tripletStage } from "./triplet-stage.ts";
import type { RankedSection, SectionEvidence, StageSwitches } from "../model/retrieval-types.ts";
import { vectorStage } from "./vector-stage.ts";
import { activeWeights, DEFAULT_WEIGHTS, FUSION_FEATURES, POOL_FEATURES, type HybridWeights } from "./weights.ts";

export interface HybridSearchOptions {
  /** Results returned. */
  k: number;
  stages: StageSwitches;
  weights?: Partial<HybridWeights>;
  /** Candidates each first-stage retriever contributes (default 150 for BM25, 100 vectors, 50 triplets). */
  bm25Pool?: number;
  vectorPool?: number;
  tripletPool?: number;
  /** First-pass sections graph expansion starts from (default 10). */
  expansionSeeds?: number;
  expansion?: ExpansionOptions;
  /** Drop the request vocabulary ("what specific requirements…") from the BM25 query (default true). */
  dropRequestWords?: boolean;
  /** Add the regulatory wording of lay expressions to the BM25 query (default true). */
  thesaurus?: boolean;
  /** Pseudo-relevance feedback of the re-scoring (feedback sections and words). */
  feedback?: FeedbackOptions;
  /**
   * What is remembered between searches (stems, headings, section vectors): the engine passes
   * its own; without one each search starts cold.
   */
  caches?: RetrievalCaches;
  /** Told how long each phase took (ms), for benchmarks. */
  profile?: (phase: string, ms: number) => void;
  /**
   * Keep to these documents (a question naming "DORA" is answered from DORA: question-scope.ts).
   * Empty or absent: the whole library.
   */
  documentIds?: readonly string[];
  /** Told the instruments whose senses of the lay words were kept, when the first hits narrowed them (legal-thesaurus.ts). */
  onSenses?: (instruments: ReadonlySet<string>) => void;
}

interface Candidate {
  id: string;
  section?: Section;
  document?: DocumentRecord;
  evidence: SectionEvidence;
}

const DOC_PRIOR_DEPTH = 20;
/** The first lexical hits whose instruments choose the sense of a lay word (sensesByRegulation). */
const SENSE_VOTERS = 20;
/** A term named in a question that does not ask what it means: its definition is context, not the answer. */
const DEFINITION_SIDE_WEIGHT = 0.1;
// A deeper BM25 pool holds more gold passages, with diminishing returns; 150 keeps most of what
// 200 adds for half the extra Kuzu time. A second BM25 query with feedback words found fewer gold
// passages than the plain deeper pool, at the price of a whole extra query, so it is not done
// (figures: docs/benchmarks/retrieval.md).
const DEFAULT_BM25_POOL = 150;
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

// Ancestor headings change only when a document is re-imported, which gives new section rows;
// caching them saves up to three store round trips per query. Keyed by what the context is
// made of (id, parent, own heading) so a changed section is not served a stale context.
const contextKey = (s: Section): string => `${s.id}\u0000${s.parentId ?? ""}\u0000${s.label}\u0000${s.heading}`;

/** Own label and heading, then the headings of up to three ancestors. */
async function contexts(store: RetrievalStore, all: readonly Section[], cache: ContextCache): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const sections: Section[] = [];
  for (const s of all) {
    const hit = cache.get(contextKey(s));
    if (hit === undefined) sections.push(s);
    else out.set(s.id, hit);
  }
  if (sections.length === 0) return out;
  const known = new Map<string, Section>(sections.map((s) => [s.id, s]));
  let frontier = sections.map((s) => s.parentId).filter((id): id is string => id !== null && !known.has(id));
  for (let level = 0; level < ANCESTOR_LEVELS && frontier.length > 0; level++) {
    const fetched = await store.getSectionsByIds([...new Set(frontier)]);
    for (const { section } of fetched) known.set(section.id, section);
    frontier = fetched.map((f) => f.section.parentId).filter((id): id is string => id !== null && !known.has(id));
  }
  cache.reserve(sections.length);
  for (const s of sections) {
    const parts = [s.label, s.heading];
    let parent = s.parentId === null ? undefined : known.get(s.parentId);
    for (let level = 0; level < ANCESTOR_LEVELS && parent; level++) {
      parts.push(parent.heading);
      parent = parent.parentId === null ? undefined : known.get(parent.parentId);
    }
    const context = parts.filter((p) => p !== "").join(" ");
    out.set(s.id, context);
    cache.set(contextKey(s), context);
  }
  return out;
}

/**
 * Every candidate's vector: the stored ones (the store reads them from the matrix it scans, no
 * query), and for the rest the same text embedded now and remembered. Embedding the pool's
 * sections is a noticeable part of a cold search.
 */
async function candidateVectors(
  store: RetrievalStore,
  embedder: Embedder,
  sections: readonly Section[],
  caches: RetrievalCaches,
): Promise<Map<string, Float32Array>> {
  const stored =
    store.sectionVectorsByIds === undefined
      ? new Map<string, Float32Array>()
      : await store.sectionVectorsByIds(
          sections.map((s) => s.id),
          embedder.id,
        );
  const missing = sections.filter((s) => !stored.has(s.id));
  if (missing.length === 0) return stored;
  for (const [id, vector] of await caches.sectionVectors.vectors(embedder, missing)) stored.set(id, vector);
  return stored;
}

interface ScoreRange {
  bm25Max: number;
  vectorMin: number;
  vectorMax: number;
}

function stageFeatures(c: Candidate, range: ScoreRange): void {
  const f = c.evidence.features;
  const bm25 = c.evidence.stages.bm25;
  f.bm25 = bm25 && range.bm25Max > 0 ? bm25.score / range.bm25Max : 0;
  f.bm25Rank = rankFeature(bm25?.rank);
  const vec = c.evidence.stages.sectionVectors;
  f.vector = vec ? Math.max(0, vec.score) : 0;
  // Static-vector cosines crowd into a narrow band near 1 whatever the question; spread over the hits they
  // say more than the raw value.
  const spread = range.vectorMax - range.vectorMin;
  f.vectorNorm = vec && spread > 0 ? (vec.score - range.vectorMin) / spread : 0;
  f.vectorRank = rankFeature(vec?.rank);
  const trip = c.evidence.stages.tripletVectors;
  f.triplet = trip ? Math.max(0, trip.score) : 0;
  f.graph = c.evidence.stages.graphExpansion?.score ?? 0;
  // Citations apart from structure: on ObliQA, parents and children reached from a seed are
  // mostly noise (fitted graph weight < 0), while a rule cited by (or citing) a strong match is
  // what cross-reference questions (XRefRAG) need.
  f.citation = c.evidence.links.some((l) => l.relation === "cites" || l.relation === "cited-by") ? f.graph : 0;
}

// Long function: the retrieval stages in their order, each a call with its switch.
/**
 * Hybrid retrieval: BM25, section vectors and triplet vectors find candidates; graph expansion
 * adds the parents, children and cited sections of the best ones; a linear fusion (plus the
 * query-term re-scoring when on) orders them. Every stage can be switched off; a result keeps the
 * evidence of each stage that found it.
 */
export async function hybridSearch(store: RetrievalStore, embedder: Embedder | null, query: string, options: HybridSearchOptions): Promise<RankedSection[]> {
  const { stages } = options;
  const caches = options.caches ?? createRetrievalCaches();
  let clock = performance.now();
  const lap = (phase: string): void => {
    if (!options.profile) return;
    const now = performance.now();
    options.profile(phase, now - clock);
    clock = now;
  };
  const weights: HybridWeights = { ...DEFAULT_WEIGHTS, ...options.weights };
  const analyzed = analyzeQuery(query, { dropRequestWords: options.dropRequestWords ?? true });
  const expansion = (options.thesaurus ?? true) ? thesaurusExpansion(query) : [];
  const bm25Text = expansion.length > 0 ? `${analyzed.bm25Text} ${expansion.join(" ")}` : analyzed.bm25Text;
  const wantVectors = embedder !== null && (stages.sectionVectors || stages.tripletVectors);
  const queryVector = wantVectors ? ((await embedder.embedQueries([query]))[0] ?? null) : null;

  // A scope filters every stage's hits; the first-stage pools are doubled so that enough of the
  // scoped documents' sections remain when other documents crowd the unscoped ranking.
  const scope = options.documentIds !== undefined && options.documentIds.length > 0 ? new Set(options.documentIds) : null;
  const widen = scope === null ? 1 : 2;
  /** Section ids are `<documentId>:<path slug>` (model/section-types.ts); the hydrated section is checked again below. */
  const inScope = (sectionId: string): boolean => scope === null || scope.has(sectionId.slice(0, sectionId.indexOf(":")));
  // The defined terms a question names need nothing from the other stages: looked up meanwhile.
  const termHits = stages.graphExpansion ? termStage(store, query) : null;
  // Awaited below; a failure before then must not surface as an unhandled rejection.
  termHits?.catch(() => undefined);
  const [bm25All, vectorAll, tripletAll] = await Promise.all([
    stages.bm25 ? bm25Stage(store, bm25Text, (options.bm25Pool ?? DEFAULT_BM25_POOL) * widen) : Promise.resolve([]),
    stages.sectionVectors ? vectorStage(store, queryVector, (options.vectorPool ?? 100) * widen) : Promise.resolve([]),
    stages.tripletVectors ? tripletStage(store, queryVector, (options.tripletPool ?? 50) * widen) : Promise.resolve([]),
  ]);
  let bm25Hits = scope === null ? bm25All : bm25All.filter((h) => scope.has(h.document.id));
  if (stages.bm25 && expansion.length > 0) {
    // Rule "a word's sense follows the question's regulation" (legal-thesaurus.ts): the first
    // hits vote with their documents' instruments, and the lexical query is run again with the
    // senses of the instruments they chose.
    const votes = new Map<string, number>();
    for (const hit of bm25Hits.slice(0, SENSE_VOTERS)) {
      for (const id of instrumentsOfDocument(hit.document.aliases ?? [])) votes.set(id, (votes.get(id) ?? 0) + 1);
    }
    const senses = sensesByRegulation(query, votes);
    if (senses !== null) {
      options.onSenses?.(senses);
      const narrowed = thesaurusExpansion(query, senses);
      const again = await bm25Stage(
        store,
        narrowed.length > 0 ? `${analyzed.bm25Text} ${narrowed.join(" ")}` : analyzed.bm25Text,
        (options.bm25Pool ?? DEFAULT_BM25_POOL) * widen,
      );
      bm25Hits = scope === null ? again : again.filter((h) => scope.has(h.document.id));
    }
  }
  const vectorHits = scope === null ? vectorAll : vectorAll.filter((h) => inScope(h.id));
  const tripletHits = scope === null ? tripletAll : tripletAll.filter((h) => inScope(h.sectionId));
  lap("retrieve");

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
  const range: ScoreRange = {
    bm25Max: bm25Hits[0]?.score ?? 0,
    vectorMax: vectorHits[0]?.score ?? 0,
    vectorMin: vectorHits.at(-1)?.score ?? 0,
  };
  const fusionWeights: Record<string, number> = {};
  for (const name of FUSION_FEATURES) fusionWeights[name] = name === "graph" || name === "citation" || name === "definition" ? 0 : weights[name];
  const firstPass = (): Array<{ id: string; score: number }> =>
    sortByScore(
      [...pool.values()].map((c) => {
        stageFeatures(c, range);
        return { id: c.id, score: linearScore(c.evidence.features, fusionWeights) };
      }),
    );

  if (stages.graphExpansion) {
    const ranked = firstPass();
    const top = ranked[0]?.score ?? 0;
    const seeds = ranked.slice(0, options.expansionSeeds ?? 10).map((r) => ({ sectionId: r.id, score: top > 0 ? r.score / top : 0 }));
    const sectionsOf = async (): Promise<Map<string, Section>> => {
      await hydrate(store, pool);
      const sectionsById = new Map<string, Section>();
      for (const c of pool.values()) if (c.section) sectionsById.set(c.id, c.section);
      return sectionsById;
    };
    const expanded = await graphExpansionStage(store, seeds, sectionsOf, options.expansion ?? DEFAULT_EXPANSION);
    expanded.forEach((hit, i) => {
      if (!inScope(hit.sectionId)) return;
      const c = candidateOf(pool, hit.sectionId);
      c.evidence.stages.graphExpansion = { rank: i + 1, score: hit.score };
      c.evidence.links = hit.links;
    });
    // The sections defining terms the question names: "what is a business associate?" is
    // answered by a definition that may share no other word with the question.
    const definitional = isDefinitionQuestion(query);
    for (const hit of (await termHits) ?? []) {
      if (!inScope(hit.sectionId)) continue;
      const c = candidateOf(pool, hit.sectionId);
      c.evidence.stages.graphExpansion ??= { rank: expanded.length + 1, score: 0 };
      for (const termId of hit.termIds) c.evidence.links.push({ from: termId, relation: "term" });
      c.evidence.features.definition = hit.score * (definitional ? 1 : DEFINITION_SIDE_WEIGHT);
    }
    lap("expand");
  }

  await hydrate(store, pool);
  lap("hydrate");
  const candidates = [...pool.values()].filter(
    (c): c is Candidate & { section: Section; document: DocumentRecord } => !!c.section && !!c.document && (scope === null || scope.has(c.document.id)),
  );
  for (const c of candidates) stageFeatures(c, range);

  if (stages.rescore) {
    const context = await contexts(
      store,
      candidates.map((c) => c.section),
      caches.contexts,
    );
    lap("contexts");
    const texts: CandidateText[] = candidates.map((c) => ({ id: c.id, text: c.section.text, context: context.get(c.id) ?? "" }));
    const stats = poolStats(analyzed.stems, texts, caches.stems);
    const cosines =
      embedder !== null && queryVector !== null
        ? poolCosines(
            queryVector,
            await candidateVectors(
              store,
              embedder,
              candidates.map((c) => c.section),
              caches,
            ),
            candidates.map((c) => c.id),
          )
        : new Map<string, number>();
    lap("cosines");
    for (const c of candidates) {
      const f = c.evidence.features;
      Object.assign(f, termFeatures(analyzed.stems, c.id, stats));
      f.phrase = termFeatures(analyzed.stems, c.id, stats, 1).proximity;
      f.poolCosine = cosines.get(c.id) ?? 0;
      // A length prior in [0, 1] (1 at ~1,100 words): BM25 length normalisation is tuned for
      // general text, while rules that answer a question tend to be substantive paragraphs.
      f.length = Math.min(1, Math.log1p(textLength(stats, c.id)) / 7);
      f.emptyText = c.section.text.trim() === "" ? 1 : 0;
    }
    // The pool-level evidence (document prior, feedback words, neighbours) is read from the
    // ranking by fusion and term features together: on ObliQA dev that ranking is already better
    // than fusion alone, so its top sections are better feedback.
    const baseWeights = activeWeights(weights, true);
    for (const name of POOL_FEATURES) baseWeights[name] = 0;
    const ranked = sortByScore(candidates.map((c) => ({ id: c.id, score: linearScore(c.evidence.features, baseWeights) })));
    // The document prior: a question is usually about one rulebook, and the first pass tells which.
    const docMass = new Map<string, number>();
    let mass = 0;
    const floor = Math.min(0, ranked[Math.min(ranked.length, DOC_PRIOR_DEPTH) - 1]?.score ?? 0);
    for (const r of ranked.slice(0, DOC_PRIOR_DEPTH)) {
      const doc = pool.get(r.id)?.section?.documentId;
      const w = r.score - floor;
      if (doc === undefined || w <= 0) continue;
      docMass.set(doc, (docMass.get(doc) ?? 0) + w);
      mass += w;
    }
    const model = feedbackModel(ranked, analyzed.stems, stats, options.feedback ?? DEFAULT_FEEDBACK);
    const neighbours = neighbourFeatures(
      candidates.map((c) => ({ id: c.id, parentId: c.section.parentId })),
      new Map(ranked.map((r) => [r.id, r.score])),
    );
    for (const c of candidates) {
      const f = c.evidence.features;
      f.docPrior = mass > 0 ? (docMass.get(c.section.documentId) ?? 0) / mass : 0;
      f.feedback = feedbackScore(model, c.id, stats);
      Object.assign(f, neighbours.get(c.id));
    }
    lap("rescore");
  }

  const active = activeWeights(weights, stages.rescore);
  const scored = candidates.map((c) => ({ id: c.id, c, score: linearScore(c.evidence.features, active) }));
  return sortByScore(scored)
    .slice(0, Math.max(0, options.k))
    .map((s, i) => ({ section: s.c.section, document: s.c.document, score: s.score, rank: i + 1, evidence: s.c.evidence }));
}
