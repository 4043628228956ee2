import type { MessageEvent } from "electron";
import path from "node:path";
import { z } from "zod";
import { wireRequestSchema } from "../core/contract/contract.ts";
import type { WireEvent, WireResponse } from "../core/contract/contract.ts";
import { startEngineHost } from "../core/host/engine-host.ts";
import { createPathGrants, grantMessageSchema } from "./path-grants.ts";

// The engine's own process (Electron utilityProcess): Kuzu, pdf.js and the models never run in
// main, so a crash or a long import cannot freeze the window. It speaks the same wire messages
// as the web host, over process.parentPort.

const shutdownSchema = z.strictObject({ control: z.literal("shutdown") });

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
// The engine itself, its upload folder and the dispatcher (core/host/engine-host.ts); owner-only
// files from here on (the umask is set before anything is created).
const host = startEngineHost({
  dataDir,
  emit: post,
  allowPathImport: (file) => grants.allows(file),
  log,
  ...(bundledModelDir === undefined ? {} : { bundledModelDir }),
});

async function shutdown(): Promise<void> {
  await host.shutdown();
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
  void host.dispatch(channel, payload).then((result) => post({ id, result }));
});
