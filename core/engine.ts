import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import type {
  DeleteResult,
  Engine,
  EngineStats,
  ImportOptions,
  ImportResult,
  RepairResult,
  SearchOptions,
  SearchResponse,
  SearchResult,
} from "./model/engine-types.ts";
import { earlierPartsText } from "./answer/earlier-parts.ts";
import { answerQuestion } from "./answer/answer-question.ts";
import { labelAnswer } from "./answer/answer-model-label.ts";
import { answerLogRecord, createAnswerLogWriter, readAnswerLog } from "./answer/answer-log.ts";
import { createConversations } from "./answer/conversations.ts";
import { analysisScopeNamer } from "./answer/follow-up-scope.ts";
import { reopenedGraph } from "./answer/reopened-graph.ts";
import { appVersion } from "./app-version.ts";
import { createExports } from "./export/export-workpaper.ts";
import { createComparisons } from "./compare/comparisons.ts";
import { recordDeletedDocument } from "./store/deleted-documents.ts";
import { unmentionedNames } from "./answer/question-names.ts";
import { answerHints } from "./answer/question-analysis.ts";
import { questionReader } from "./answer/question-reader.ts";
import { retrievalQuery } from "./answer/answer-type-query.ts";
import { ANSWER_CANDIDATES, rankForAnswer } from "./answer/answer-ranking.ts";
import { documentScope } from "./answer/question-scope.ts";
import { createLanguageResources } from "./answer/language-resources.ts";
import { aliasEdit, libraryNames } from "./model/document-names.ts";
import { ensureDefaultEmbedder } from "./embed/default-embedder.ts";
import type { LlmClient } from "./model/llm-client.ts";
import type { LlmRuntimeOptions } from "./llm/llama-runtime.ts";
import { openModelSelection } from "./llm/model-selection.ts";
import { defaultEmbeddingModel, loadModelManifest } from "./embed/model-manifest.ts";
import type { Embedder } from "./model/embedder.ts";
import { runExtractionJob } from "./llm-extract/extraction-job.ts";
import { ClauseGraphError, toErrorInfo } from "./model/errors.ts";
import { ensurePrivateDir, tightenDataDir } from "./files/private-files.ts";
import { readOcrPreference, writeOcrPreference } from "./ingest/ocr/ocr-preference.ts";
import type { ParseLimits } from "./ingest/parse-limits.ts";
import { routeToGraph } from "./graph-query/graph-answer.ts";
import { entityFacts } from "./graph-query/entity-facts.ts";
import { graphAnswerTable, recordGraphAnswer, reopenGraphAnswer } from "./graph-query/graph-answer-log.ts";
import { createJobReporter, type JobReporter } from "./jobs/job-reporter.ts";
import { createForeground } from "./jobs/foreground.ts";
import { createReadAhead } from "./jobs/read-ahead.ts";
import { createWriteQueue } from "./jobs/write-queue.ts";
import { vocabularyExpansions } from "./retrieve/legal-thesaurus.ts";
import { hybridSearch } from "./retrieve/hybrid-search.ts";
import { createRetrievalCaches } from "./retrieve/retrieval-caches.ts";
import { makeSnippet } from "./retrieve/snippet.ts";
import { graphNeighbors } from "./retrieve/neighbors.ts";
import { buildSubgraph } from "./retrieve/subgraph.ts";
import type { RankedSection, StageName, StageSwitches } from "./model/retrieval-types.ts";
import { fuseRewrites, rewriteQuestion } from "./answer/query-rewrite.ts";
import { asksPerInstrument, instrumentScopes, interleave, joinAnswers, type InstrumentScope } from "./answer/per-instrument.ts";
import type { AskResult } from "./model/answer-types.ts";
import type { GraphStore } from "./store/graph-store.ts";
import type { DocumentRecord } from "./model/store-records.ts";
import { createKuzuStore } from "./store/kuzu/kuzu-store.ts";
import { withReadCache } from "./store/read-cache.ts";
import { finishRebuild, markRebuilt, planRebuild, rebuiltPath, removeRebuilt } from "./store/library-rebuild.ts";
import { libraryHealth, removeSourceRecord, writeSourceRecord } from "./store/source-record.ts";
import { createIngestionPipeline, emptyImportResult } from "./pipeline/ingestion-pipeline.ts";
import { sourcePath } from "./pipeline/source-file.ts";
import type { Section } from "./model/section-types.ts";

export type Logger = (message: string) => void;

export interface EngineOptions {
  /** Everything the engine persists lives under this directory. */
  dataDir: string;
  /** Defaults to the Kuzu store at `<dataDir>/graph.kuzu`; tests may pass their own. */
  store?: GraphStore;
  /**
   * The text embedder for section and triplet vectors. Default: the built-in static model, built
   * under `<modelRoot>/models/` on first use. null: no vectors (BM25 and graph retrieval only).
   */
  embedder?: Embedder | null;
  /**
   * Where models live, in `<modelRoot>/models/`: the default embedding model is built there and
   * language models are imported there, as `clausegraph models` does (default: dataDir).
   */
  modelRoot?: string;
  /** Read-only prebuilt models shipped with the app (`<dir>/<id>/`), preferred over building one. */
  bundledModelDir?: string;
  /**
   * A loaded local model for written answers, owned by the caller. Omitted: the model chosen with
   * selectModel() (saved in `<dataDir>/settings.json`) is loaded on the first question. null: no
   * model, whatever was chosen; answers are extractive.
   */
  llm?: LlmClient | null;
  /** How language models are run (GPU, memory probe for tests). */
  llmRuntime?: LlmRuntimeOptions;
  /** Overrides of the limits untrusted files are parsed under (core/ingest/parse-limits.ts). */
  parseLimits?: Partial<ParseLimits>;
  /**
   * Load what the first question needs right after opening, in the background: the embedding
   * model, the full-text and vector indexes, the sentence and English pipelines. Measured on the
   * ten corpus PDFs (bench:ingest, cold start): the first search took 0.8–0.9 s and the first
   * answer 1.2–1.35 s of loading, a later one ~0.25 s. The app and the web host set it (a user
   * takes longer than that to type a question); the CLI does not (`list` needs none of it).
   */
  warmUp?: boolean;
  log?: Logger;
}

/** Triplets returned with a search, and results whose triplets are collected. */
const MAX_SEARCH_TRIPLETS = 40;
const TRIPLET_SECTIONS = 10;
/**
 * Libraries up to this many sections have all their rows read into the read cache at warm-up:
 * the ten corpus PDFs (1,081 sections) are already held after their import, within the 900 MB
 * goal (bench:ingest); ObliQA's 13,705 passages would add far more, so larger libraries fill the
 * cache as they are searched.
 */
const WARM_LIBRARY_SECTIONS = 5_000;

const ALL_STAGES: StageSwitches = { bm25: true, sectionVectors: true, tripletVectors: true, graphExpansion: true, rescore: true };

/** The Kuzu database file inside a data dir: one place so CLI, host and tests agree. */
export function databasePath(dataDir: string): string {
  return path.join(dataDir, "graph.kuzu");
}

// Where a file's bytes, hash and kept copy are worked out (core/pipeline/source-file.ts), exported
// here too for the callers that know the engine only.
export { documentIdFromSha, sha256OfFile, sourcePath } from "./pipeline/source-file.ts";

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const dataDir = path.resolve(options.dataDir);
  const log: Logger = options.log ?? (() => {});
  await ensurePrivateDir(dataDir);
  // A rebuild that finished but was not yet swapped in when the app stopped is completed first.
  if (!options.store) await finishRebuild(databasePath(dataDir), log);
  const store = withReadCache(options.store ?? createKuzuStore({ dbPath: databasePath(dataDir), log }));
  await store.open();
  // Kuzu has just created or reopened its files: owner-only, like everything else in the library.
  await tightenDataDir(dataDir);
  let closed = false;
  // A library damaged by a storage bug (see store/kuzu/library-check.ts) is reported at every open;
  // the user repairs it from the kept copies (repairLibrary, `clausegraph check --repair`, the UI).
  const opening = await store.checkLibrary().catch((err: unknown) => {
    log(`library check failed: ${toErrorInfo(err).message}`);
    return null;
  });
  if (opening && opening.damaged.length > 0) {
    log(`library check: ${opening.damaged.length} damaged document(s): ${opening.damaged.map((d) => `${d.documentId} (${d.problem})`).join(", ")}`);
  }

  // The embedder is made on first use: building the default model takes a few seconds once, and
  // an engine that only lists or deletes never needs it.
  let embedderPromise: Promise<Embedder | null> | null = options.embedder === undefined ? null : Promise.resolve(options.embedder);
  const ownsEmbedder = options.embedder === undefined;
  const getEmbedder = (): Promise<Embedder | null> => {
    embedderPromise ??= ensureDefaultEmbedder(path.resolve(options.modelRoot ?? dataDir), {
      onBuild: (dir) => log(`building the default embedding model in ${dir}`),
      ...(options.bundledModelDir === undefined ? {} : { bundledDir: options.bundledModelDir }),
    }).catch((err: unknown) => {
      // Retrieval still works without vectors; say why they are missing instead of failing imports.
      log(`embedding model unavailable, continuing without vectors: ${toErrorInfo(err).message}`);
      return null;
    });
    return embedderPromise;
  };
  // What retrieval remembers between questions (stems, headings, section vectors): this engine's own.
  const retrievalCaches = createRetrievalCaches();
  // The wink pipelines and alias lookups that read questions and answers: this engine's own too.
  const languageResources = createLanguageResources();
  // The import pipeline (core/pipeline/): owns the parsing child kept between imports, which dies
  // with this engine; it derives the graph with the same English pipeline questions are read with.
  // Searches and questions go before an import's graph work on this thread (core/jobs/foreground.ts).
  const foreground = createForeground();
  const pipeline = createIngestionPipeline({
    dataDir,
    getEmbedder,
    englishNlp: () => languageResources.englishNlp(),
    yieldToForeground: () => foreground.yieldTo(),
    log,
    ...(options.parseLimits === undefined ? {} : { parseLimits: options.parseLimits }),
  });

  // The model answering and extracting right now. Model selection replaces it at run time. An
  // answer or a job takes it with models.acquire() when it starts and releases it when done, so a
  // switch never mixes two models' output in one run nor closes a model still in use.
  const models = await openModelSelection({
    dataDir,
    modelRoot: path.resolve(options.modelRoot ?? dataDir),
    ...(options.llm === undefined ? {} : { external: options.llm }),
    ...(options.llmRuntime ? { runtime: options.llmRuntime } : {}),
    log,
  });
  // Every answer is appended to <dataDir>/answer-log.jsonl: the audit trail of the library.
  const answerLog = createAnswerLogWriter(dataDir);
  // Conversations (<dataDir>/conversations/) and workpaper exports read the answer log back.
  const conversations = createConversations({
    dataDir,
    listDocuments: () => store.listDocuments(),
    // A graph answer (issue 13) reopens with its route, rows and evidence graph (core/graph-query/graph-answer-log.ts).
    answerGraph: async (record) => (await reopenGraphAnswer(store, dataDir, record)) ?? (await reopenedGraph(store, record)),
  });
  const exports = createExports({
    dataDir,
    appVersion: appVersion(),
    listDocuments: () => store.listDocuments(),
    conversations,
    graphTable: (logId) => graphAnswerTable(dataDir, logId),
  });

  // Kuzu allows one write transaction at a time; imports from several callers (UI + CLI in the
  // web host) are serialized here instead of failing on a busy database.
  const writes = createWriteQueue();
  /** Imports read ahead of their store, one parsed document waiting at most (core/jobs/read-ahead.ts). */
  const readAhead = createReadAhead(2);
  /** An import or a delete changed the library's documents since the search index was last rebuilt. */
  let searchIndexStale = false;
  /**
   * Rebuilt once the queue drains after writes that changed the documents (~0.7 s for the ten
   * corpus PDFs, in a search database of its own: store/kuzu/search-database.ts), so a batch pays
   * for one rebuild, not one per file. Searches meanwhile are answered by the last index built.
   */
  async function refreshWhenDrained(): Promise<void> {
    if (!searchIndexStale || writes.pending !== 1) return;
    searchIndexStale = false;
    await store.refreshSearchIndex().catch((err: unknown) => log(`index refresh failed: ${toErrorInfo(err).message}`));
  }
  /**
   * A write task of the engine (import, delete, re-embedding, extraction …), in its turn. While it
   * runs, from reading the file to storing it, searches keep to the last full-text index instead of
   * waiting for a rebuild (GraphStore.batchWrites).
   */
  const serialize = <T>(work: () => Promise<T>): Promise<T> =>
    writes.run(() =>
      store.batchWrites(async () => {
        try {
          return await work();
        } finally {
          await refreshWhenDrained();
        }
      }),
    );

  // A database filled with another embedding model (or an interrupted re-embed) is brought up to
  // date in the background; searches meanwhile use BM25, the graph and whatever vectors exist.
  const space = await store.embeddingSpace();
  const wantedModel = options.embedder === null ? null : (options.embedder?.id ?? defaultEmbeddingModel(await loadModelManifest()).id);
  const modelChanged = wantedModel !== null && space !== null && space.modelId !== wantedModel;
  if (wantedModel !== null && (modelChanged || (await store.documentsMissingEmbeddings()).length > 0)) {
    void serialize(async () => {
      const embedder = await getEmbedder();
      if (embedder && !closed) await pipeline.prepareVectors(embedder, store);
    }).catch((err: unknown) => log(`re-embedding failed: ${toErrorInfo(err).message}`));
  }

  const ensureOpen = (): void => {
    if (closed) throw new ClauseGraphError("INTERNAL", "the engine is closed");
  };

  /** A file's import job; its "queued" event goes out now. */
  function importJob(file: string, opts: ImportOptions, jobId: string | undefined): JobReporter {
    return createJobReporter({
      subject: path.resolve(file),
      ...(jobId === undefined ? {} : { jobId }),
      ...(opts.onProgress ? { listener: opts.onProgress } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  }

  /** A file cancelled while it waited for its turn: nothing of it was read. */
  function cancelledBeforeStart(file: string, job: JobReporter): ImportResult {
    const result = emptyImportResult(path.resolve(file));
    const err = new ClauseGraphError("CANCELLED", "Import cancelled before it started.", { file: path.resolve(file) });
    result.error = toErrorInfo(err, path.resolve(file));
    job.finish("cancelled", err);
    return result;
  }

  /**
   * Builds the library again from the kept copies into a new database and swaps it in
   * (store/library-rebuild.ts); runs inside serialize(). Nothing changes when the library is
   * sound, and the old database stays as it was when the rebuild fails or is cancelled.
   */
  async function rebuildLibrary(opts: ImportOptions): Promise<RepairResult> {
    const dbPath = databasePath(dataDir);
    const before = await libraryHealth(dataDir, await store.checkLibrary());
    if (before.damaged.length === 0) return { rebuilt: false, reimported: [], missing: [], backup: null, health: before };
    const plan = await planRebuild(dataDir, await store.listDocuments(), before);
    log(`rebuilding the library: ${plan.items.length} documents from their kept copies, ${plan.missing.length} without one`);
    await removeRebuilt(dbPath);
    const target = withReadCache(createKuzuStore({ dbPath: rebuiltPath(dbPath), log }));
    const reimported: ImportResult[] = [];
    await target.open();
    try {
      for (const item of plan.items) {
        if (opts.signal?.aborted) throw new ClauseGraphError("CANCELLED", "the library rebuild was cancelled; the library is as it was");
        const result = await pipeline.importFile(item.source, { options: opts, job: importJob(item.source, opts, undefined), target, origin: item.origin });
        reimported.push(result);
        if (result.status === "error" && result.error?.code === "CANCELLED")
          throw new ClauseGraphError("CANCELLED", "the library rebuild was cancelled; the library is as it was");
      }
      await target.refreshSearchIndex();
    } catch (err) {
      await target.close().catch(() => undefined);
      await removeRebuilt(dbPath);
      throw err;
    }
    await target.close();
    await markRebuilt(dbPath);
    await store.close();
    let backup: string | null = null;
    try {
      backup = await finishRebuild(dbPath, log);
    } finally {
      await store.open();
    }
    return { rebuilt: true, reimported, missing: plan.missing, backup, health: await libraryHealth(dataDir, await store.checkLibrary()) };
  }

  function toSearchResult(section: Section, document: DocumentRecord, score: number, query: string, foundBy: StageName[]): SearchResult {
    return {
      foundBy,
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

  async function resolveDocument(idOrFile: string): Promise<DocumentRecord | null> {
    const byId = await store.getDocument(idOrFile);
    if (byId) return byId;
    const absolute = path.resolve(idOrFile);
    const docs = await store.listDocuments();
    return (
      docs.find((d) => d.file === absolute) ??
      docs.find((d) => d.fileName === idOrFile) ??
      (idOrFile.length >= 6 ? docs.find((d) => d.id.startsWith(idOrFile) || d.sha256.startsWith(idOrFile)) : undefined) ??
      null
    );
  }

  // Crosswalks between documents (core/compare/): computed outside the write queue, stored through it.
  const comparisons = createComparisons({
    store,
    getEmbedder,
    acquireModel: (signal) => models.acquire(signal),
    serializeWrite: serialize,
    resolveDocument,
    log,
  });

  const engine: Engine = {
    dataDir,
    async importFiles(files, opts = {}) {
      ensureOpen();
      // Stored one file at a time, in the order given (Kuzu has one writer), each read while the
      // one before it is stored. Every file is queued now with its job ("queued" event), so a
      // file cancelled while it waits settles at once and is never read.
      const jobIdOf = (index: number): string | undefined =>
        opts.jobId === undefined ? undefined : files.length === 1 ? opts.jobId : `${opts.jobId}-${index + 1}`;
      return Promise.all(
        files.map((file, index) => {
          const job = importJob(file, opts, jobIdOf(index));
          const request = { options: opts, job, target: store };
          // Read (in the parsing child) while the file before it is stored: core/jobs/read-ahead.ts.
          const read = readAhead.schedule(() => pipeline.readFile(file, request));
          return writes.runUnlessCancelled(
            opts.signal,
            () =>
              store.batchWrites(async () => {
                let result: ImportResult;
                try {
                  const outcome = await read.result;
                  result = outcome.kind === "settled" ? outcome.result : await pipeline.storeFile(outcome.file, request);
                } finally {
                  read.release();
                }
                if (result.status === "ok") searchIndexStale = true;
                // The last file of a batch rebuilds the index: it is searchable as soon as its result is back.
                await refreshWhenDrained();
                return result;
              }),
            () => cancelledBeforeStart(file, job),
          );
        }),
      );
    },
    search(query, opts: SearchOptions = {}): Promise<SearchResponse> {
      // Interactive: an import's graph work waits for it (core/jobs/foreground.ts).
      return foreground.run(async () => {
        ensureOpen();
        const started = performance.now();
        const k = Math.max(1, Math.min(100, Math.floor(opts.k ?? 10)));
        const stages: StageSwitches = { ...ALL_STAGES, ...opts.stages };
        const embedder = stages.sectionVectors || stages.tripletVectors ? await getEmbedder() : null;
        // A query naming an imported instrument ("DORA incident reporting") searches that document.
        const scope = documentScope(query, libraryNames(await store.listDocuments()).documents, languageResources).documentIds;
        const ranked: RankedSection[] = await hybridSearch(store, embedder, query, {
          k,
          stages,
          caches: retrievalCaches,
          ...(scope.length > 0 ? { documentIds: scope } : {}),
        });
        const retrieveMs = performance.now() - started;
        const top = ranked.slice(0, TRIPLET_SECTIONS);
        const [triplets, subgraph] = await Promise.all([store.getTripletsForSections(top.map((r) => r.section.id)), buildSubgraph(store, ranked, { query })]);
        // Triplets the query's vector matched come first, then the rest in result order.
        const matched = new Set(top.flatMap((r) => r.evidence.tripletIds));
        const order = new Map(top.map((r, i) => [r.section.id, i]));
        triplets.sort(
          (a, b) => Number(matched.has(b.id)) - Number(matched.has(a.id)) || (order.get(a.sectionId) ?? 0) - (order.get(b.sectionId) ?? 0) || a.start - b.start,
        );
        return {
          query,
          results: ranked.map((r) => toSearchResult(r.section, r.document, r.score, query, (Object.keys(r.evidence.stages) as StageName[]).sort())),
          triplets: triplets.slice(0, MAX_SEARCH_TRIPLETS),
          subgraph,
          timings: { retrieveMs, totalMs: performance.now() - started },
        };
      });
    },
    async ask(question, opts = {}) {
      ensureOpen();
      const started = performance.now();
      const k = Math.max(1, Math.min(20, Math.floor(opts.k ?? 8)));
      // The question is read once per ask (question-reader.ts): the follow-up rule and the answer share the reading of one text.
      const documents = await store.listDocuments();
      const read = questionReader(libraryNames(documents), languageResources);
      // In a conversation a follow-up ("and for microenterprises?") keeps the previous question's scope;
      // whether a question names a scope of its own is the question analysis, with follow-up.ts's patterns.
      const plan = opts.conversationId === undefined ? null : await conversations.plan(opts.conversationId, question, analysisScopeNamer(documents, read));
      const asked = plan?.decision.question ?? question;
      const embedder = await getEmbedder();
      // Which documents it names (retrieval keeps to them), what it asks for, which known instruments the library lacks.
      const analysis = read(asked);
      const scope = analysis.scope.documentIds;
      const query = retrievalQuery(asked, analysis.answerType, analysis.language);
      // Held for the whole answer, the rewrite before retrieval included: a model switched meanwhile is closed only after it.
      const lease = await models.acquire(opts.signal);
      try {
        // Routed to the graph, the text, or both (core/graph-query/): a question the graph answers
        // exactly gets its rows; the text path below runs unless the graph answered alone.
        const routed = await routeToGraph(asked, analysis, {
          store,
          llm: lease.llm,
          log,
          resources: languageResources,
          ...(opts.signal ? { signal: opts.signal } : {}),
        });
        // With a model, the question is also searched in the regulations' words (query-rewrite.ts),
        // unless the graph answers it alone.
        const rewrite =
          lease.llm !== null && routed.alone === null && analysis.missingInstruments.length === 0 ? await rewriteQuestion(lease.llm, asked, opts.signal) : null;
        const searchIn = (text: string, documentIds: readonly string[]): Promise<RankedSection[]> =>
          foreground.run(() =>
            hybridSearch(store, embedder, text, {
              k: Math.max(k, ANSWER_CANDIDATES),
              stages: ALL_STAGES,
              caches: retrievalCaches,
              ...(documentIds.length > 0 ? { documentIds: [...documentIds] } : {}),
            }),
          );
        // A question about an instrument the library lacks is refused: nothing is retrieved, so no unrelated graph is drawn.
        // More sections are retrieved than quoted from, then re-ranked for answering (answer-ranking.ts).
        const retrieveIn = async (documentIds: readonly string[]): Promise<RankedSection[]> => {
          const own = await searchIn(query, documentIds);
          const others: RankedSection[][] = [];
          for (const q of rewrite?.queries ?? []) others.push(await searchIn(q, documentIds));
          return rankForAnswer(others.length > 0 ? fuseRewrites(own, others) : own, analysis).slice(0, k);
        };
        // A question naming two instruments is answered per instrument (per-instrument.ts).
        const instruments =
          analysis.missingInstruments.length > 0 || !asksPerInstrument(asked, analysis.scope.instruments)
            ? []
            : instrumentScopes(analysis.scope.instruments, (name) => read(name).scope.documentIds);
        const parts: RankedSection[][] = [];
        for (const s of instruments) parts.push(await retrieveIn(s.documentIds));
        const ranked = analysis.missingInstruments.length > 0 ? [] : parts.length > 0 ? interleave(parts, k * parts.length) : await retrieveIn(scope);
        const [triplets, subgraph, missingNames] = await Promise.all([
          store.getTripletsForSections(ranked.map((r) => r.section.id)),
          buildSubgraph(store, ranked, { query: asked }),
          // The names the analysis left to a search (registry instruments and the documents' aliases are settled by it).
          unmentionedNames(
            analysis.otherNames,
            async (name, n) =>
              (await store.searchSections(name, n)).map((h) => ({ text: `${h.document.title}\n${h.section.label} ${h.section.heading}\n${h.section.text}` })),
            ranked.map((r) => `${r.section.heading}\n${r.section.text}`),
          ),
        ]);
        const retrieveMs = performance.now() - started;
        const answerFrom = async (results: RankedSection[]): Promise<AskResult> => {
          const ids = new Set(results.map((r) => r.section.id));
          const earlierParts = await earlierPartsText(
            store,
            results.map((r) => r.section),
          );
          return answerQuestion({
            earlierParts,
            question: asked,
            results,
            triplets: results === ranked ? triplets : triplets.filter((t) => ids.has(t.sectionId)),
            subgraph,
            embedder,
            llm: lease.llm,
            retrieveMs,
            missingNames,
            analysis,
            // A follow-up is answered about its own subject, in the previous question's scope.
            hints: opts.hints ?? { ...answerHints(analysis), ...(plan?.decision.subject === undefined ? {} : { subject: plan.decision.subject }) },
            retrievalQuery: query,
            resources: languageResources,
            ...(opts.onToken ? { onToken: opts.onToken } : {}),
            ...(opts.trace ? { trace: opts.trace } : {}),
            ...(opts.signal ? { signal: opts.signal } : {}),
            // The saved caps (answer-limits.ts), or this call's own (`ask --max-tokens / --max-seconds`).
            options: { maxAnswerTokens: opts.maxTokens ?? lease.limits.maxTokens, maxSeconds: opts.maxSeconds ?? lease.limits.maxSeconds },
          });
        };
        let answer: AskResult | null = routed.alone;
        if (answer === null && parts.length > 0) {
          const answeredParts: Array<{ scope: InstrumentScope; result: AskResult }> = [];
          for (const [i, part] of parts.entries()) {
            const scopeOf = instruments[i];
            if (scopeOf !== undefined) answeredParts.push({ scope: scopeOf, result: await answerFrom(part) });
          }
          answer = joinAnswers(answeredParts);
        }
        answer ??= await answerFrom(ranked);
        const labelled = {
          ...labelAnswer(answer, { id: lease.model?.id ?? null, name: lease.name, failure: lease.failure }),
          ...(rewrite === null ? {} : { rewrites: rewrite }),
        };
        // A copy: the expansions of recent questions are kept for the next read of the same one.
        const expansions = structuredClone([...vocabularyExpansions(query)]);
        const result = await routed.finish(expansions.length > 0 ? { ...labelled, expansions } : labelled);
        const record = answerLogRecord(
          question.replace(/\s+/g, " ").trim(),
          ranked.map((r) => r.section.id),
          result,
          lease.model,
          new Date(),
          {
            sections: new Map(ranked.map((r) => [r.section.id, { text: r.section.text, documentSha256: r.document.sha256 }])),
            ...(plan?.decision.followUp === true ? { askedAs: plan.decision.question } : {}),
            ...(plan === null ? {} : { conversationId: plan.conversationId }),
            appVersion: appVersion(),
          },
        );
        // A full disk must not take the answer away from the auditor; the failure is reported.
        const logged = await answerLog.append(record).then(
          () => true,
          (err: unknown) => {
            log(`answer not logged: ${toErrorInfo(err).message}`);
            return false;
          },
        );
        if (logged && result.route !== undefined)
          await recordGraphAnswer(dataDir, record.id, result).catch((err: unknown) => log(`graph answer not kept: ${toErrorInfo(err).message}`));
        const answered = logged ? { ...result, logId: record.id } : result;
        return plan === null ? answered : await conversations.record(plan, question, answered, logged ? record : null, log);
      } finally {
        lease.release();
      }
    },
    async extractTriplets(extractOptions = {}) {
      ensureOpen();
      // One model for the whole run (a switch meanwhile waits for release), so a document's
      // triplets and cache keys never mix two models.
      const lease = await models.acquire();
      try {
        if (lease.llm === null) {
          throw new ClauseGraphError("MODEL_NOT_FOUND", "No language model is loaded: choose one (clausegraph models / --llm) before extracting triplets");
        }
        return await runExtractionJob({ store, llm: lease.llm, embedder: await getEmbedder(), serializeWrite: serialize, log }, extractOptions);
      } finally {
        lease.release();
      }
    },
    async listModels() {
      ensureOpen();
      return models.state();
    },
    async selectModel(modelId, settings = {}) {
      ensureOpen();
      return models.select(modelId, settings);
    },
    async importModel(file) {
      ensureOpen();
      return models.importModel(file);
    },
    async setAnswerLimits(limits) {
      ensureOpen();
      return models.setLimits(limits);
    },
    async answerLog(logOptions = {}) {
      ensureOpen();
      return readAnswerLog(dataDir, logOptions);
    },
    async createConversation() {
      ensureOpen();
      return conversations.create();
    },
    async listConversations(listOptions = {}) {
      ensureOpen();
      return conversations.list(listOptions.query);
    },
    async getConversation(id) {
      ensureOpen();
      return conversations.get(id);
    },
    async deleteConversation(id) {
      ensureOpen();
      return conversations.remove(id);
    },
    async exportAnswer(logId, format) {
      ensureOpen();
      return exports.answer(logId, format);
    },
    async exportConversation(id, format) {
      ensureOpen();
      return exports.conversation(id, format);
    },
    async compareDocuments(documentA, documentB, compareOptions = {}) {
      ensureOpen();
      return comparisons.compare(documentA, documentB, compareOptions);
    },
    async listComparisons() {
      ensureOpen();
      return comparisons.list();
    },
    async getComparison(id) {
      ensureOpen();
      return comparisons.get(id);
    },
    async getComparisonPair(id, aSectionId, bSectionId) {
      ensureOpen();
      return comparisons.pair(id, aSectionId, bSectionId);
    },
    async exportComparison(id, format) {
      ensureOpen();
      return comparisons.export(id, format);
    },
    async deleteComparison(id) {
      ensureOpen();
      return comparisons.remove(id);
    },
    async listDocuments() {
      ensureOpen();
      return store.listDocuments();
    },
    async getSection(id) {
      ensureOpen();
      return store.getSection(id);
    },
    async getSections(documentId) {
      ensureOpen();
      return store.getSections(documentId);
    },
    async setDocumentAliases(idOrFile, aliases) {
      ensureOpen();
      return serialize(async () => {
        const doc = await resolveDocument(idOrFile);
        if (!doc) throw new ClauseGraphError("NOT_FOUND", `No document matches ${idOrFile}`);
        const updated = await store.setUserAliases(doc.id, aliasEdit(doc, aliases));
        // Beside the kept copy too: a rebuild of a library that lost this document keeps its names.
        await writeSourceRecord(dataDir, updated).catch((err: unknown) => log(`aliases of ${doc.id} not kept beside its copy: ${toErrorInfo(err).message}`));
        return updated;
      });
    },
    async deleteDocument(idOrFile): Promise<DeleteResult> {
      ensureOpen();
      return serialize(async () => {
        const doc = await resolveDocument(idOrFile);
        if (!doc) return { deleted: false, documentId: null, file: null };
        const deleted = await store.deleteDocument(doc.id);
        if (deleted) {
          searchIndexStale = true;
          await rm(sourcePath(dataDir, doc.id, doc.fileName), { force: true });
          await removeSourceRecord(dataDir, doc.id);
          // Past answers citing it say so, with the date, when reopened.
          await recordDeletedDocument(dataDir, doc).catch((err: unknown) => log(`deletion of ${doc.fileName} not recorded: ${toErrorInfo(err).message}`));
        }
        return { deleted, documentId: doc.id, file: doc.file };
      });
    },
    async graphNeighbors(nodeId) {
      ensureOpen();
      return graphNeighbors(store, nodeId);
    },
    async entityFacts(nodeId) {
      ensureOpen();
      return entityFacts(store, nodeId);
    },
    async getDocumentSource(documentId) {
      ensureOpen();
      const doc = await store.getDocument(documentId);
      if (!doc) throw new ClauseGraphError("NOT_FOUND", `No document with id ${documentId}`);
      const bytes = await readFile(sourcePath(dataDir, doc.id, doc.fileName))
        .catch(() => readFile(doc.file))
        .catch((err: unknown) => {
          throw new ClauseGraphError("NOT_FOUND", `The original file of ${doc.fileName} is no longer available`, { file: doc.file, cause: err });
        });
      return { documentId: doc.id, fileName: doc.fileName, format: doc.format, bytes: new Uint8Array(bytes) };
    },
    async stats(): Promise<EngineStats> {
      ensureOpen();
      return store.stats();
    },
    async checkLibrary() {
      ensureOpen();
      return libraryHealth(dataDir, await serialize(() => store.checkLibrary()));
    },
    async repairLibrary(repairOptions = {}) {
      ensureOpen();
      if (options.store) throw new ClauseGraphError("INTERNAL", "a library with a store given by the caller cannot be rebuilt");
      return serialize(async () => {
        // A library whose full-text index could not be built (a buffer pool too small for it)
        // gets it now, whatever else the check finds.
        await store.refreshSearchIndex();
        await store.searchIndexSettled();
        return rebuildLibrary(repairOptions);
      });
    },
    async ocrPreference() {
      ensureOpen();
      return readOcrPreference(dataDir);
    },
    async setOcrPreference(preference) {
      ensureOpen();
      return writeOcrPreference(dataDir, preference);
    },
    async idle() {
      await serialize(async () => undefined);
    },
    async close() {
      if (closed) return;
      closed = true;
      await warming;
      await writes.drained();
      pipeline.close();
      await models.close();
      if (ownsEmbedder && embedderPromise) await (await embedderPromise)?.close();
      await store.close();
    },
  };
  // Never a reason to fail: a warm-up that fails leaves the loading to the first question.
  let warming: Promise<void> = Promise.resolve();
  if (options.warmUp === true) {
    warming = (async () => {
      await engine.search("warm up", { k: 1 });
      languageResources.sentencePipeline();
      languageResources.englishNlp();
      // Then the library's rows, in small chunks searches interleave with (read-cache.ts warmLibrary).
      const warmed = await store.warmLibrary(WARM_LIBRARY_SECTIONS, () => closed);
      if (warmed > 0) log(`read cache warmed with ${warmed} sections`);
    })().catch((err: unknown) => log(`warm-up failed: ${toErrorInfo(err).message}`));
  }
  return engine;
}
