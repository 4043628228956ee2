import { documentScope } from "../answer/index.ts";
import type { SearchOptions, SearchResponse, SearchResult } from "../model/engine-types.ts";
import type { RankedSection, StageName, StageSwitches } from "../model/retrieval-types.ts";
import { hybridSearch } from "../retrieve/hybrid-search.ts";
import { makeSnippet } from "../retrieve/snippet.ts";
import { buildSubgraph } from "../retrieve/subgraph.ts";
import { ALL_STAGES, type EngineContext } from "./context.ts";

/** Triplets returned with a search, and results whose triplets are collected. */
const MAX_SEARCH_TRIPLETS = 40;
const TRIPLET_SECTIONS = 10;

/**
 * Starts reading what the retrieval will need from the library (vectors, citations and terms),
 * held after the first time, while the caller reads the question and loads its models: on a
 * cold start these reads wait on the disk and the database, that work on the processor.
 */
export function readAhead(ctx: EngineContext): void {
  ctx.store.prepareSearch().catch((err: unknown) => ctx.log(`reading ahead for a search failed: ${String(err)}`));
}

/** The search box: ranked sections, their triplets and the evidence graph. */
export function searchLibrary(ctx: EngineContext, query: string, opts: SearchOptions = {}): Promise<SearchResponse> {
  readAhead(ctx);
  // Interactive: an import's graph work waits for it.
  return ctx.foreground.run(async () => {
    const started = performance.now();
    const k = Math.max(1, Math.min(100, Math.floor(opts.k ?? 10)));
    const stages: StageSwitches = { ...ALL_STAGES, ...opts.stages };
    const embedder = stages.sectionVectors || stages.tripletVectors ? await ctx.getEmbedder() : null;
    // A query naming an imported instrument ("DORA incident reporting") searches that document.
    const scope = documentScope(query, (await ctx.libraryNames()).documents, ctx.languageResources).documentIds;
    const ranked: RankedSection[] = await hybridSearch(ctx.store, embedder, query, {
      k,
      stages,
      caches: ctx.retrievalCaches,
      ...(scope.length > 0 ? { documentIds: scope } : {}),
    });
    const retrieveMs = performance.now() - started;
    const top = ranked.slice(0, TRIPLET_SECTIONS);
    const [triplets, subgraph] = await Promise.all([
      ctx.store.getTripletsForSections(top.map((r) => r.section.id)),
      buildSubgraph(ctx.store, ranked, { query }),
    ]);
    // Triplets the query's vector matched come first, then the rest in result order.
    const matched = new Set(top.flatMap((r) => r.evidence.tripletIds));
    const order = new Map(top.map((r, i) => [r.section.id, i]));
    triplets.sort(
      (a, b) => Number(matched.has(b.id)) - Number(matched.has(a.id)) || (order.get(a.sectionId) ?? 0) - (order.get(b.sectionId) ?? 0) || a.start - b.start,
    );
    return {
      query,
      results: ranked.map((r) => toSearchResult(r, query)),
      triplets: triplets.slice(0, MAX_SEARCH_TRIPLETS),
      subgraph,
      timings: { retrieveMs, totalMs: performance.now() - started },
    };
  });
}

function toSearchResult({ section, document, score, evidence }: RankedSection, query: string): SearchResult {
  return {
    foundBy: (Object.keys(evidence.stages) as StageName[]).sort(),
    sectionId: section.id,
    documentId: document.id,
    file: document.file,
    label: section.label,
    heading: section.heading,
    path: section.path,
    pageStart: section.pageStart,
    pageEnd: section.pageEnd,
    score,
    text: makeSnippet(section.text || section.heading, query),
  };
}
