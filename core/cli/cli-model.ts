import path from "node:path";
import type { LlmClient } from "../model/llm-client.ts";
import { toErrorInfo } from "../model/errors.ts";
import { printJson, type CliArgs, type CliIo, type ExitCode } from "./cli-context.ts";

// What the commands that run a local model share (extract, compare): loading the --llm file with
// --threads, and Ctrl+C as a clean cancel of the work in progress.

/** Loads the GGUF named by --llm (node-llama-cpp is imported only then). */
export async function loadCliModel(args: Pick<CliArgs, "llm" | "threads">): Promise<LlmClient> {
  const { loadLlm } = await import("../llm/load-llm.ts");
  return loadLlm({
    modelPath: path.resolve(args.llm ?? ""),
    ...(args.threads === undefined || !Number.isFinite(args.threads) ? {} : { threads: args.threads }),
  });
}

/** Ctrl+C aborts the returned signal (saying `message` on stderr) until dispose() is called. */
export function cancelOnSigint(io: CliIo, message: string): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigint = (): void => {
    io.stderr.write(`\ncancelling… (${message})\n`);
    controller.abort();
  };
  process.once("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.removeListener("SIGINT", onSigint) };
}

/** A cancelled run says so (JSON or a line to run it again) and exits 1; any other error is rethrown. */
export function reportCancelled(io: CliIo, json: boolean, command: string, err: unknown): ExitCode {
  const error = toErrorInfo(err);
  if (error.code !== "CANCELLED") throw err;
  if (json) printJson(io, { error });
  else io.stderr.write(`clausegraph ${command}: cancelled; run it again to resume.\n`);
  return 1;
}
