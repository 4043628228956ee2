import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { Embedder } from "../../core/model/embedder.ts";

// EngineOptions.warmUp: the app and the web host load what the first question needs right after
// opening, so the first answer after launch does not pay for loading the embedding model and the
// indexes (bench:ingest prints the cold start both ways). The CLI opens without it.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function countingEmbedder(): Embedder & { queries: number } {
  const embedder = {
    id: "counting-4d",
    dimensions: 4,
    queries: 0,
    embedQueries(texts: string[]) {
      embedder.queries += texts.length;
      return Promise.resolve(texts.map(() => new Float32Array([1, 0, 0, 0])));
    },
    embedDocuments(texts: string[]) {
      return Promise.resolve(texts.map(() => new Float32Array([1, 0, 0, 0])));
    },
    close: () => Promise.resolve(),
  };
  return embedder;
}

async function open(warmUp: boolean): Promise<number> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "cg-warm-up-"));
  dirs.push(dataDir);
  const embedder = countingEmbedder();
  const engine = await createEngine({ dataDir, embedder, llm: null, warmUp });
  // close() waits for a warm-up under way: nothing of it outlives the engine.
  await engine.close();
  return embedder.queries;
}

describe("engine warm-up", () => {
  it("with warmUp, searches once in the background right after opening; without it, loads nothing", async () => {
    expect(await open(true)).toBeGreaterThanOrEqual(1);
    expect(await open(false)).toBe(0);
  });
});
