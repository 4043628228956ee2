import type { ErrorInfo } from "./errors.ts";
import type { OcrLanguage, OcrMode, OcrOffer, OcrSummary } from "./ocr-types.ts";
import type { ProgressListener } from "./job.ts";
import type { AnswerHints, AnswerTrace, AskResult } from "./answer-types.ts";
import type { AnswerLogRecord } from "./answer-log-schema.ts";
import type { Conversation, ConversationSummary, ExportFile, ExportFormat } from "./conversation-schemas.ts";
import type { ModelImportResult, ModelSelectSettings, ModelsState } from "./llm-model-schemas.ts";
import type { AnswerLimitsPatch } from "./answer-limits.ts";
import type { RankedSection, StageName } from "./retrieval-types.ts";
import type { Subgraph } from "./subgraph-types.ts";
import type { EntityFacts } from "./graph-answer-types.ts";
import type { DocumentRecord, LibraryHealth, StoreStats } from "./store-records.ts";
import type { TripletRecord } from "./graph-records.ts";
import type { Section } from "./section-types.ts";
import type { ExtractionSummary } from "./extraction-types.ts";
import type { CompareResult, ComparisonSummary, Crosswalk, CrosswalkExportFormat, PairDetail } from "./compare-schemas.ts";

// The engine's public surface: what the CLI, the tests, the web host and the Electron utility
// process call. Everything here is plain data so it can cross a process boundary unchanged.

export interface ImportOptions {
  password?: string;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /**
   * The caller's job id: the progress events of a one-file import carry it; with several files the
   * n-th file's carry `<jobId>-<n>`. Without it each file's job gets a random id.
   */
  jobId?: string;
  /**
   * Pages without a usable text layer (scans): "auto" (default) reads them with OCR, "ask" stops
   * with NEEDS_OCR and `ocrOffer` (the UI asks the user), "always" OCRs every page, "never" refuses
   * a scanned PDF with NO_TEXT_LAYER.
   */
  ocr?: OcrMode;
  /** The language of the scanned pages; guessed from the first one (eng/ita) when absent. */
  ocrLanguage?: OcrLanguage;
}

/** What the user chose to do with scanned PDFs in the app, remembered in settings.json. */
export interface OcrPreference {
  /** "ask" until the user ticks "remember my choice". */
  mode: Extract<OcrMode, "ask" | "auto" | "never">;
  /** "auto": guessed from the first scanned page. */
  language: OcrLanguage | "auto";
}

export interface ImportResult {
  file: string;
  documentId: string | null;
  sha256: string | null;
  title: string | null;
  pages: number;
  sections: number;
  status: "ok" | "skipped" | "error";
  /** Why it was skipped ("already imported as …") or non-fatal observations. */
  warnings: string[];
  error?: ErrorInfo;
  /** With NEEDS_OCR (mode "ask"): what reading the scanned pages would take. */
  ocrOffer?: OcrOffer;
  /** Pages read with OCR, and how surely (absent when none was). */
  ocr?: OcrSummary;
}

export interface SearchOptions {
  k?: number;
  /** Switch retrieval stages off (all on by default): for comparisons and diagnosis. */
  stages?: Partial<Record<StageName | "rescore", boolean>>;
}

export interface SearchResult {
  sectionId: string;
  documentId: string;
  file: string;
  label: string;
  heading: string;
  path: string[];
  pageStart: number;
  pageEnd: number;
  score: number;
  /** A snippet of the section text around the query terms. */
  text: string;
  /** The retrieval stages that found or promoted this section. */
  foundBy: StageName[];
}

/** The fused ranking, the triplets behind the top results and the subgraph drawn beside them. */
export interface SearchResponse {
  query: string;
  results: SearchResult[];
  /** Triplets stated in the top results (capped), strongest first. */
  triplets: TripletRecord[];
  subgraph: Subgraph;
  timings: { retrieveMs: number; totalMs: number };
}

export interface AskOptions {
  /** Sections retrieved as evidence (default 8). */
  k?: number;
  /** What the question asks for; by default from the engine's question analysis (benches and tests may set it). */
  hints?: AnswerHints;
  /** The model's raw text as it streams (only with a model). */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
  /** For this answer only, instead of the saved caps (`clausegraph ask --max-tokens / --max-seconds`). */
  maxTokens?: number;
  maxSeconds?: number;
  /**
   * Records the answer as the next turn of this conversation (NOT_FOUND if there is none), and a
   * follow-up ("and for microenterprises?") keeps the previous question's scope (answer/follow-up.ts).
   */
  conversationId?: string;
  /** Told every candidate sentence as it was scored (benches only: bench/fit-answer-weights.ts). */
  trace?: (trace: AnswerTrace) => void;
  /** Told the sections the answer was composed from, in answering order (benches only: bench/answer.ts). */
  onEvidence?: (sections: readonly RankedSection[]) => void;
}

export interface AnswerLogQuery {
  /** Most recent records to return (default 100). */
  limit?: number;
  /** Only answers given at or after this time (ISO 8601). */
  since?: string;
}

export interface ExtractOptions {
  /** Default: every document in the library. */
  documentIds?: string[];
  signal?: AbortSignal;
  /** One job per document: steps extracting (per section), cleaning, embeddings, storing. */
  onProgress?: ProgressListener;
}

export type { ExtractionSummary } from "./extraction-types.ts";

/** Which provisions a comparison aligns (CompareOptions.provisions). */
export type ProvisionScope = "operative" | "all";

export interface CompareOptions {
  /** Matches kept per section of A (default 3, at most 20). */
  k?: number;
  /** Ask the loaded model for a verdict on every stored pair (MODEL_NOT_FOUND without one). */
  verdicts?: boolean;
  /**
   * Which provisions are aligned: "operative" (default) leaves out recitals, preambles,
   * introductions, tables of contents and appendices on both sides; "all" takes every one.
   */
  provisions?: ProvisionScope;
  /** The caller's id for the job's progress events (jobs.cancel with it cancels the run). */
  jobId?: string;
  signal?: AbortSignal;
  /** One job: steps reading, neighbours, scoring, analysing, storing, then verdicts (per pair). */
  onProgress?: ProgressListener;
  /** Before the model's first call: the k·n pairs, how many the cache answers, how many calls it makes. */
  onVerdictPlan?: (plan: { pairs: number; cached: number; modelCalls: number }) => void;
}

export interface DeleteResult {
  deleted: boolean;
  documentId: string | null;
  file: string | null;
}

export type EngineStats = StoreStats;

export interface RepairResult {
  /** False when the library was sound and nothing was done. */
  rebuilt: boolean;
  /** One import per document of the rebuilt library, in import order. */
  reimported: ImportResult[];
  /** Documents no file was left of: they are not in the rebuilt library. */
  missing: Array<{ documentId: string; fileName: string | null }>;
  /** Where the damaged database was kept (null when nothing was rebuilt). */
  backup: string | null;
  /** The library after the repair. */
  health: LibraryHealth;
}

/** The original file of a document, kept in the data folder so the viewer never depends on where it came from. */
export interface DocumentSource {
  documentId: string;
  fileName: string;
  format: DocumentRecord["format"];
  bytes: Uint8Array;
}

/** Sizes of what an engine keeps between requests. */
export interface EngineResources {
  /** Rows the store's read cache holds. */
  readCacheEntries: number;
  /** Sections whose stems retrieval remembers. */
  stemCacheEntries: number;
  /** Sections whose headings above retrieval remembers. */
  contextCacheEntries: number;
  /** Section vectors embedded on the fly and remembered. */
  sectionVectorCacheEntries: number;
  /** Rows of the vector tables' in-memory mirrors. */
  vectorMirrorRows: number;
  searchSegments: number;
  /** What the full-text segments' indexes hold in memory, in MB. */
  searchIndexMb: number;
  /** The library's buffer pool, which Kuzu may fill, in MB. */
  kuzuPoolMb: number;
  /** Write tasks queued or running. */
  pendingWrites: number;
}

export interface Engine {
  readonly dataDir: string;
  importFiles(files: string[], options?: ImportOptions): Promise<ImportResult[]>;
  search(query: string, options?: SearchOptions): Promise<SearchResponse>;
  /** A cited answer: written by the local model when one is loaded, otherwise quoted from the sections. */
  ask(question: string, options?: AskOptions): Promise<AskResult>;
  listDocuments(): Promise<DocumentRecord[]>;
  getSection(id: string): Promise<Section | null>;
  getSections(documentId: string): Promise<Section[]>;
  /**
   * Makes `aliases` the names a document answers to (core/model/document-names.ts: registry names
   * left out are hidden, others added as the user's). By id, path or file name; NOT_FOUND otherwise.
   */
  setDocumentAliases(idOrFile: string, aliases: string[]): Promise<DocumentRecord>;
  /** By document id, or by the file path / file name it was imported from. */
  deleteDocument(idOrFile: string): Promise<DeleteResult>;
  /** One hop around a node of a subgraph (`section:…`, `entity:…`, `term:…`). */
  graphNeighbors(nodeId: string): Promise<Subgraph>;
  /** Every section stating a fact about an entity of the graph (`entity:…`): VALIDATION for another node, NOT_FOUND for an unknown entity. */
  entityFacts(nodeId: string): Promise<EntityFacts>;
  /** NOT_FOUND when the document or its kept copy is missing. */
  getDocumentSource(documentId: string): Promise<DocumentSource>;
  stats(): Promise<EngineStats>;
  /** Documents the library holds only in part (a storage error); checked at every open too. */
  checkLibrary(): Promise<LibraryHealth>;
  /**
   * Rebuilds a damaged library from the copies kept at import (every document under its original
   * name and date) and swaps it in; the damaged database is kept beside it. A sound library is
   * left alone. LLM triplets are not carried over: extract them again.
   */
  repairLibrary(options?: ImportOptions): Promise<RepairResult>;
  /** Language models: the ones installed or recommended, and the one answering. */
  listModels(): Promise<ModelsState>;
  /**
   * Loads a model (null: none, answers are quoted) and answers with it from now on; the choice is
   * saved for the next start. MODEL_NOT_FOUND / MODEL_INVALID / MODEL_TOO_LARGE_FOR_RAM /
   * MODEL_TIMEOUT when it cannot be loaded (the previous model then stays).
   */
  selectModel(modelId: string | null, settings?: ModelSelectSettings): Promise<ModelsState>;
  /** Copies a GGUF file into the models folder after checking it (MODEL_NOT_FOUND / MODEL_INVALID). */
  importModel(file: string): Promise<ModelImportResult>;
  /** Caps every written answer at this many generated tokens and seconds; saved for the next start. */
  setAnswerLimits(limits: AnswerLimitsPatch): Promise<ModelsState>;
  /** The most recent answers recorded in this library's answer log, oldest first. */
  answerLog(options?: AnswerLogQuery): Promise<AnswerLogRecord[]>;
  /** Starts an empty conversation (asks then add turns to it with AskOptions.conversationId). */
  createConversation(): Promise<ConversationSummary>;
  /** Conversations, newest first; with a query, those whose questions or answers hold all its words. */
  listConversations(options?: { query?: string }): Promise<ConversationSummary[]>;
  /** A conversation with every answer as it was given (from the answer log); NOT_FOUND when missing. */
  getConversation(id: string): Promise<Conversation>;
  /** Removes the conversation (its answers stay in the answer log, the audit trail). */
  deleteConversation(id: string): Promise<{ deleted: boolean }>;
  /** One answer of the answer log as an audit workpaper (Markdown, or HTML to print as PDF). */
  exportAnswer(logId: string, format: ExportFormat): Promise<ExportFile>;
  /** A whole conversation as an audit workpaper, built from the answer log. */
  exportConversation(id: string, format: ExportFormat): Promise<ExportFile>;
  /**
   * Builds the LLM tier of the graph with the loaded model: triplets per section, cleaned and
   * stored with source "llm" (replacing the document's previous ones). Resumable: sections already
   * extracted with this model and prompt come from the cache. MODEL_NOT_FOUND without a model,
   * CANCELLED when aborted (what finished is kept in the cache).
   */
  extractTriplets(options?: ExtractOptions): Promise<ExtractionSummary>;
  /**
   * A crosswalk (core/compare/): for every section of A, its k best matches in B (documentB null:
   * every other document of the library), with scores, reasons and rule-based flags, stored as
   * SIMILAR_TO edges; with `verdicts`, the loaded model judges each pair. Comparing the same two
   * again refreshes it, rewriting only the rows that changed. By document id, path or file name.
   */
  compareDocuments(documentA: string, documentB: string | null, options?: CompareOptions): Promise<CompareResult>;
  /** Stored comparisons, newest first, each saying whether it is still current. */
  listComparisons(): Promise<ComparisonSummary[]>;
  /** One comparison as rows (every provision of A, matched or not); NOT_FOUND when missing. */
  getComparison(id: string): Promise<Crosswalk>;
  /** A pair of a comparison side by side: both sections, matching sentences, obligations, graph. */
  getComparisonPair(id: string, aSectionId: string, bSectionId: string): Promise<PairDetail>;
  /** The crosswalk as CSV or Markdown, each side cited by document, paragraph and page. */
  exportComparison(id: string, format: CrosswalkExportFormat): Promise<ExportFile>;
  deleteComparison(id: string): Promise<{ deleted: boolean }>;
  /** The remembered choice for scanned PDFs in the app (settings.json; "ask" until one is made). */
  ocrPreference(): Promise<OcrPreference>;
  /** Remembers it for the next imports and starts. */
  setOcrPreference(preference: OcrPreference): Promise<OcrPreference>;
  /** Resolves when the work queued so far (the warm-up at open, imports, re-embedding after a model change) has finished. */
  idle(): Promise<void>;
  /** What the engine holds in memory now, by cache and buffer (bench:soak: nothing may grow without bound). */
  resources(): Promise<EngineResources>;
  close(): Promise<void>;
}
