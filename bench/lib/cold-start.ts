import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { z } from "zod";
import { ROOT, buildNode } from "../../scripts/build.mjs";

// A user's cold start, measured on the engine as the app ships it: an esbuild bundle, as
// dist/electron's engine process and dist/host are. Run from source through tsx, the same start
// also compiles core/ first (about two seconds on this machine), which no user pays.

export const coldStartSchema = z.object({
  /** Node, then loading the bundle and its native packages (kuzu, onnxruntime, pdf.js). */
  beforeMainMs: z.number(),
  modulesMs: z.number(),
  openMs: z.number(),
  firstAnswerMs: z.number(),
  totalMs: z.number(),
  answered: z.boolean(),
});
export type ColdStart = z.infer<typeof coldStartSchema>;

// One bundle per bench process (two folders below the checkout, as buildNode requires), removed
// when the process ends, so two benches running side by side do not rebuild each other's.
const OUT = path.join(ROOT, "test-results", `cold-start-${process.pid}`);
let built: Promise<void> | null = null;

function bundle(): Promise<void> {
  built ??= buildNode({ entryPoints: { "cold-start-child": "bench/lib/cold-start-child.ts" }, outDir: OUT }).then(() => {
    process.once("exit", () => rmSync(OUT, { recursive: true, force: true }));
  });
  return built;
}

/**
 * A new process opens the library in `dataDir` and answers `question`: at once, or with
 * `delayMs`, warming up meanwhile as the app does (EngineOptions.warmUp).
 */
export async function coldStart(options: { dataDir: string; question: string; modelRoot?: string; delayMs?: number }): Promise<ColdStart> {
  await bundle();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(OUT, "cold-start-child.js"), options.dataDir, options.modelRoot ?? "", options.question, String(options.delayMs ?? 0)],
    { maxBuffer: 16 * 2 ** 20 },
  );
  return coldStartSchema.parse(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}"));
}
