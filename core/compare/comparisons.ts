import type { ExportFile } from "../model/conversation-schemas.ts";
import type { Embedder } from "../model/embedder.ts";
import { ClauseGraphError } from "../model/errors.ts";
import type { CompareOptions } from "../model/engine-types.ts";
import type { LlmClient } from "../model/llm-client.ts";
import type { GraphStore } from "../store/graph-store.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import type { Section } from "../model/section-types.ts";
import type { CompareResult, ComparisonSummary, Crosswalk, CrosswalkExportFormat, PairDetail } from "../model/compare-schemas.ts";
import { runComparison } from "./compare-job.ts";
import { matchFromEdge, readCrosswalk, summarize } from "./comparison-view.ts";
import { exportCrosswalk } from "./crosswalk-export.ts";
import { analysePair } from "./pair-analysis.ts";
import { createEnglishStems } from "../text/index.ts";
import { pairGraph } from "./pair-graph.ts";
import { compareLanguage } from "./section-profile.ts";

// What the engine offers about comparisons, wired once in createEngine: run one, list them, read
// one as rows, open a pair side by side, export, delete.

export interface ComparisonsDeps {
  store: GraphStore;
  getEmbedder(): Promise<Embedder | null>;
  /** The model lease, as answers and extraction take it (core/llm/model-selection.ts). */
  acquireModel(signal?: AbortSignal): Promise<{ llm: LlmClient | null; release(): void }>;
  serializeWrite: <T>(work: () => Promise<T>) => Promise<T>;
  /** By id, path or file name. */
  resolveDocument(idOrFile: string): Promise<DocumentRecord | null>;
  log?: (message: string) => void;
}

export interface Comparisons {
  /** documentB null: A against the whole library. */
  compare(documentA: string, documentB: string | null, options?: CompareOptions): Promise<CompareResult>;
  list(): Promise<ComparisonSummary[]>;
  get(id: string): Promise<Crosswalk>;
  pair(id: string, aSectionId: string, bSectionId: string): Promise<PairDetail>;
  export(id: string, format: CrosswalkExportFormat): Promise<ExportFile>;
  remove(id: string): Promise<{ deleted: boolean }>;
}

function documentRef(d: DocumentRecord): { id: string; fileName: string; title: string } {
  return { id: d.id, fileName: d.fileName, title: d.title };
}

export function createComparisons(deps: ComparisonsDeps): Comparisons {
  const { store } = deps;
  // English stems every comparison asks for again and again: remembered by these comparisons (and
  // so by their engine), not by the module.
  const stems = createEnglishStems();

  async function resolve(idOrFile: string): Promise<DocumentRecord> {
    const doc = await deps.resolveDocument(idOrFile);
    if (doc === null) throw new ClauseGraphError("NOT_FOUND", `No document matches ${idOrFile}`);
    return doc;
  }

  async function sectionsById(ids: readonly string[]): Promise<Map<string, Section>> {
    return new Map((await store.getSectionsByIds([...new Set(ids)])).map((r) => [r.section.id, r.section]));
  }

  return {
    async compare(documentA, documentB, options = {}) {
      const a = await resolve(documentA);
      const b = documentB === null ? null : await resolve(documentB);
      const lease = options.verdicts === true ? await deps.acquireModel(options.signal) : null;
      try {
        if (lease !== null && lease.llm === null) {
          throw new ClauseGraphError(
            "MODEL_NOT_FOUND",
            "No language model is loaded: choose one (the model menu, or --llm) to have each pair judged, or compare without verdicts",
          );
        }
        return await runComparison(
          {
            store,
            embedder: await deps.getEmbedder(),
            llm: lease?.llm ?? null,
            serializeWrite: deps.serializeWrite,
            stems,
            ...(deps.log ? { log: deps.log } : {}),
          },
          {
            documentA: a,
            documentB: b,
            ...(options.k === undefined ? {} : { k: options.k }),
            ...(options.provisions === undefined ? {} : { provisions: options.provisions }),
            ...(options.jobId === undefined ? {} : { jobId: options.jobId }),
            ...(options.signal ? { signal: options.signal } : {}),
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
            ...(options.onVerdictPlan ? { onVerdictPlan: options.onVerdictPlan } : {}),
          },
        );
      } finally {
        lease?.release();
      }
    },

    async list() {
      const [records, library, space] = await Promise.all([store.listComparisons(), store.listDocuments(), store.embeddingSpace()]);
      return records.map((r) => summarize(r, library, space?.modelId ?? null));
    },

    get: (id) => readCrosswalk(store, id, stems),

    async pair(id, aSectionId, bSectionId) {
      const record = await store.getComparison(id);
      if (record === null) throw new ClauseGraphError("NOT_FOUND", `No comparison ${id}`);
      const edge = (await store.getComparisonEdges(id)).find((e) => e.aSectionId === aSectionId && e.bSectionId === bSectionId);
      if (edge === undefined) throw new ClauseGraphError("NOT_FOUND", `${aSectionId} and ${bSectionId} are not a pair of comparison ${id}`);
      const sections = await sectionsById([aSectionId, bSectionId]);
      const a = sections.get(aSectionId);
      const b = sections.get(bSectionId);
      const library = await store.listDocuments();
      const aDoc = library.find((d) => d.id === a?.documentId);
      const bDoc = library.find((d) => d.id === b?.documentId);
      if (a === undefined || b === undefined || aDoc === undefined || bDoc === undefined)
        throw new ClauseGraphError("NOT_FOUND", "A section of this pair is no longer in the library");
      const match = matchFromEdge(edge, b);
      const triplets = await store.getTripletsForSections([a.id, b.id]);
      const tripletsA = triplets.filter((t) => t.sectionId === a.id);
      const tripletsB = triplets.filter((t) => t.sectionId === b.id);
      const analysis = analysePair(
        { section: a, triplets: tripletsA, language: compareLanguage(aDoc) },
        { section: b, triplets: tripletsB, language: compareLanguage(bDoc) },
        stems,
      );
      const terms = (await store.getTermsByNormalized(match.reasons.sharedTerms)).filter((t) => t.documentId === aDoc.id || t.documentId === bDoc.id);
      const citation = match.reasons.citation;
      return {
        comparisonId: id,
        a,
        b,
        aDocument: documentRef(aDoc),
        bDocument: documentRef(bDoc),
        match,
        obligations: analysis.obligations,
        subgraph: pairGraph({
          a,
          b,
          sharedTerms: terms,
          citation: citation === null ? null : { raw: citation.raw, direction: citation.direction },
          tripletsA,
          tripletsB,
        }),
        triplets: [...tripletsA, ...tripletsB],
      };
    },

    async export(id, format) {
      const crosswalk = await readCrosswalk(store, id, stems);
      const ids = crosswalk.rows.flatMap((r) => [r.aSectionId, ...r.matches.map((m) => m.bSectionId)]);
      const documents = new Map((await store.listDocuments()).map((d) => [d.id, d]));
      return exportCrosswalk({ crosswalk, sections: await sectionsById(ids), documents }, format);
    },

    async remove(id) {
      return { deleted: await deps.serializeWrite(() => store.deleteComparison(id)) };
    },
  };
}
