import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { parseExtractionOutput } from "../../core/llm-extract/extract-section.ts";
import type { JobProgress } from "../../core/model/job.ts";
import type { LlmClient } from "../../core/model/llm-client.ts";
import { loadLlm } from "../../core/llm/load-llm.ts";
import { corpusPath, HAS_CORPUS } from "../helpers/corpus.ts";
import { countingLlm, describeTinyLlm, HAS_TINY_LLM, TINY_LLM_PATH } from "../helpers/tiny-llm.ts";

// The extraction job on the real node-llama-cpp path: stories260K knows nothing, so this checks
// the plumbing (grammar-constrained JSON, job completion, resume, cancellation) on real GDPR
// sections, never the quality of the triplets.

const GDPR = "text/eu_gdpr_2016-679_plaintext.txt";
if (HAS_TINY_LLM && !HAS_CORPUS) console.warn("[llm-extract] ../shared/corpus not found: the GDPR extraction test is SKIPPED on this machine.");

describeTinyLlm("LLM triplet extraction on stories260K.gguf", () => {
  let dir: string;
  let file: string;
  let llm: LlmClient & { outputs: string[]; calls: number };
  let real: LlmClient;

  beforeAll(async () => {
    if (!HAS_TINY_LLM || !HAS_CORPUS) return;
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-extract-tiny-"));
    // Articles 1–3 of the GDPR: real text, small enough for a fast run.
    const text = await readFile(corpusPath(GDPR), "utf8");
    const start = text.indexOf("\nArticle 1\n");
    const end = text.indexOf("\nArticle 4\n");
    file = path.join(dir, "gdpr-articles-1-3.txt");
    await writeFile(file, `REGULATION (EU) 2016/679 (extract)\n${text.slice(start, end)}\n`);
    real = await loadLlm({ modelPath: TINY_LLM_PATH, threads: 1, contextSize: 2048 });
    llm = countingLlm(real);
  }, 120_000);
  afterAll(async () => {
    await real?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function engineIn(name: string): Promise<{ engine: Engine; documentId: string }> {
    const engine = await createEngine({
      dataDir: path.join(dir, name),
      embedder: null,
      llm,
      log: (m) => {
        if (m.startsWith("extraction of")) console.warn(m);
      },
    });
    const [result] = await engine.importFiles([file]);
    return { engine, documentId: result?.documentId ?? "" };
  }

  it.skipIf(!HAS_CORPUS)(
    "extracts under the JSON grammar, completes, resumes after an interruption and cancels cleanly",
    async () => {
      const { engine, documentId } = await engineIn("db");
      try {
        // Interrupted after the first section's generation.
        const controller = new AbortController();
        const onProgress = (p: JobProgress): void => {
          if (p.step === "extracting" && p.current >= 1) controller.abort();
        };
        await expect(engine.extractTriplets({ documentIds: [documentId], signal: controller.signal, onProgress })).rejects.toMatchObject({ code: "CANCELLED" });
        const callsBeforeResume = llm.calls;
        expect(callsBeforeResume).toBeGreaterThanOrEqual(1);

        const events: JobProgress[] = [];
        const summary = await engine.extractTriplets({ documentIds: [documentId], onProgress: (e) => events.push(e) });
        expect(events.at(-1)?.status).toBe("done");
        expect(summary.failed).toBe(0);
        expect(summary.cached).toBeGreaterThanOrEqual(1); // the interrupted run's finished section
        expect(summary.extracted + summary.cached).toBe(summary.sections);
        // Every complete output is JSON of the schema (empty or not); cut-off ones are counted.
        const complete = llm.outputs.filter((o) => parseExtractionOutput(o) !== null);
        const malformed = summary.documents[0]?.malformedChunks ?? 0;
        expect(complete.length + malformed).toBeGreaterThanOrEqual(summary.extracted);
        for (const o of complete) expect(parseExtractionOutput(o)).toBeInstanceOf(Array);

        // Everything is cached now: a rerun calls the model no more.
        const calls = llm.calls;
        const again = await engine.extractTriplets({ documentIds: [documentId] });
        expect(llm.calls).toBe(calls);
        expect(again).toMatchObject({ extracted: 0, cached: summary.sections, triplets: summary.triplets });
      } finally {
        await engine.close();
      }
    },
    600_000,
  );
});
