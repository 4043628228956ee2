import type { ZodType } from "zod";
import { ClauseGraphError } from "../model/errors.ts";
import type { ComparisonRecord, SimilarToRecord } from "../model/comparison-records.ts";
import type { GraphStore } from "../store/graph-store.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import type { Section } from "../model/section-types.ts";
import {
  evidenceSchema,
  flagSchema,
  matchReasonsSchema,
  pairVerdictSchema,
  type ComparisonSummary,
  type Crosswalk,
  type CrosswalkMatch,
  type CrosswalkRow,
} from "../model/compare-schemas.ts";
import { contentWords } from "./compare-text.ts";
import type { EnglishStems } from "../text/index.ts";
import { MATCH_THRESHOLD, SCORER_VERSION } from "./crosswalk-model.ts";
import { compareLanguage, MIN_CONTENT_WORDS } from "./section-profile.ts";

// A stored comparison as the CLI, the exports and the Compare view read it: one row per provision
// of A (in document order, those without a match included), its matches with their reasons, flags
// and verdicts parsed back from the edges' JSON, and whether the result is still what a new run
// would give (another embedding model, a newer scorer, a library that changed since).

export type ViewStore = Pick<GraphStore, "getComparison" | "getComparisonEdges" | "getSections" | "getSectionsByIds" | "listDocuments" | "embeddingSpace">;

function parseJson<T>(schema: ZodType<T>, text: string, fallback: T): T {
  if (text === "") return fallback;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

const reasonsFallback = {
  similarity: 0,
  lexical: 0,
  heading: 0,
  sharedTerms: [],
  sharedParties: [],
  sharedWords: [],
  citation: null,
  contributions: {},
  foundBy: [],
};

export function matchFromEdge(edge: SimilarToRecord, b: Section | undefined): CrosswalkMatch {
  const verdict = parseJson(pairVerdictSchema.nullable(), edge.verdict, null);
  return {
    bSectionId: edge.bSectionId,
    bDocumentId: b?.documentId ?? edge.bSectionId.split(":")[0] ?? "",
    bLabel: b?.label ?? edge.bSectionId,
    bHeading: b?.heading ?? "",
    bPageStart: b?.pageStart ?? 0,
    rank: Math.max(1, edge.rank),
    score: Math.min(1, Math.max(0, edge.score)),
    reasons: parseJson(matchReasonsSchema, edge.reasons, reasonsFallback),
    flags: parseJson(flagSchema.array(), edge.flags, []),
    evidence: parseJson(evidenceSchema, edge.evidence, { sentences: [] }),
    ...(verdict === null ? {} : { verdict }),
  };
}

/** The sections of A a comparison aligns: provisions with some text, not headings or containers. */
export function comparedSections(sections: readonly Section[], document: DocumentRecord, stems: EnglishStems): Section[] {
  const language = compareLanguage(document);
  return sections.filter((s) => contentWords(s.text, language, stems).length >= MIN_CONTENT_WORDS);
}

function ref(doc: DocumentRecord | undefined, id: string): { id: string; fileName: string; title: string } {
  return { id, fileName: doc?.fileName ?? "(deleted)", title: doc?.title ?? "" };
}

/** Why a stored comparison may differ from a new run, in words (null when it would not). */
export function staleness(record: ComparisonRecord, library: readonly DocumentRecord[], embeddingModel: string | null): string | null {
  if (record.status === "computing") return "It was interrupted before it finished: compare again to complete it.";
  if (record.scorerVersion !== SCORER_VERSION) return "It was computed by an older version of the comparison: compare again to update it.";
  if (embeddingModel !== null && record.embeddingModel !== "" && record.embeddingModel !== embeddingModel) {
    return `It was computed with the embedding model ${record.embeddingModel}; the library now uses ${embeddingModel}: compare again.`;
  }
  if (record.otherDocumentId === "") {
    const now = new Set(library.filter((d) => d.id !== record.documentId).map((d) => d.id));
    const then = new Set(record.libraryDocuments);
    const added = [...now].filter((id) => !then.has(id)).length;
    const removed = [...then].filter((id) => !now.has(id)).length;
    if (added + removed > 0) return `The library changed since (${added} document(s) added, ${removed} removed): compare again to include the changes.`;
  }
  return null;
}

export function summarize(record: ComparisonRecord, library: readonly DocumentRecord[], embeddingModel: string | null): ComparisonSummary {
  const byId = new Map(library.map((d) => [d.id, d]));
  return {
    id: record.id,
    documentA: ref(byId.get(record.documentId), record.documentId),
    documentB: record.otherDocumentId === "" ? null : ref(byId.get(record.otherDocumentId), record.otherDocumentId),
    libraryDocuments: record.libraryDocuments.map((id) => ref(byId.get(id), id)),
    k: Math.max(1, record.k),
    embeddingModel: record.embeddingModel,
    scorerVersion: record.scorerVersion,
    llmModel: record.llmModel,
    status: record.status,
    stale: staleness(record, library, embeddingModel),
    sections: record.sections,
    pairsExamined: record.pairsExamined,
    matchThreshold: MATCH_THRESHOLD,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export async function readCrosswalk(store: ViewStore, id: string, stems: EnglishStems): Promise<Crosswalk> {
  const record = await store.getComparison(id);
  if (record === null) throw new ClauseGraphError("NOT_FOUND", `No comparison ${id}`);
  const library = await store.listDocuments();
  const space = await store.embeddingSpace();
  const documentA = library.find((d) => d.id === record.documentId);
  if (documentA === undefined) throw new ClauseGraphError("NOT_FOUND", `The compared document ${record.documentId} is no longer in the library`);
  const edges = await store.getComparisonEdges(id);
  const bIds = [...new Set(edges.map((e) => e.bSectionId))];
  const bSections = new Map((await store.getSectionsByIds(bIds)).map((r) => [r.section.id, r.section]));
  const byA = new Map<string, SimilarToRecord[]>();
  for (const e of edges) {
    const list = byA.get(e.aSectionId);
    if (list) list.push(e);
    else byA.set(e.aSectionId, [e]);
  }
  const rows: CrosswalkRow[] = comparedSections(await store.getSections(documentA.id), documentA, stems).map((a) => {
    const matches = (byA.get(a.id) ?? []).sort((x, y) => x.rank - y.rank).map((e) => matchFromEdge(e, bSections.get(e.bSectionId)));
    return {
      aSectionId: a.id,
      aLabel: a.label,
      aHeading: a.heading,
      aPageStart: a.pageStart,
      matches,
      unmatched: (matches[0]?.score ?? 0) < MATCH_THRESHOLD,
    };
  });
  return { comparison: summarize(record, library, space?.modelId ?? null), rows };
}
