import { createAnswerLogWriter, createConversations, createLanguageResources, readAnswerLog, reopenedGraph } from "./answer/index.ts";
import path from "node:path";
import type { Engine } from "./model/engine-types.ts";
import type { Embedder } from "./model/embedder.ts";
import type { LlmClient } from "./model/llm-client.ts";
import { ClauseGraphError, toErrorInfo } from "./model/errors.ts";
import { libraryNames } from "./model/document-names.ts";
import { appVersion } from "./files/app-version.ts";
import { createComparisons } from "./compare/comparisons.ts";
import { ensureDefaultEmbedder } from "./embed/default-embedder.ts";
import { createExports } from "./export/export-workpaper.ts";
import { entityFacts } from "./graph-query/entity-facts.ts";
import { graphAnswerTable, reopenGraphAnswer } from "./graph-query/graph-answer-log.ts";
import { readOcrPreference, writeOcrPreference } from "./ingest/ocr/ocr-preference.ts";
import type { ParseLimits } from "./ingest/parse-limits.ts";
import { createForeground } from "./jobs/foreground.ts";
import { createReadAhead } from "./jobs/read-ahead.ts";
import { createWriteQueue } from "./jobs/write-queue.ts";
import type { LlmRuntimeOptions } from "./llm/llama-runtime.ts";
import { openModelSelection } from "./llm/model-selection.ts";
import { runExtractionJob } from "./llm-extract/extraction-job.ts";
import { createIngestionPipeline } from "./pipeline/ingestion-pipeline.ts";
import { graphNeighbors } from "./retrieve/neighbors.ts";
import { createRetrievalCaches } from "./retrieve/retrieval-caches.ts";
import type { GraphStore } from "./store/graph-store.ts";
import type { AnswerLogRecord } from "./model/answer-log-schema.ts";
import type { TripletRecord } from "./model/graph-records.ts";
import type { Subgraph } from "./model/subgraph-types.ts";
import * as use from "./usecases/index.ts";

export type Logger = use.Logger;

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
  /** Where models live, in `<modelRoot>/models/` (default: dataDir), as `clausegraph models` does. */
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
   * Load what the first question needs right after opening, in the background. The app and the web
   * host set it (a user takes longer than that to type a question); the CLI does not (`list` needs none of it).
   */
  warmUp?: boolean;
  log?: Logger;
}

export const databasePath = use.databasePath;
// Where a file's bytes, hash and kept copy are worked out, exported here for the callers that know the engine only.
export { documentIdFromSha, sha256OfFile, sourcePath } from "./pipeline/source-file.ts";

/** Builds an engine's stages once, and the Engine: each use case behind one open check. */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const dataDir = path.resolve(options.dataDir);
  const log: Logger = options.log ?? (() => {});
  const modelRoot = path.resolve(options.modelRoot ?? dataDir);
  const { store, openChecks } = await use.openLibrary(dataDir, options.store, log);
  let closed = false;
  // Made on first use: building the default model takes a few seconds once, and an engine that
  // only lists or deletes never needs it. Without it retrieval still works, from words and the graph.
  let embedderPromise: Promise<Embedder | null> | null = options.embedder === undefined ? null : Promise.resolve(options.embedder);
  const getEmbedder = (): Promise<Embedder | null> =>
    (embedderPromise ??= ensureDefaultEmbedder(modelRoot, {
      onBuild: (dir) => log(`building the default embedding model in ${dir}`),
      ...(options.bundledModelDir === undefined ? {} : { bundledDir: options.bundledModelDir }),
    }).catch((err: unknown) => {
      log(`embedding model unavailable, continuing without vectors: ${toErrorInfo(err).message}`);
      return null;
    }));
  const languageResources = createLanguageResources();
  const foreground = createForeground();
  // Owns the parsing child kept between imports, which dies with this engine.
  const pipeline = createIngestionPipeline({
    dataDir,
    getEmbedder,
    englishNlp: () => languageResources.englishNlp(),
    yieldToForeground: () => foreground.yieldTo(),
    log,
    ...(options.parseLimits === undefined ? {} : { parseLimits: options.parseLimits }),
  });
  // An answer or a job leases the model, so a switch never mixes two models' output in one run.
  const models = await openModelSelection({
    dataDir,
    modelRoot,
    ...(options.llm === undefined ? {} : { external: options.llm }),
    ...(options.llmRuntime ? { runtime: options.llmRuntime } : {}),
    log,
  });
  const conversations = createConversations({
    dataDir,
    listDocuments: () => store.listDocuments(),
    answerGraph: reopenedAnswerGraph(store, dataDir),
  });
  const exports = createExports({
    dataDir,
    appVersion: appVersion(),
    listDocuments: () => store.listDocuments(),
    conversations,
    graphTable: (logId) => graphAnswerTable(dataDir, logId),
  });
  const writes = createWriteQueue();
  const searchIndex = use.searchIndexFreshness(store, writes, log);
  const ctx: use.EngineContext = {
    dataDir,
    store,
    callerStore: options.store !== undefined,
    log,
    libraryNames: store.memoOfDocuments(libraryNames),
    libraryLanguages: store.memoOfDocuments((docs) => new Set(docs.map((d) => d.language))),
    getEmbedder,
    retrievalCaches: createRetrievalCaches(),
    languageResources,
    foreground,
    pipeline,
    models,
    answerLog: createAnswerLogWriter(dataDir),
    conversations,
    writes,
    readAhead: createReadAhead(2),
    searchIndex,
    serialize: (work) => writes.run(() => store.batchWrites(() => work().finally(() => searchIndex.refreshWhenDrained()))),
    isClosed: () => closed,
  };
  await use.bringVectorsUpToDate(ctx, options.embedder);
  // Crosswalks between documents: computed outside the write queue, stored through it.
  const comparisons = createComparisons({
    store,
    getEmbedder,
    acquireModel: (signal) => models.acquire(signal),
    serializeWrite: ctx.serialize,
    resolveDocument: (idOrFile) => use.resolveDocument(ctx, idOrFile),
    log,
  });
  let warming: Promise<void> = Promise.resolve();

  const engine = openChecked<Engine>(() => closed, {
    dataDir,
    importFiles: (files, opts) => use.importFiles(ctx, files, opts),
    search: (query, opts) => use.searchLibrary(ctx, query, opts),
    ask: (question, opts) => use.askQuestion(ctx, question, opts),
    async extractTriplets(extractOptions = {}) {
      // One model for the whole run, so a document's triplets and cache keys never mix two models.
      const lease = await models.acquire();
      try {
        if (lease.llm === null)
          throw new ClauseGraphError("MODEL_NOT_FOUND", "No language model is loaded: choose one (clausegraph models / --llm) before extracting triplets");
        return await runExtractionJob({ store, llm: lease.llm, embedder: await getEmbedder(), serializeWrite: ctx.serialize, log }, extractOptions);
      } finally {
        lease.release();
      }
    },
    listModels: () => models.state(),
    selectModel: (modelId, settings = {}) => models.select(modelId, settings),
    importModel: (file) => models.importModel(file),
    setAnswerLimits: (limits) => models.setLimits(limits),
    answerLog: (logOptions = {}) => readAnswerLog(dataDir, logOptions),
    createConversation: () => conversations.create(),
    listConversations: (listOptions = {}) => conversations.list(listOptions.query),
    getConversation: (id) => conversations.get(id),
    deleteConversation: (id) => conversations.remove(id),
    exportAnswer: (logId, format) => exports.answer(logId, format),
    exportConversation: (id, format) => exports.conversation(id, format),
    compareDocuments: (a, b, compareOptions = {}) => comparisons.compare(a, b, compareOptions),
    listComparisons: () => comparisons.list(),
    getComparison: (id) => comparisons.get(id),
    getComparisonPair: (id, a, b) => comparisons.pair(id, a, b),
    exportComparison: (id, format) => comparisons.export(id, format),
    deleteComparison: (id) => comparisons.remove(id),
    listDocuments: () => store.listDocuments(),
    getSection: (id) => store.getSection(id),
    getSections: (documentId) => store.getSections(documentId),
    setDocumentAliases: (idOrFile, aliases) => use.setDocumentAliases(ctx, idOrFile, aliases),
    deleteDocument: (idOrFile) => use.deleteDocument(ctx, idOrFile),
    graphNeighbors: (nodeId) => graphNeighbors(store, nodeId),
    entityFacts: (nodeId) => entityFacts(store, nodeId),
    getDocumentSource: (documentId) => use.documentSource(ctx, documentId),
    stats: () => store.stats(),
    checkLibrary: () => use.checkLibrary(ctx),
    repairLibrary: (repairOptions = {}) => use.repairLibrary(ctx, repairOptions),
    ocrPreference: () => readOcrPreference(dataDir),
    setOcrPreference: (preference) => writeOcrPreference(dataDir, preference),
    idle: async () => {
      await openChecks.now();
      await warming;
      await ctx.serialize(async () => undefined);
    },
    resources: async () => use.engineResources(ctx),
    async close() {
      if (closed) return;
      closed = true;
      await openChecks.close();
      await warming;
      await writes.drained();
      pipeline.close();
      await models.close();
      if (options.embedder === undefined && embedderPromise) await (await embedderPromise)?.close();
      await store.close();
    },
  });
  if (options.warmUp === true) warming = use.warmUp(ctx);
  return engine;
}

/** Methods that still work on a closed engine: closing is idempotent and waiting costs nothing. */
const ALWAYS_OPEN = new Set(["close", "idle"]);

/** Each method of `methods` refused (INTERNAL "the engine is closed") once `isClosed()`, except ALWAYS_OPEN. */
function openChecked<T extends object>(isClosed: () => boolean, methods: T): T {
  for (const [name, value] of Object.entries(methods)) {
    if (typeof value !== "function" || ALWAYS_OPEN.has(name)) continue;
    const method = value as (...args: unknown[]) => unknown;
    Reflect.set(methods, name, (...args: unknown[]) => {
      if (isClosed()) return Promise.reject(new ClauseGraphError("INTERNAL", "the engine is closed"));
      try {
        return method(...args);
      } catch (err) {
        return Promise.reject(err);
      }
    });
  }
  return methods;
}

/** A reopened answer's graph: its kept route and rows beside the graph it was given with, as far as the library still holds it. */
function reopenedAnswerGraph(store: GraphStore, dataDir: string): (record: AnswerLogRecord) => Promise<{ subgraph: Subgraph; triplets: TripletRecord[] }> {
  return async (record) =>
    (await reopenGraphAnswer(store, dataDir, record, record.subgraph === undefined ? undefined : () => reopenedGraph(store, record))) ??
    (await reopenedGraph(store, record));
}
