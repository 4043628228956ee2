import { embedAll, tripletEmbeddingText } from "../embed/embed-derived.ts";
import type { Embedder } from "../model/embedder.ts";
import { ClauseGraphError, isClauseGraphError, toErrorInfo } from "../model/errors.ts";
import { buildTerms } from "../graph/term-graph.ts";
import { createJobReporter } from "../jobs/job-reporter.ts";
import type { ProgressListener } from "../model/job.ts";
import type { LlmClient } from "../model/llm-client.ts";
import type { GraphStore } from "../store/graph-store.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import type { Section } from "../model/section-types.ts";
import { acronymMap, findAcronyms } from "../extract/definitions.ts";
import { canonicalKey } from "../extract/normalize-entity.ts";
import { parseCachedExtraction, serializeCachedExtraction } from "./cached-extraction.ts";
import { extractionCacheKey } from "./cache-key.ts";
import { cleanTriplets, type SectionTriplets } from "./clean-triplets.ts";
import { extractSection } from "./extract-section.ts";
import { PROMPT_VERSION, promptHeader, type PromptContext } from "./extraction-prompt.ts";
import type { DocumentExtractionSummary, ExtractionSummary } from "../model/extraction-types.ts";

// The background job that builds the LLM tier of the graph, one document at a time, one job (and
// progress stream) per document. Each section's model output is cached durably the moment it is
// produced, keyed by content + model + prompt version, so a run killed or cancelled half-way
// resumes where it stopped, and a re-imported edited document only costs its changed sections.
// The model is never called while holding the engine's write queue: only the final replacement of
// a document's LLM triplets (one transaction) goes through it, so imports and questions go on.

export interface ExtractionJobDeps {
  store: Pick<GraphStore, "getDocument" | "listDocuments" | "getSections" | "getExtractionCache" | "putExtractionCache" | "replaceLlmTriplets">;
  llm: LlmClient;
  /** Vectors for the new triplets and embedding-based entity merging; null: neither. */
  embedder: Embedder | null;
  /** Runs a store write in the engine's write queue. */
  serializeWrite: <T>(work: () => Promise<T>) => Promise<T>;
  log?: (message: string) => void;
}

export interface ExtractionJobOptions {
  /** Default: every document in the library. */
  documentIds?: string[];
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

/** Defined terms shown with a section: enough context, without crowding out the passage. */
const MAX_TERMS_IN_PROMPT = 8;

async function selectDocuments(store: ExtractionJobDeps["store"], ids: readonly string[] | undefined): Promise<DocumentRecord[]> {
  if (ids === undefined) return store.listDocuments();
  const out: DocumentRecord[] = [];
  for (const id of [...new Set(ids)]) {
    const doc = await store.getDocument(id);
    if (doc === null) throw new ClauseGraphError("NOT_FOUND", `No document with id ${id}`);
    out.push(doc);
  }
  return out;
}

function sectionTitle(section: Section): string {
  return [section.label, section.heading].filter((x) => x !== "").join(" — ") || "(untitled)";
}

async function extractDocument(deps: ExtractionJobDeps, doc: DocumentRecord, options: ExtractionJobOptions): Promise<DocumentExtractionSummary> {
  const { store, llm, log = () => {} } = deps;
  const job = createJobReporter({
    subject: doc.fileName,
    ...(options.onProgress ? { listener: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const summary: DocumentExtractionSummary = {
    documentId: doc.id,
    title: doc.title,
    sections: 0,
    extracted: 0,
    cached: 0,
    failed: 0,
    malformedChunks: 0,
    triplets: 0,
    entities: 0,
    dropped: { evidence: 0, trivial: 0, duplicate: 0 },
  };
  try {
    job.throwIfCancelled();
    const allSections = await store.getSections(doc.id);
    const sections = allSections.filter((s) => s.text.trim() !== "");
    summary.sections = sections.length;
    const language = doc.language === "it" ? "it" : "en";
    const terms = buildTerms(doc.id, allSections, language);
    const acronymList = allSections.flatMap((s) => findAcronyms(s.text));
    const acronyms = acronymMap(acronymList.filter((a, i) => acronymList.findIndex((b) => b.acronym === a.acronym) === i));
    const termsByKey = new Map(terms.map((t) => [canonicalKey(t.term, { language, acronyms }), t.term]));

    const contexts = sections.map((section): PromptContext => ({
      documentTitle: doc.title,
      heading: sectionTitle(section),
      terms: terms
        .filter((t) => t.sectionId === section.id || t.mentionedIn.includes(section.id))
        .slice(0, MAX_TERMS_IN_PROMPT)
        .map((t) => ({ term: t.term, definition: t.definition })),
    }));
    const keys = sections.map((section, i) => extractionCacheKey({ modelId: llm.modelId, section, context: promptHeader(contexts[i] as PromptContext) }));
    const cache = await store.getExtractionCache(keys);

    const results: SectionTriplets[] = [];
    job.update("extracting", 0, sections.length);
    for (const [i, section] of sections.entries()) {
      job.throwIfCancelled();
      const key = keys[i] ?? "";
      const hit = cache.get(key);
      const cached = hit === undefined ? null : parseCachedExtraction(hit);
      if (cached !== null) {
        summary.cached++;
        summary.malformedChunks += cached.malformedChunks;
        results.push({ section, triplets: cached.triplets });
      } else {
        try {
          const extraction = await extractSection(llm, section, contexts[i] as PromptContext, options.signal);
          // Durable before moving on: this is what a resumed run will not redo.
          await store.putExtractionCache({
            key,
            modelId: llm.modelId,
            promptVersion: PROMPT_VERSION,
            json: serializeCachedExtraction(extraction.chunks, extraction.malformedChunks, extraction.triplets),
          });
          summary.extracted++;
          summary.malformedChunks += extraction.malformedChunks;
          results.push({ section, triplets: extraction.triplets });
        } catch (err) {
          if (options.signal?.aborted || (isClauseGraphError(err) && err.code === "CANCELLED")) throw err;
          // One section the model cannot handle (prompt too long for a tiny context, …) must not
          // cost the document: it stays uncached, so the next run tries it again.
          summary.failed++;
          log(`extraction of ${section.id} failed: ${toErrorInfo(err).message}`);
        }
      }
      job.update("extracting", i + 1, sections.length);
    }

    job.update("cleaning", 0, 1);
    const cleaned = await cleanTriplets(results, { documentId: doc.id, language, acronyms, termsByKey, embedder: deps.embedder });
    summary.dropped = cleaned.dropped;
    job.update("cleaning", 1, 1);

    let tripletEmbeddings = new Map<string, Float32Array>();
    if (deps.embedder !== null && cleaned.triplets.length > 0) {
      job.update("embeddings", 0, cleaned.triplets.length);
      tripletEmbeddings = await embedAll(
        deps.embedder,
        cleaned.triplets.map((t) => ({ id: t.id, text: tripletEmbeddingText(t) })),
        (done) => job.update("embeddings", done, cleaned.triplets.length),
        options.signal,
      );
    }

    job.throwIfCancelled();
    job.update("storing", 0, 1);
    const stored = await deps.serializeWrite(() =>
      store.replaceLlmTriplets(doc.id, {
        entities: cleaned.entities,
        triplets: cleaned.triplets,
        statedIn: cleaned.statedIn,
        tripletEmbeddings,
        embeddingModel: deps.embedder?.id ?? null,
      }),
    );
    summary.triplets = stored.triplets;
    summary.entities = stored.entities;
    job.update("storing", 1, 1);
    job.finish("done");
    log(
      `LLM triplets of ${doc.fileName}: ${summary.triplets} from ${summary.sections} sections (${summary.extracted} extracted, ${summary.cached} cached, ${summary.failed} failed)`,
    );
    return summary;
  } catch (err) {
    const cancelled = options.signal?.aborted === true || (isClauseGraphError(err) && err.code === "CANCELLED");
    job.finish(cancelled ? "cancelled" : "failed", err);
    if (cancelled && !(isClauseGraphError(err) && err.code === "CANCELLED")) {
      throw new ClauseGraphError("CANCELLED", "triplet extraction cancelled by the user", { file: doc.fileName, cause: err });
    }
    throw err;
  }
}

/** Extracts, cleans and stores the LLM triplets of the chosen documents. Throws CANCELLED when aborted. */
export async function runExtractionJob(deps: ExtractionJobDeps, options: ExtractionJobOptions = {}): Promise<ExtractionSummary> {
  const started = performance.now();
  if (options.signal?.aborted) throw new ClauseGraphError("CANCELLED", "triplet extraction cancelled by the user");
  const docs = await selectDocuments(deps.store, options.documentIds);
  const documents: DocumentExtractionSummary[] = [];
  for (const doc of docs) documents.push(await extractDocument(deps, doc, options));
  const sum = (pick: (d: DocumentExtractionSummary) => number): number => documents.reduce((n, d) => n + pick(d), 0);
  return {
    modelId: deps.llm.modelId,
    promptVersion: PROMPT_VERSION,
    documents,
    sections: sum((d) => d.sections),
    extracted: sum((d) => d.extracted),
    cached: sum((d) => d.cached),
    failed: sum((d) => d.failed),
    triplets: sum((d) => d.triplets),
    totalMs: Math.round(performance.now() - started),
  };
}
