import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const PROJECT_DIR = path.resolve(here, "../..");
const BIN = path.join(PROJECT_DIR, "bin", "clausegraph.mjs");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI in its own process, as a user would through `npx clausegraph`. */
export function runCli(args: string[], timeoutMs = 300_000): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: PROJECT_DIR, timeout: timeoutMs, maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

export function parseJson<T>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`CLI output is not JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}
