// What bench:graph measures about the facts a library's import draws (and the corpus test asserts):
// the model-free graph of every document rebuilt from its stored sections exactly as an import
// builds it (core/graph/build-derived-graph.ts), timed, with the labelled triplets scored against it.
import type { Engine } from "../../core/model/engine-types.ts";
import { createEnglishNlp } from "../../core/extract/english-tokens.ts";
import { isNounPhraseText } from "../../core/extract/entity-names.ts";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import { documentAcronyms, type TripletGraphStats } from "../../core/graph/triplet-graph.ts";
import { MIN_ENTITY_NAME_LENGTH } from "../../core/model/graph-records.ts";
import type { Section } from "../../core/model/section-types.ts";
import { readLabelledTriplets, scoreTriplets, type ExtractedTriplet, type TripletPrecision } from "./graph-labels.ts";

export interface DocumentGraphFigures {
  file: string;
  language: string;
  pages: number;
  sections: number;
  triplets: number;
  entities: number;
  deadlines: number;
  crossReferences: number;
  terms: number;
  /** Mean distinct entities a section states a fact about (sections with at least one triplet). */
  entitiesPerSection: number;
  /** Sections with at least one triplet. */
  sectionsWithFacts: number;
  /** Entity names the tagger reads as a noun phrase (English documents; null for others). */
  nounPhraseShare: number | null;
  notNounPhrases: string[];
  /** Names shorter than MIN_ENTITY_NAME_LENGTH after trimming (the store refuses them). */
  emptyNames: number;
  /** Entities by party type ("authority", "regulated party", …). */
  parties: Record<string, number>;
  stats: TripletGraphStats;
  buildMs: number;
}

export interface GraphFigures {
  documents: DocumentGraphFigures[];
  precision: TripletPrecision;
  /** Over all documents. */
  totals: {
    pages: number;
    sections: number;
    triplets: number;
    entities: number;
    /** Mean distinct entities per section with facts, over all documents. */
    entitiesPerSection: number;
    nounPhraseShare: number;
    emptyNames: number;
    mergedEntities: number;
    acronymMerges: number;
    surfaceForms: number;
    mentions: number;
    refusedMentions: number;
    buildMsPer100Pages: number;
  };
}

/** Rebuilds every document's model-free graph from the library's sections, timed, and scores the labelled triplets. */
export async function graphFigures(engine: Engine): Promise<GraphFigures> {
  const docs = await engine.listDocuments();
  const sectionsOf = new Map<string, Section[]>();
  for (const d of docs) sectionsOf.set(d.id, await engine.getSections(d.id));
  const nlp = createEnglishNlp();
  const labels = readLabelledTriplets();
  const extracted: ExtractedTriplet[] = [];
  const acronyms = new Map<string, ReadonlyMap<string, string>>();
  const documents: DocumentGraphFigures[] = [];
  for (const d of docs) {
    const sections = sectionsOf.get(d.id) ?? [];
    const byId = new Map(sections.map((s) => [s.id, s]));
    const others = docs.filter((o) => o.id !== d.id).map((o) => ({ id: o.id, title: o.title, sections: sectionsOf.get(o.id) ?? [] }));
    const started = performance.now();
    let stats: TripletGraphStats | undefined;
    const graph = buildDerivedGraph({ id: d.id, title: d.title, language: d.language }, sections, others, {
      nlp,
      onTriplet: (triplet, obligation) => {
        const s = byId.get(triplet.sectionId);
        if (s !== undefined) extracted.push({ file: d.fileName, sectionLabel: s.label, sectionText: s.text, triplet, obligation });
      },
      onStats: (s) => (stats = s),
    });
    const buildMs = performance.now() - started;
    acronyms.set(d.fileName, documentAcronyms(sections));
    const english = d.language !== "it";
    const notNounPhrases = english ? graph.entities.filter((e) => !isNounPhraseText(nlp, e.name)).map((e) => e.name) : [];
    const perSection = new Map<string, Set<string>>();
    for (const t of graph.triplets) {
      const set = perSection.get(t.sectionId) ?? new Set<string>();
      for (const id of [t.subjectId, t.objectId, t.recipientId ?? ""]) if (id !== "") set.add(id);
      perSection.set(t.sectionId, set);
    }
    const parties: Record<string, number> = {};
    for (const e of graph.entities) if (e.party !== undefined && e.party !== "") parties[e.party] = (parties[e.party] ?? 0) + 1;
    documents.push({
      file: d.fileName,
      language: d.language,
      pages: d.pages,
      sections: sections.length,
      triplets: graph.triplets.length,
      entities: graph.entities.length,
      deadlines: graph.deadlines?.length ?? 0,
      crossReferences: graph.crossReferences.length,
      terms: graph.terms.length,
      entitiesPerSection: perSection.size === 0 ? 0 : [...perSection.values()].reduce((n, s) => n + s.size, 0) / perSection.size,
      sectionsWithFacts: perSection.size,
      nounPhraseShare: english ? (graph.entities.length === 0 ? 1 : 1 - notNounPhrases.length / graph.entities.length) : null,
      notNounPhrases,
      emptyNames: graph.entities.filter((e) => e.name.trim().length < MIN_ENTITY_NAME_LENGTH).length,
      parties,
      stats: stats ?? { mentions: 0, refusedMentions: 0, surfaceForms: 0, mergedEntities: 0, acronymMerges: 0, droppedTriplets: 0 },
      buildMs,
    });
  }
  const precision = scoreTriplets(labels.items, extracted, (f) => acronyms.get(f) ?? new Map());
  const sum = (f: (d: DocumentGraphFigures) => number): number => documents.reduce((n, d) => n + f(d), 0);
  const englishEntities = sum((d) => (d.nounPhraseShare === null ? 0 : d.entities));
  const pages = sum((d) => d.pages);
  return {
    documents,
    precision,
    totals: {
      pages,
      sections: sum((d) => d.sections),
      triplets: sum((d) => d.triplets),
      entities: sum((d) => d.entities),
      entitiesPerSection:
        sum((d) => d.entitiesPerSection * d.sectionsWithFacts) /
        Math.max(
          1,
          sum((d) => d.sectionsWithFacts),
        ),
      nounPhraseShare: englishEntities === 0 ? 1 : 1 - sum((d) => d.notNounPhrases.length) / englishEntities,
      emptyNames: sum((d) => d.emptyNames),
      mergedEntities: sum((d) => d.stats.mergedEntities),
      acronymMerges: sum((d) => d.stats.acronymMerges),
      surfaceForms: sum((d) => d.stats.surfaceForms),
      mentions: sum((d) => d.stats.mentions),
      refusedMentions: sum((d) => d.stats.refusedMentions),
      buildMsPer100Pages: pages === 0 ? 0 : (sum((d) => d.buildMs) / pages) * 100,
    },
  };
}
