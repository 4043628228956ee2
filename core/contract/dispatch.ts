import type { Engine, ImportOptions, ImportResult } from "../model/engine-types.ts";
import { ClauseGraphError, toErrorInfo } from "../model/errors.ts";
import type { JobProgress } from "../model/job.ts";
import { channelSchema, requestSchemas } from "./contract.ts";
import type { Channel, ParsedParams, Result, WireEvent } from "./contract.ts";

// The single place where a request from any front end (Electron IPC, WebSocket) becomes an engine
// call. It never throws: every failure, including a malformed payload, comes back as a Result.
// Browser-safe like the contract (it needs no Node), so the same code runs in every host.

export interface UploadedFile {
  name: string;
  bytesBase64: string;
}

/** Where a host puts uploaded bytes so the engine can import them by path (needs the file system). */
export interface UploadStore {
  save(files: UploadedFile[]): Promise<{ paths: string[]; cleanup(): Promise<void> }>;
}

export interface DispatcherOptions {
  engine: Engine;
  /** Pushes an event to every connected front end. */
  emit(event: WireEvent): void;
  /** Absent where uploads make no sense; documents.upload then answers VALIDATION. */
  uploads?: UploadStore;
  /**
   * Which paths `documents.import` may read. Absent: none (FORBIDDEN). Whoever can send a request
   * must not thereby read any file the engine's user can (then read it back with documents.source):
   * Electron grants only the paths its user dropped or picked; the web host grants none and takes
   * uploads. The CLI calls the engine directly and is not affected.
   */
  allowPathImport?: (file: string) => boolean;
}

/** A file the host already wrote to its upload folder, with the name its user gave it. */
export interface UploadedPath {
  path: string;
  name: string;
}

export interface Dispatcher {
  dispatch(channel: unknown, payload: unknown): Promise<Result<unknown>>;
  /** Aborts every running job (the host is shutting down). */
  cancelAll(): void;
  /**
   * Imports files the host itself wrote (streamed uploads), with progress events and jobs.cancel
   * like documents.upload, reporting the uploaded names. Not reachable from the wire.
   */
  importUploads(files: UploadedPath[], request: ImportRequest): Promise<Result<ImportResult[]>>;
}

/** What an import request says besides its files: password, the caller's job id, OCR. */
export type ImportRequest = Pick<ImportOptions, "password" | "jobId" | "ocr" | "ocrLanguage">;

/** The request's fields that are set (exactOptionalPropertyTypes: no `undefined` values). */
function importRequest(params: { password?: string | undefined; jobId?: string | undefined; ocr?: ImportOptions["ocr"] | undefined; ocrLanguage?: ImportOptions["ocrLanguage"] | undefined }): ImportRequest {
  return {
    ...(params.password === undefined ? {} : { password: params.password }),
    ...(params.jobId === undefined ? {} : { jobId: params.jobId }),
    ...(params.ocr === undefined ? {} : { ocr: params.ocr }),
    ...(params.ocrLanguage === undefined ? {} : { ocrLanguage: params.ocrLanguage }),
  };
}

/** A channel paired with its parsed params, so the switch below narrows both together. */
type ParsedRequest = { [C in Channel]: { channel: C; params: ParsedParams<C> } }[Channel];

function validationError(message: string): Result<never> {
  return { ok: false, error: { code: "VALIDATION", message } };
}

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** Base64 without Node's Buffer (this file is shared with the browser build); chunked for large files. */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { engine, emit, uploads, allowPathImport = () => false } = options;
  // Job ids come from the engine's progress events; each maps to the request that can abort it.
  const jobs = new Map<string, AbortController>();

  /**
   * The caller's job id (registered before the engine is called, so a file still waiting for its
   * turn can be cancelled) names the file's progress events; it and every per-file id cancel the call.
   */
  function importTracked(files: string[], request: ImportRequest): Promise<ImportResult[]> {
    return runTracked(request.jobId, (signal, onProgress) => engine.importFiles(files, { ...request, signal, onProgress }));
  }

  /** Like an import: every per-document job id (and the caller's own id) cancels the whole run. */
  function extractTracked(documentIds: string[] | undefined, callerJobId: string | undefined): Promise<unknown> {
    return runTracked(callerJobId, (signal, onProgress) =>
      engine.extractTriplets({ ...(documentIds === undefined ? {} : { documentIds }), signal, onProgress }),
    );
  }

  /** A long run whose progress events are forwarded and whose every job id cancels the whole run. */
  async function runTracked<T>(callerJobId: string | undefined, work: (signal: AbortSignal, onProgress: (progress: JobProgress) => void) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const seen = new Set<string>(callerJobId === undefined ? [] : [callerJobId]);
    if (callerJobId !== undefined) jobs.set(callerJobId, controller);
    const onProgress = (progress: JobProgress): void => {
      if (!seen.has(progress.jobId)) {
        seen.add(progress.jobId);
        jobs.set(progress.jobId, controller);
      }
      emit({ event: "job.progress", payload: progress });
    };
    try {
      return await work(controller.signal, onProgress);
    } finally {
      for (const jobId of seen) jobs.delete(jobId);
    }
  }

  async function importUploaded(files: UploadedPath[], request: ImportRequest): Promise<ImportResult[]> {
    const results = await importTracked(
      files.map((file) => file.path),
      request,
    );
    // The temporary path means nothing to the user: report the name they uploaded.
    return results.map((result, index) => {
      const name = files[index]?.name ?? result.file;
      const error = result.error === undefined ? {} : { error: { ...result.error, file: name } };
      return { ...result, ...error, file: name };
    });
  }

  async function uploadAndImport(params: ParsedParams<"documents.upload">): Promise<ImportResult[]> {
    if (uploads === undefined) throw new ClauseGraphError("VALIDATION", "This host does not accept uploads in a message");
    const saved = await uploads.save(params.files);
    try {
      return await importUploaded(
        saved.paths.map((file, index) => ({ path: file, name: params.files[index]?.name ?? file })),
        importRequest(params),
      );
    } finally {
      await saved.cleanup();
    }
  }

  function importByPath(files: string[], request: ImportRequest): Promise<ImportResult[]> {
    const refused = files.find((file) => !allowPathImport(file));
    if (refused !== undefined) {
      throw new ClauseGraphError(
        "FORBIDDEN",
        `${refused} was not chosen in this window: only files dropped on ClauseGraph or picked in it can be imported by path (in the browser, files are uploaded instead)`,
        { file: refused },
      );
    }
    return importTracked(files, request);
  }

  async function run(request: ParsedRequest): Promise<unknown> {
    switch (request.channel) {
      case "documents.import":
        return importByPath(request.params.files, importRequest(request.params));
      case "documents.upload":
        return uploadAndImport(request.params);
      case "documents.list":
        return engine.listDocuments();
      case "ocr.preference":
        return engine.ocrPreference();
      case "ocr.setPreference":
        return engine.setOcrPreference(request.params);
      case "documents.delete":
        return engine.deleteDocument(request.params.id);
      case "documents.aliases":
        return engine.setDocumentAliases(request.params.id, request.params.aliases);
      case "search": {
        const { query, k } = request.params;
        return engine.search(query, k === undefined ? {} : { k });
      }
      case "ask": {
        const { question, k, askId, conversationId } = request.params;
        const controller = new AbortController();
        if (askId !== undefined) jobs.set(askId, controller);
        try {
          return await engine.ask(question, {
            ...(k === undefined ? {} : { k }),
            ...(conversationId === undefined ? {} : { conversationId }),
            signal: controller.signal,
            ...(askId === undefined ? {} : { onToken: (text: string) => emit({ event: "ask.token", payload: { askId, text } }) }),
          });
        } finally {
          if (askId !== undefined) jobs.delete(askId);
        }
      }
      case "sections.get": {
        const section = await engine.getSection(request.params.id);
        if (section === null) throw new ClauseGraphError("NOT_FOUND", `No section with id ${request.params.id}`);
        return section;
      }
      case "sections.list":
        return engine.getSections(request.params.documentId);
      case "stats":
        return engine.stats();
      case "library.check":
        return engine.checkLibrary();
      case "library.repair":
        return runTracked(request.params.jobId, (signal, onProgress) => engine.repairLibrary({ signal, onProgress }));
      case "graph.neighbors":
        return engine.graphNeighbors(request.params.nodeId);
      case "graph.entityFacts":
        return engine.entityFacts(request.params.nodeId);
      case "documents.source": {
        const source = await engine.getDocumentSource(request.params.id);
        return {
          documentId: source.documentId,
          fileName: source.fileName,
          format: source.format,
          bytesBase64: toBase64(source.bytes),
        };
      }
      case "models.list":
        return engine.listModels();
      case "models.select": {
        const { modelId, threads, contextSize } = request.params;
        return engine.selectModel(modelId, {
          ...(threads === undefined ? {} : { threads }),
          ...(contextSize === undefined ? {} : { contextSize }),
        });
      }
      case "models.import":
        return engine.importModel(request.params.path);
      case "models.limits":
        return engine.setAnswerLimits(request.params);
      case "answers.log":
        return engine.answerLog(request.params.limit === undefined ? {} : { limit: request.params.limit });
      case "conversations.create":
        return engine.createConversation();
      case "conversations.list":
        return engine.listConversations(request.params.query === undefined ? {} : { query: request.params.query });
      case "conversations.get":
        return engine.getConversation(request.params.id);
      case "conversations.delete":
        return engine.deleteConversation(request.params.id);
      case "export.answer":
        return engine.exportAnswer(request.params.logId, request.params.format ?? "md");
      case "export.conversation":
        return engine.exportConversation(request.params.id, request.params.format ?? "md");
      case "compare.run": {
        const { documentA, documentB, k, verdicts, jobId } = request.params;
        return runTracked(jobId, (signal, onProgress) =>
          engine.compareDocuments(documentA, documentB, {
            ...(k === undefined ? {} : { k }),
            ...(verdicts === undefined ? {} : { verdicts }),
            ...(jobId === undefined ? {} : { jobId }),
            signal,
            onProgress,
          }),
        );
      }
      case "compare.list":
        return engine.listComparisons();
      case "compare.get":
        return engine.getComparison(request.params.id);
      case "compare.pair":
        return engine.getComparisonPair(request.params.id, request.params.aSectionId, request.params.bSectionId);
      case "compare.export":
        return engine.exportComparison(request.params.id, request.params.format);
      case "compare.delete":
        return engine.deleteComparison(request.params.id);
      case "triplets.extract":
        return extractTracked(request.params.documentIds, request.params.jobId);
      case "jobs.cancel": {
        const controller = jobs.get(request.params.jobId);
        if (controller === undefined) return { cancelled: false };
        controller.abort();
        return { cancelled: true };
      }
      default: {
        const unreachable: never = request;
        throw new ClauseGraphError("VALIDATION", `Unknown channel ${String(unreachable)}`);
      }
    }
  }

  return {
    async dispatch(rawChannel, payload) {
      try {
        const channel = channelSchema.safeParse(rawChannel);
        if (!channel.success) {
          const shown = typeof rawChannel === "string" ? JSON.stringify(rawChannel.slice(0, 80)) : typeof rawChannel;
          return validationError(`Unknown channel ${shown}`);
        }
        const params = requestSchemas[channel.data].params.safeParse(payload);
        if (!params.success) {
          return validationError(`Invalid ${channel.data} request: ${describeIssues(params.error.issues)}`);
        }
        // The schema just parsed belongs to this channel, which is what ParsedRequest pairs.
        const value = await run({ channel: channel.data, params: params.data } as ParsedRequest);
        return { ok: true, value };
      } catch (err) {
        return { ok: false, error: toErrorInfo(err) };
      }
    },
    cancelAll() {
      for (const controller of jobs.values()) controller.abort();
    },
    async importUploads(files, request) {
      try {
        return { ok: true, value: await importUploaded(files, request) };
      } catch (err) {
        return { ok: false, error: toErrorInfo(err) };
      }
    },
  };
}
