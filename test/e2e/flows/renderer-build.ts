import path from "node:path";
import { fileURLToPath } from "node:url";
import { build as viteBuild } from "vite";

// The e2e tests serve a renderer built from the working tree into their own temp dir, so they never
// test a stale dist/ and never race another test writing it.

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const RESULTS_DIR = path.join(ROOT, "test-results");

export async function buildRendererInto(outDir: string): Promise<void> {
  await viteBuild({
    configFile: path.join(ROOT, "vite.config.ts"),
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
  });
}
