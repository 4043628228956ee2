import type { Engine, ImportResult } from "../model/engine-types.ts";
import { toErrorInfo } from "../model/errors.ts";
import { channelSchema, requestSchemas } from "./contract.ts";
import type { Channel, ParsedParams, Result, WireEvent } from "./contract.ts";
import { createHandlers } from "./handlers/all-handlers.ts";
import { createImportGate, type ImportRequest, type UploadedPath, type UploadStore } from "./handlers/document-imports.ts";
import type { Handler } from "./handlers/handler-types.ts";
import { createJobTracker } from "./job-tracker.ts";

// The single place where a request from any front end (Electron IPC, WebSocket) becomes an engine
// call. It never throws: every failure, including a malformed payload, comes back as a Result.
// Browser-safe like the contract (it needs no Node), so the same code runs in every host. Each
// feature's handlers live in handlers/<feature>.ts, typed against the contract (handler-types.ts).

export type { ImportRequest, UploadedFile, UploadedPath, UploadStore } from "./handlers/document-imports.ts";

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

/** A channel paired with its parsed params, so its handler is looked up with the params it takes. */
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

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { engine, emit, uploads, allowPathImport = () => false } = options;
  // Job ids come from the engine's progress events; each maps to the request that can abort it.
  const jobs = createJobTracker(emit);
  const imports = createImportGate({ engine, jobs, uploads, allowPathImport });
  const handlers = createHandlers({ engine, emit, jobs, imports });

  /** The handler of the request's own channel (the pairing ParsedRequest keeps), called with its params. */
  function run<C extends Channel>(request: { channel: C; params: ParsedParams<C> }): Promise<unknown> {
    const handler: Handler<C> = handlers[request.channel];
    return handler(request.params);
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
      jobs.cancelAll();
    },
    async importUploads(files, request) {
      try {
        return { ok: true, value: await imports.hostFiles(files, request) };
      } catch (err) {
        return { ok: false, error: toErrorInfo(err) };
      }
    },
  };
}
