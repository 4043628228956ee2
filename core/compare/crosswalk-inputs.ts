import type { Embedder } from "../model/embedder.ts";
import type { ProvisionScope } from "../model/engine-types.ts";
import { isZeroVector } from "../model/embedder.ts";
import { ClauseGraphError } from "../model/errors.ts";
import { buildTerms } from "../graph/term-graph.ts";
import type { GraphStore } from "../store/graph-store.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import type { ScoredId } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";
import { candidatesPerSearch, vectorCandidates, type CrosswalkInput } from "./build-crosswalk.ts";
import { citationLinks, headingCitations, type CitationSide } from "./crosswalk-citations.ts";
import type { EnglishStems } from "../text/index.ts";
import { compareLanguage, definedTermMatchers, profileDocument, type SectionProfile } from "./section-profile.ts";

// Everything a crosswalk is computed from, read from the library: both sides' sections,
// obligations, defined terms and citations, their stored vectors, the embeddings of their
// headings, and the nearest neighbours of each A section among B's through the vector index.

export type CompareStore = Pick<GraphStore, "getSections" | "getTriplets" | "getCrossReferences" | "getSectionVectors" | "nearestSections">;

export interface LoadedCrosswalk {
  input: CrosswalkInput;
  /** Every section of both sides (provisions and containers), by id. */
  sections: Map<string, Section>;
  documents: Map<string, DocumentRecord>;
}

export interface LoadOptions {
  k: number;
  /** Operative provisions only (the default), or every section with text. */
  provisions: ProvisionScope;
  /** Called between the steps, so a cancel stops the load early. */
  checkpoint?: () => void;
  /** Progress of the nearest-neighbour searches: (done, total). */
  onNeighbours?: (done: number, total: number) => void;
  /** The comparisons' stem cache (core/text/stem-porter.ts). */
  stems: EnglishStems;
}

/**
 * The provisions that bind: a crosswalk of DORA against NIST SP 800-171 filled with DORA's recitals
 * and matched Art. 9 to "Appendix B GLOSSARY" and Art. 28 to "Chapter 1 INTRODUCTION". A document
 * whose sections are all of other kinds (an unstructured text) keeps them all.
 */
export function provisionsToAlign(profiles: readonly SectionProfile[], scope: ProvisionScope): SectionProfile[] {
  if (scope === "all") return [...profiles];
  const operative = profiles.filter((p) => p.role === "operative");
  return operative.length > 0 ? operative : [...profiles];
}

/** Queries per store call: the store serves one request at a time, so searches and asks interleave. */
const NEIGHBOUR_BATCH = 32;
const EMBED_BATCH = 64;

async function embedHeadings(embedder: Embedder, profiles: readonly SectionProfile[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  const items = profiles.filter((p) => p.headingContext !== "");
  for (let i = 0; i < items.length; i += EMBED_BATCH) {
    const batch = items.slice(i, i + EMBED_BATCH);
    const vectors = await embedder.embedDocuments(batch.map((p) => p.headingContext));
    vectors.forEach((v, j) => {
      const p = batch[j];
      if (p !== undefined && !isZeroVector(v)) out.set(p.section.id, v);
    });
  }
  return out;
}

export async function loadCrosswalkInput(
  store: CompareStore,
  embedder: Embedder | null,
  a: DocumentRecord,
  b: readonly DocumentRecord[],
  options: LoadOptions,
): Promise<LoadedCrosswalk> {
  if (b.length === 0) throw new ClauseGraphError("VALIDATION", `There is nothing to compare ${a.fileName} with: the library holds no other document`);
  const step = options.checkpoint ?? (() => {});
  const sides: CitationSide[] = [];
  const triplets = new Map<string, Awaited<ReturnType<CompareStore["getTriplets"]>>>();
  for (const doc of [a, ...b]) {
    sides.push({ document: doc, sections: await store.getSections(doc.id) });
    triplets.set(doc.id, await store.getTriplets(doc.id));
    step();
  }
  const sections = new Map<string, Section>();
  for (const side of sides) for (const s of side.sections) sections.set(s.id, s);
  // Defined terms of every side, matched in every section: a term DORA defines and the GDPR uses is shared.
  const matchers = definedTermMatchers(sides.flatMap((side) => buildTerms(side.document.id, side.sections, compareLanguage(side.document))));
  const profiles = sides.map((side) =>
    profileDocument({
      document: side.document,
      sections: side.sections,
      triplets: triplets.get(side.document.id) ?? [],
      termMatchers: matchers,
      stems: options.stems,
    }),
  );
  const kept = profiles.map((side) => provisionsToAlign(side, options.provisions));
  const profilesA = kept[0] ?? [];
  const profilesB = kept.slice(1).flat();
  step();

  const vectors = await store.getSectionVectors([a.id, ...b.map((d) => d.id)]);
  const headingVectors = embedder === null ? new Map<string, Float32Array>() : await embedHeadings(embedder, [...profilesA, ...profilesB]);
  step();

  const aIds = new Set(profilesA.map((p) => p.section.id));
  const textReferences = await store.getCrossReferences([...aIds]);
  const headingReferences = sides.flatMap((side) => headingCitations(side, sides));
  const bSections = sides.slice(1).flatMap((side) => side.sections);
  const citations = citationLinks(aIds, bSections, sections, textReferences, headingReferences);
  step();

  const m = candidatesPerSearch(options.k);
  const mv = vectorCandidates(options.k);
  const vectorNeighbours = new Map<string, ScoredId[]>();
  const queries = profilesA.flatMap((p) => {
    const vector = vectors.get(p.section.id);
    return vector === undefined ? [] : [{ id: p.section.id, vector }];
  });
  const bDocs = b.map((d) => d.id);
  for (let i = 0; i < queries.length; i += NEIGHBOUR_BATCH) {
    step();
    const found = await store.nearestSections(queries.slice(i, i + NEIGHBOUR_BATCH), mv, bDocs);
    for (const [id, list] of found) vectorNeighbours.set(id, list);
    options.onNeighbours?.(Math.min(queries.length, i + NEIGHBOUR_BATCH), queries.length);
  }
  return {
    input: { a: profilesA, b: profilesB, k: options.k, candidates: m, vectorCandidates: mv, vectorNeighbours, vectors, headingVectors, citations },
    sections,
    documents: new Map([a, ...b].map((d) => [d.id, d])),
  };
}
