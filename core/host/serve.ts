import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { defaultDataDir } from "./data-dir.ts";
import { startWebHost } from "./web-host.ts";
import { toErrorInfo } from "../model/errors.ts";
import { restrictUmask } from "../files/private-files.ts";

// `npm run serve`: the web host as a command. The only place that reads argv and the environment.
const DEFAULT_PORT = 5178;
const here = path.dirname(fileURLToPath(import.meta.url));

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, got ${text}`);
  return port;
}

async function main(): Promise<void> {
  restrictUmask();
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      "data-dir": { type: "string" },
      "static-dir": { type: "string" },
      quiet: { type: "boolean", default: false },
    },
    strict: true,
  });
  const dataDir = path.resolve(values["data-dir"] ?? defaultDataDir());
  const staticDir = path.resolve(values["static-dir"] ?? path.join(here, "../../dist/renderer"));
  const log = values.quiet ? undefined : (message: string): void => console.error(`[clausegraph] ${message}`);
  const host = await startWebHost({ dataDir, port: parsePort(values.port), staticDir, ...(log ? { log } : {}) });
  // The only place the secret is shown: the user opens this address; it works until Ctrl+C.
  console.log(`ClauseGraph is running (library: ${dataDir}). Open this address in your browser; it carries a key for this run only:`);
  console.log(`  ${host.url}`);
  console.log("Press Ctrl+C to stop.");

  const stop = (): void => {
    host.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  const info = toErrorInfo(err);
  console.error(`clausegraph serve: ${info.code === "INTERNAL" ? info.message : `${info.code}: ${info.message}`}`);
  process.exit(1);
});
