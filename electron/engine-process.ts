import type { MessageEvent } from "electron";
import path from "node:path";
import { z } from "zod";
import { wireRequestSchema } from "../core/contract/contract.ts";
import type { Result, WireEvent, WireResponse } from "../core/contract/contract.ts";
import { createDispatcher } from "../core/contract/dispatch.ts";
import type { Dispatcher } from "../core/contract/dispatch.ts";
import { createEngine } from "../core/engine.ts";
import type { Engine } from "../core/model/engine-types.ts";
import { toErrorInfo } from "../core/model/errors.ts";
import { restrictUmask } from "../core/files/private-files.ts";
import { clearUploads, createUploadStore } from "../core/host/upload-store.ts";
import { createPathGrants, grantMessageSchema } from "./path-grants.ts";

// The engine's own process (Electron utilityProcess): Kuzu, pdf.js and the models never run in
// main, so a crash or a long import cannot freeze the window. It speaks the same wire messages
// as the web host, over process.parentPort.

const shutdownSchema = z.strictObject({ control: z.literal("shutdown") });

// Owner-only files for everything this process creates, Kuzu's included (core/files/private-files.ts).
restrictUmask();
// Only files the user dropped or picked may be imported by path; main sends them (path-grants.ts).
const grants = createPathGrants();

function argValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

// Only Electron's utilityProcess (or a test harness standing in for it) provides the port.
const port = process.parentPort as typeof process.parentPort | undefined;
if (port === undefined) {
  console.error("engine-process must be started by Electron's utilityProcess.fork()");
  process.exit(2);
}
const post = (message: WireResponse | WireEvent): void => port.postMessage(message);
const log = (message: string): void => console.error(`[engine] ${message}`);

const dataDir = argValue("--data-dir");
// The installer ships the default embedding model prebuilt in resources/models (electron-builder
// extraResources); from a checkout there is none and the engine builds it into the data dir.
const resources = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
const bundledModelDir = resources === undefined ? undefined : path.join(resources, "models");
type Ready = { ok: true; engine: Engine; dispatcher: Dispatcher } | { ok: false; failure: Result<never> };

// A failed start (e.g. DB_LOCKED) is kept and returned to every request, so the UI can say why.
const ready: Promise<Ready> =
  dataDir === undefined
    ? Promise.resolve({ ok: false, failure: { ok: false, error: { code: "INTERNAL", message: "engine started without --data-dir" } } })
    : createEngine({ dataDir, log, ...(bundledModelDir === undefined ? {} : { bundledModelDir }) }).then(
        async (engine): Promise<Ready> => {
          // The engine holds the library's lock: what is in its upload folder was left by a crash.
          await clearUploads(engine.dataDir).catch((err: unknown) => log(`could not empty the upload folder: ${String(err)}`));
          return {
            ok: true,
            engine,
            dispatcher: createDispatcher({
              engine,
              emit: post,
              uploads: createUploadStore(engine.dataDir),
              allowPathImport: (file) => grants.allows(file),
            }),
          };
        },
        (err: unknown): Ready => ({ ok: false, failure: { ok: false, error: toErrorInfo(err) } }),
      );

async function shutdown(): Promise<void> {
  const state = await ready;
  if (state.ok) {
    state.dispatcher.cancelAll();
    await state.engine.close().catch((err: unknown) => log(`close failed: ${String(err)}`));
  }
  process.exit(0);
}

port.on("message", (event: MessageEvent) => {
  const data: unknown = event.data;
  if (shutdownSchema.safeParse(data).success) {
    void shutdown();
    return;
  }
  const grant = grantMessageSchema.safeParse(data);
  if (grant.success) {
    grants.grant(grant.data.paths);
    return;
  }
  const request = wireRequestSchema.safeParse(data);
  if (!request.success) {
    post({ id: null, result: { ok: false, error: { code: "VALIDATION", message: "Message is not a {id, channel, payload} request" } } });
    return;
  }
  const { id, channel, payload } = request.data;
  void ready
    .then((state) => (state.ok ? state.dispatcher.dispatch(channel, payload) : state.failure))
    .then((result) => post({ id, result }));
});
