import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { VERDICT_LABELS } from "../../core/model/compare-schemas.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import type { LlmClient } from "../../core/model/llm-client.ts";
import { loadLlm } from "../../core/llm/load-llm.ts";
import { PROTECTION_ACT, RESILIENCE_ACT, writeActPdf } from "../helpers/compare-fixtures.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";
import { countingLlm, describeTinyLlm, HAS_TINY_LLM, TINY_LLM_PATH } from "../helpers/tiny-llm.ts";

// Verdicts on the real node-llama-cpp path: stories260K knows nothing, so this checks the
// plumbing — the JSON grammar (a verdict and one numbered sentence of each side, so the quotes
// are the sections' own words), k·n calls said before the first, the cache by the pair's content,
// resuming after a cancel — never the quality of a verdict.

let dir: string;
let engine: Engine;
let real: LlmClient;
let llm: LlmClient & { calls: number; outputs: string[] };
let actA = "";
let actB = "";

describeTinyLlm("comparison verdicts on stories260K.gguf", () => {
  beforeAll(async () => {
    if (!HAS_TINY_LLM) return;
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-compare-tiny-"));
    const a = await writeActPdf(dir, "resilience.pdf", "Operational Resilience Act", RESILIENCE_ACT);
    const b = await writeActPdf(dir, "protection.pdf", "Data Protection Act", PROTECTION_ACT);
    real = await loadLlm({ modelPath: TINY_LLM_PATH, threads: 1, contextSize: 2048 });
    llm = countingLlm(real);
    engine = await createEngine({ dataDir: path.join(dir, "library"), embedder: hashEmbedder("hash-64", 64), llm });
    const results = await engine.importFiles([a, b]);
    actA = results[0]?.documentId ?? "";
    actB = results[1]?.documentId ?? "";
  }, 180_000);

  afterAll(async () => {
    await engine?.close();
    await real?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("judges k·n pairs under the grammar, resumes after a cancel from the cache, and asks nothing twice", { timeout: 300_000 }, async () => {
    // Interrupted after the second verdict.
    const controller = new AbortController();
    const plans: Array<{ pairs: number; cached: number; modelCalls: number }> = [];
    await expect(
      engine.compareDocuments(actA, actB, {
        k: 2,
        verdicts: true,
        signal: controller.signal,
        onVerdictPlan: (p) => plans.push(p),
        onProgress: (p) => {
          if (p.step === "verdicts" && p.current >= 2) controller.abort();
        },
      }),
    ).rejects.toMatchObject({ code: "CANCELLED" });
    const pairs = plans[0]?.pairs ?? 0;
    expect(pairs).toBe(2 * 6);
    expect(plans[0]).toEqual({ pairs, cached: 0, modelCalls: pairs });
    const interrupted = (await engine.listComparisons())[0];
    expect(interrupted?.status).toBe("partial");
    const callsBefore = llm.calls;
    expect(callsBefore).toBeGreaterThanOrEqual(2);

    const resumed = await engine.compareDocuments(actA, actB, { k: 2, verdicts: true });
    expect(resumed.verdicts.pairs).toBe(pairs);
    expect(resumed.verdicts.cached).toBeGreaterThanOrEqual(2);
    expect(resumed.verdicts.cached + resumed.verdicts.modelCalls).toBe(pairs);
    expect(resumed.verdicts.failed).toBe(0);
    expect(llm.calls - callsBefore).toBe(resumed.verdicts.modelCalls);
    expect(resumed.comparison.status).toBe("complete");
    expect(resumed.comparison.llmModel).toBe(real.modelId);
    // Every output parsed under the grammar; every stored pair has a verdict quoting both sides verbatim.
    for (const text of llm.outputs)
      expect(JSON.parse(text)).toMatchObject({
        verdict: expect.any(String),
        sentence_a: expect.stringMatching(/^A\d$/),
        sentence_b: expect.stringMatching(/^B\d$/),
      });
    const crosswalk = await engine.getComparison(resumed.comparison.id);
    for (const row of crosswalk.rows) {
      const a = await engine.getSection(row.aSectionId);
      for (const m of row.matches) {
        expect(VERDICT_LABELS).toContain(m.verdict?.label);
        expect(a?.text.slice(m.verdict?.quoteA.start, m.verdict?.quoteA.end)).toBe(m.verdict?.quoteA.text);
        const b = await engine.getSection(m.bSectionId);
        expect(b?.text.slice(m.verdict?.quoteB.start, m.verdict?.quoteB.end)).toBe(m.verdict?.quoteB.text);
      }
    }

    const again = await engine.compareDocuments(actA, actB, { k: 2, verdicts: true });
    expect(again.verdicts).toEqual({ pairs, cached: pairs, modelCalls: 0, failed: 0 });
  });
});
