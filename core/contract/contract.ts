import { z } from "zod";
import { askResultSchema } from "../model/answer-schemas.ts";
import { entityFactsSchema } from "../model/graph-answer-schemas.ts";
import { answerLogRecordSchema, MAX_ANSWER_LOG_READ } from "../model/answer-log-schema.ts";
import { conversationIdSchema, conversationSchema, conversationSummarySchema, exportFileSchema, exportFormatSchema } from "../model/conversation-schemas.ts";
import { modelImportResultSchema, modelsStateSchema } from "../model/llm-model-schemas.ts";
import { answerLimitsPatchSchema } from "../model/answer-limits.ts";
import { extractionSummarySchema } from "../model/extraction-types.ts";
import {
  compareResultSchema,
  comparisonSummarySchema,
  crosswalkSchema,
  exportFormatSchema as crosswalkExportFormatSchema,
  pairDetailSchema,
} from "../model/compare-schemas.ts";
import type { ErrorInfo } from "../model/errors.ts";
import { ALIAS_LIMITS } from "../model/document-names.ts";
import { ocrLanguageSchema, ocrModeSchema } from "../model/ocr-types.ts";
import type { OcrLanguage, OcrMode } from "../model/ocr-types.ts";
import {
  deleteResultSchema,
  documentRecordSchema,
  errorInfoSchema,
  importResultSchema,
  jobProgressSchema,
  libraryHealthSchema,
  repairResultSchema,
  searchResponseSchema,
  subgraphSchema,
  sectionSchema,
  statsSchema,
} from "../model/record-schemas.ts";

// The one definition of everything the UI can ask the engine and everything the engine pushes.
// Electron IPC, the web host's WebSocket and the tests all speak it; every payload arrives as
// `unknown` and is parsed here, so a compromised or buggy renderer can only send what is listed.
// Browser-safe on purpose: zod only, no Node built-ins.

/** Limits keep a hostile payload from making the engine allocate or scan without bound. */
export const LIMITS = {
  path: 4096,
  filesPerImport: 500,
  password: 1024,
  query: 2000,
  id: 512,
  k: 100,
  fileName: 255,
  filesPerUpload: 50,
  /** The most one upload may carry: 100 MiB of file bytes. */
  uploadBytes: 100 * 1024 * 1024,
  /** The same, as base64 (Electron's IPC, which carries bytes inside a message). */
  uploadBase64: Math.ceil((100 * 1024 * 1024) / 3) * 4,
} as const;

/**
 * The web host takes file bytes only as an HTTP POST streamed to disk (a WebSocket message is
 * parsed whole in memory: concurrent large base64 uploads ran the host out of memory).
 * `POST <path>?<nameParam>=<file name>`, the password (if any) percent-encoded in `passwordHeader`;
 * the answer is the same `Result<ImportResult[]>` as `documents.upload`.
 */
export const WEB_UPLOAD = {
  path: "/api/upload",
  nameParam: "name",
  jobIdParam: "jobId",
  /** The import's OCR mode and language, as for documents.upload. */
  ocrParam: "ocr",
  ocrLanguageParam: "ocrLanguage",
  passwordHeader: "X-ClauseGraph-Password",
} as const;

const id = z.string().min(1).max(LIMITS.id);
/** An id the caller chooses for a job, so it can match its progress events and cancel it before the first one. */
export const callerJobId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const noParams = z.strictObject({});

/** What every import request may say about scanned pages (ImportOptions.ocr / ocrLanguage). */
const ocrParams = {
  /** Default "auto"; the app sends the remembered choice, "ask" until there is one (NEEDS_OCR + ocrOffer). */
  ocr: ocrModeSchema.optional(),
  ocrLanguage: ocrLanguageSchema.optional(),
};

/** The remembered choice for scanned PDFs (ocr.preference / ocr.setPreference). */
export const ocrPreferenceParams = z.strictObject({
  mode: z.enum(["ask", "auto", "never"]),
  language: z.union([ocrLanguageSchema, z.literal("auto")]),
});

// A bare file name: the host writes it into its own upload folder, so it must not climb out.
export const uploadName = z
  .string()
  .min(1)
  .max(LIMITS.fileName)
  .refine((name) => !/[/\\\0]/.test(name) && name !== "." && name !== "..", "must be a plain file name")
  // File systems count a name's bytes, not its characters: 100 emoji are 400 bytes.
  .refine((name) => new TextEncoder().encode(name).length <= LIMITS.fileName, `must be at most ${LIMITS.fileName} bytes long (UTF-8), as file systems require`);

export const requestSchemas = {
  "documents.import": {
    params: z.strictObject({
      files: z.array(z.string().min(1).max(LIMITS.path)).min(1).max(LIMITS.filesPerImport),
      password: z.string().max(LIMITS.password).optional(),
      /** Names a one-file import's progress events (the n-th of several: `<jobId>-<n>`); jobs.cancel with it cancels the call, waiting files included. */
      jobId: callerJobId.optional(),
      ...ocrParams,
    }),
    result: z.array(importResultSchema),
  },
  "documents.upload": {
    params: z.strictObject({
      files: z
        .array(z.strictObject({ name: uploadName, bytesBase64: z.base64().max(LIMITS.uploadBase64) }))
        .min(1)
        .max(LIMITS.filesPerUpload),
      password: z.string().max(LIMITS.password).optional(),
      /** As for documents.import. */
      jobId: callerJobId.optional(),
      ...ocrParams,
    }),
    result: z.array(importResultSchema),
  },
  "documents.list": { params: noParams, result: z.array(documentRecordSchema) },
  /** The remembered answer to "This PDF is scanned — read it with OCR?" ("ask" until the user ticks "remember"). */
  "ocr.preference": { params: noParams, result: ocrPreferenceParams },
  "ocr.setPreference": { params: ocrPreferenceParams, result: ocrPreferenceParams },
  /** Makes these the names a document answers to (questions "under DORA" find it by them); returns the document. */
  "documents.aliases": {
    params: z.strictObject({ id, aliases: z.array(z.string().max(ALIAS_LIMITS.chars)).max(ALIAS_LIMITS.perDocument) }),
    result: documentRecordSchema,
  },
  "documents.delete": {
    /** A document id, or the path / file name it was imported from. */
    params: z.strictObject({ id }),
    result: deleteResultSchema,
  },
  search: {
    params: z.strictObject({
      query: z.string().trim().min(1).max(LIMITS.query),
      k: z.int().min(1).max(LIMITS.k).optional(),
    }),
    result: searchResponseSchema,
  },
  ask: {
    params: z.strictObject({
      question: z.string().trim().min(1).max(LIMITS.query),
      k: z.int().min(1).max(20).optional(),
      /** Chosen by the caller so it can match `ask.token` events and cancel with jobs.cancel before the answer returns. */
      askId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/)
        .optional(),
      /** Records the answer in this conversation; a follow-up keeps the previous question's scope. */
      conversationId: conversationIdSchema.optional(),
    }),
    result: askResultSchema,
  },
  "sections.get": { params: z.strictObject({ id }), result: sectionSchema },
  "sections.list": { params: z.strictObject({ documentId: id }), result: z.array(sectionSchema) },
  stats: { params: noParams, result: statsSchema },
  /** Documents the library holds only in part (a storage error), in words. */
  "library.check": { params: noParams, result: libraryHealthSchema },
  /** Rebuilds a damaged library from the copies kept at import; progress as job.progress, cancellable. */
  "library.repair": {
    params: z.strictObject({
      jobId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/)
        .optional(),
    }),
    result: repairResultSchema,
  },
  "graph.neighbors": {
    params: z.strictObject({ nodeId: id }),
    result: subgraphSchema,
  },
  /** Every section stating a fact about an entity of the graph (`entity:…`), to step through. */
  "graph.entityFacts": {
    params: z.strictObject({ nodeId: id }),
    result: entityFactsSchema,
  },
  "documents.source": {
    params: z.strictObject({ id }),
    result: z.object({
      documentId: z.string(),
      fileName: z.string(),
      format: z.enum(["pdf", "text", "markdown"]),
      bytesBase64: z.base64(),
    }),
  },
  "jobs.cancel": {
    params: z.strictObject({ jobId: id }),
    result: z.object({ cancelled: z.boolean() }),
  },
  "triplets.extract": {
    params: z.strictObject({
      /** Default: every document. */
      documentIds: z.array(id).min(1).max(LIMITS.filesPerImport).optional(),
      /** Chosen by the caller so it can cancel with jobs.cancel before the first progress event. */
      jobId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/)
        .optional(),
    }),
    result: extractionSummarySchema,
  },
  "models.list": { params: noParams, result: modelsStateSchema },
  "models.select": {
    /** null: no model (answers are quoted from the documents). */
    params: z.strictObject({
      modelId: z.string().min(1).max(128).nullable(),
      threads: z.int().min(1).max(256).optional(),
      contextSize: z.int().min(64).max(1_048_576).optional(),
    }),
    result: modelsStateSchema,
  },
  "models.import": {
    params: z.strictObject({ path: z.string().min(1).max(LIMITS.path) }),
    result: modelImportResultSchema,
  },
  /** Caps on written answers (generated tokens, seconds); saved for the next start. Absent fields keep their value. */
  "models.limits": { params: answerLimitsPatchSchema, result: modelsStateSchema },
  "answers.log": {
    params: z.strictObject({ limit: z.int().min(1).max(MAX_ANSWER_LOG_READ).optional() }),
    result: z.array(answerLogRecordSchema),
  },
  "conversations.create": { params: noParams, result: conversationSummarySchema },
  /** Newest first; a query keeps those whose questions or answers hold all its words. */
  "conversations.list": {
    params: z.strictObject({ query: z.string().max(LIMITS.query).optional() }),
    result: z.array(conversationSummarySchema),
  },
  /** Every answer as it was given, from the answer log. */
  "conversations.get": { params: z.strictObject({ id: conversationIdSchema }), result: conversationSchema },
  "conversations.delete": { params: z.strictObject({ id: conversationIdSchema }), result: z.object({ deleted: z.boolean() }) },
  /** An audit workpaper of one answer (by its answer-log id): Markdown, or HTML to print as PDF (default md). */
  "export.answer": {
    params: z.strictObject({ logId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), format: exportFormatSchema.optional() }),
    result: exportFileSchema,
  },
  /** An audit workpaper of a whole conversation (default md). */
  "export.conversation": {
    params: z.strictObject({ id: conversationIdSchema, format: exportFormatSchema.optional() }),
    result: exportFileSchema,
  },
  /** A crosswalk of A against B (null: the whole library); progress as job.progress, cancellable by jobId. */
  "compare.run": {
    params: z.strictObject({
      documentA: id,
      documentB: id.nullable(),
      k: z.int().min(1).max(20).optional(),
      /** Have the loaded model judge each pair (MODEL_NOT_FOUND without one). */
      verdicts: z.boolean().optional(),
      /** Operative provisions only (default), or recitals, introductions and appendices too. */
      provisions: z.enum(["operative", "all"]).optional(),
      jobId: callerJobId.optional(),
    }),
    result: compareResultSchema,
  },
  "compare.list": { params: noParams, result: z.array(comparisonSummarySchema) },
  "compare.get": { params: z.strictObject({ id }), result: crosswalkSchema },
  /** One pair side by side: both sections, matching sentences, obligations, graph. */
  "compare.pair": { params: z.strictObject({ id, aSectionId: id, bSectionId: id }), result: pairDetailSchema },
  /** CSV or Markdown, each side cited by document, paragraph and page. */
  "compare.export": { params: z.strictObject({ id, format: crosswalkExportFormatSchema }), result: exportFileSchema },
  "compare.delete": { params: z.strictObject({ id }), result: z.object({ deleted: z.boolean() }) },
} as const;

export type Channel = keyof typeof requestSchemas;
export const CHANNELS = Object.keys(requestSchemas) as Channel[];
export const channelSchema = z.enum(CHANNELS as [Channel, ...Channel[]]);

/** What a caller passes (before defaults/trimming). */
export type Params<C extends Channel> = z.input<(typeof requestSchemas)[C]["params"]>;
/** What the dispatcher hands the engine (after parsing). */
export type ParsedParams<C extends Channel> = z.output<(typeof requestSchemas)[C]["params"]>;
export type Value<C extends Channel> = z.output<(typeof requestSchemas)[C]["result"]>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

export const askTokenSchema = z.object({ askId: z.string(), text: z.string() });

export const eventSchemas = {
  "job.progress": jobProgressSchema,
  "ask.token": askTokenSchema,
} as const;

export type EventName = keyof typeof eventSchemas;
export type EventPayload<E extends EventName> = z.output<(typeof eventSchemas)[E]>;
export type JobProgressEvent = EventPayload<"job.progress">;
export type AskTokenEvent = EventPayload<"ask.token">;

export function resultSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion("ok", [z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: errorInfoSchema })]);
}

// The renderer may import only the contract from core/: it re-exports the data types it shows.
export type { ErrorInfo, ErrorCode } from "../model/errors.ts";
export type { DeleteResult, ImportResult, RepairResult, SearchResponse, SearchResult } from "../model/engine-types.ts";
export type { DocumentExtractionSummary, ExtractionSummary } from "../model/extraction-types.ts";
export type {
  CompareResult,
  ComparisonSummary,
  Crosswalk,
  CrosswalkExportFormat,
  CrosswalkMatch,
  CrosswalkRow,
  MatchReasons,
  ObligationRow,
  ObligationView,
  PairDetail,
  PairFlag,
  PairVerdict,
  Span,
} from "../model/compare-schemas.ts";
export type { AskResult, AskSentence } from "../model/answer-types.ts";
export type { AskCitation } from "../model/ask-citation.ts";
export type { AnswerRoute, EntityFactSection, EntityFacts, GraphRow } from "../model/graph-answer-types.ts";
export type { AnswerLogRecord } from "../model/answer-log-schema.ts";
export type { Conversation, ConversationSummary, ConversationTurn, ExportFile, ExportFormat } from "../model/conversation-schemas.ts";
export type { ModelEntry, ModelImportResult, ModelsState } from "../model/llm-model-schemas.ts";
export type { AnswerLimits } from "../model/answer-limits.ts";
export { ANSWER_LIMIT_BOUNDS } from "../model/answer-limits.ts";
export type { Subgraph, SubgraphEdge, SubgraphNode } from "../model/subgraph-types.ts";
export type { TripletRecord } from "../model/graph-records.ts";
export type { DamagedDocumentInfo, DocumentRecord, LibraryHealth, StoreStats } from "../model/store-records.ts";
export type { Section } from "../model/section-types.ts";
export type { OcrLanguage, OcrMode, OcrOffer, OcrSummary } from "../model/ocr-types.ts";
export { LOW_OCR_CONFIDENCE, lowConfidenceOcrPages } from "../model/ocr-types.ts";
export type { OcrPreference } from "../model/engine-types.ts";
// Where the viewer draws a cited sentence over the page (text page or scan alike).
export { highlightBoxes, partOfLine } from "../model/highlight-geometry.ts";
// Browser-safe helpers the library pane shares with the engine.
export { effectiveAliases, ALIAS_LIMITS } from "../model/document-names.ts";

// ---- Wire messages, identical over WebSocket, Electron IPC and the utility-process port. ----

export const wireRequestSchema = z.strictObject({
  id: z.union([z.string().max(64), z.int()]),
  channel: z.unknown(),
  payload: z.unknown(),
});
export type WireRequest = z.output<typeof wireRequestSchema>;

export const wireResponseSchema = z.object({
  id: z.union([z.string(), z.int(), z.null()]),
  result: z.unknown(),
});
export type WireResponse = z.output<typeof wireResponseSchema>;

export const wireEventSchema = z.object({ event: z.string(), payload: z.unknown() });
export type WireEvent = z.output<typeof wireEventSchema>;

// ---- The named API the renderer sees as `window.clausegraph`. ----

/** Method name → channel. The API is generated from this table so it cannot miss a channel. */
export const API_METHODS = {
  importDocuments: "documents.import",
  uploadDocuments: "documents.upload",
  listDocuments: "documents.list",
  getOcrPreference: "ocr.preference",
  setOcrPreference: "ocr.setPreference",
  deleteDocument: "documents.delete",
  setDocumentAliases: "documents.aliases",
  search: "search",
  ask: "ask",
  getSection: "sections.get",
  listSections: "sections.list",
  stats: "stats",
  checkLibrary: "library.check",
  repairLibrary: "library.repair",
  cancelJob: "jobs.cancel",
  extractTriplets: "triplets.extract",
  graphNeighbors: "graph.neighbors",
  entityFacts: "graph.entityFacts",
  getDocumentSource: "documents.source",
  listModels: "models.list",
  selectModel: "models.select",
  importModel: "models.import",
  setAnswerLimits: "models.limits",
  answerLog: "answers.log",
  createConversation: "conversations.create",
  listConversations: "conversations.list",
  getConversation: "conversations.get",
  deleteConversation: "conversations.delete",
  exportAnswer: "export.answer",
  exportConversation: "export.conversation",
  compareDocuments: "compare.run",
  listComparisons: "compare.list",
  getComparison: "compare.get",
  getComparisonPair: "compare.pair",
  exportComparison: "compare.export",
  deleteComparison: "compare.delete",
} as const satisfies Record<string, Channel>;

type MethodName = keyof typeof API_METHODS;

// Adding a channel without a method is a compile error here.
const everyChannelHasAMethod: Channel extends (typeof API_METHODS)[MethodName] ? true : false = true;
void everyChannelHasAMethod;

export type ClauseGraphRequests = {
  [M in MethodName]: (params: Params<(typeof API_METHODS)[M]>) => Promise<Result<Value<(typeof API_METHODS)[M]>>>;
};

export interface ClauseGraphApi extends ClauseGraphRequests {
  /** Returns the function that unsubscribes. */
  onJobProgress(listener: (progress: JobProgressEvent) => void): () => void;
  /** Streamed model text of running asks; returns the function that unsubscribes. */
  onAskToken(listener: (token: AskTokenEvent) => void): () => void;
  /**
   * Electron only: the absolute path of a dropped or picked File ("" when it has none). Where it is
   * absent (web host) the renderer uploads the file's bytes instead.
   */
  pathForFile?: (file: object) => string;
  /** Web host only: streams a file's bytes to the host, which imports it. Electron uses paths (and uploadDocuments). */
  uploadFile?: (
    file: Blob,
    options: { name: string; password?: string; jobId?: string; ocr?: OcrMode; ocrLanguage?: OcrLanguage; signal?: AbortSignal },
  ) => Promise<Result<Value<"documents.upload">>>;
}

/** How an API implementation reaches the engine: send one request, and listen to pushed events. */
export interface ApiTransport {
  invoke(channel: Channel, payload: unknown): Promise<unknown>;
  subscribe(listener: (message: WireEvent) => void): () => void;
}

function failure(code: ErrorInfo["code"], message: string): { ok: false; error: ErrorInfo } {
  return { ok: false, error: { code, message } };
}

/**
 * Builds the named API over a transport, validating every response and event it receives: the
 * renderer trusts nothing that arrived as a message.
 */
export function createApi(transport: ApiTransport): ClauseGraphRequests & Pick<ClauseGraphApi, "onJobProgress" | "onAskToken"> {
  const responseSchemas = new Map<Channel, z.ZodType<Result<unknown>>>();
  const responseSchema = (channel: Channel): z.ZodType<Result<unknown>> => {
    let schema = responseSchemas.get(channel);
    if (schema === undefined) {
      schema = resultSchema(requestSchemas[channel].result);
      responseSchemas.set(channel, schema);
    }
    return schema;
  };
  const call = async (channel: Channel, params: unknown): Promise<Result<unknown>> => {
    let raw: unknown;
    try {
      raw = await transport.invoke(channel, params);
    } catch (err) {
      return failure("INTERNAL", `The engine could not be reached: ${err instanceof Error ? err.message : String(err)}`);
    }
    const parsed = responseSchema(channel).safeParse(raw);
    return parsed.success ? parsed.data : failure("INTERNAL", `Malformed response on ${channel}`);
  };
  const requests = Object.fromEntries(
    Object.entries(API_METHODS).map(([method, channel]) => [method, (params: unknown) => call(channel, params)]),
  ) as unknown as ClauseGraphRequests;
  return {
    ...requests,
    onJobProgress(listener) {
      return transport.subscribe((message) => {
        if (message.event !== "job.progress") return;
        const parsed = eventSchemas["job.progress"].safeParse(message.payload);
        if (parsed.success) listener(parsed.data);
      });
    },
    onAskToken(listener) {
      return transport.subscribe((message) => {
        if (message.event !== "ask.token") return;
        const parsed = eventSchemas["ask.token"].safeParse(message.payload);
        if (parsed.success) listener(parsed.data);
      });
    },
  };
}
