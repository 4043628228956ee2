import { createDispatcher, type Dispatcher } from "../contract/dispatch.ts";
import type { Result, WireEvent } from "../contract/contract.ts";
import { createEngine } from "../engine.ts";
import type { Engine } from "../model/engine-types.ts";
import { toErrorInfo } from "../model/errors.ts";
import { restrictUmask } from "../files/private-files.ts";
import { clearUploads, createUploadStore } from "./upload-store.ts";

// The engine behind a process boundary that is not a web server: the desktop app's engine process
// (electron/engine-process.ts, an Electron utilityProcess) starts it and forwards the wire
// messages it receives. electron/ reaches the engine only through this module and the contract.

export interface EngineHostOptions {
  /** The library's folder; undefined answers every request with INTERNAL ("started without --data-dir"). */
  dataDir: string | undefined;
  /** Read-only prebuilt models shipped with the app (EngineOptions.bundledModelDir). */
  bundledModelDir?: string;
  /** Pushes an event (job progress, tokens) to the front end. */
  emit(event: WireEvent): void;
  /** Which paths documents.import may read (DispatcherOptions.allowPathImport). */
  allowPathImport(file: string): boolean;
  log(message: string): void;
}

export interface EngineHost {
  /** One wire request; before the engine is open it waits for it, and a failed start is the answer to every request. */
  dispatch(channel: unknown, payload: unknown): Promise<Result<unknown>>;
  /** Cancels running jobs and closes the engine (its library lock is released). */
  shutdown(): Promise<void>;
}

type Ready = { ok: true; engine: Engine; dispatcher: Dispatcher } | { ok: false; failure: Result<never> };

export function startEngineHost(options: EngineHostOptions): EngineHost {
  // Owner-only files for everything this process creates, Kuzu's included (core/files/private-files.ts).
  restrictUmask();
  const { dataDir, log } = options;
  // A failed start (e.g. DB_LOCKED) is kept and returned to every request, so the UI can say why.
  const ready: Promise<Ready> =
    dataDir === undefined
      ? Promise.resolve({ ok: false, failure: { ok: false, error: { code: "INTERNAL", message: "engine started without --data-dir" } } })
      : createEngine({ dataDir, log, warmUp: true, ...(options.bundledModelDir === undefined ? {} : { bundledModelDir: options.bundledModelDir }) }).then(
          async (engine): Promise<Ready> => {
            // The engine holds the library's lock: what is in its upload folder was left by a crash.
            await clearUploads(engine.dataDir).catch((err: unknown) => log(`could not empty the upload folder: ${String(err)}`));
            return {
              ok: true,
              engine,
              dispatcher: createDispatcher({
                engine,
                emit: options.emit,
                uploads: createUploadStore(engine.dataDir),
                allowPathImport: (file) => options.allowPathImport(file),
              }),
            };
          },
          (err: unknown): Ready => ({ ok: false, failure: { ok: false, error: toErrorInfo(err) } }),
        );

  return {
    async dispatch(channel, payload) {
      const state = await ready;
      return state.ok ? state.dispatcher.dispatch(channel, payload) : state.failure;
    },
    async shutdown() {
      const state = await ready;
      if (!state.ok) return;
      state.dispatcher.cancelAll();
      await state.engine.close().catch((err: unknown) => log(`close failed: ${String(err)}`));
    },
  };
}
