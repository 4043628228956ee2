import { afterAll, beforeAll, expect, it } from "vitest";
import { z } from "zod";
import type { LoadedLlm } from "../../core/llm/llama-client.ts";
import { createLlmRuntime, type LlmRuntime } from "../../core/llm/llama-runtime.ts";
import { defaultThreads } from "../../core/llm/llm-settings.ts";
import { loadLlm } from "../../core/llm/load-llm.ts";
import { rejectionCode, thrownCode } from "../helpers/expect-code.ts";
import { describeTinyLlm, HAS_TINY_LLM, TINY_LLM_PATH } from "../helpers/tiny-llm.ts";

// The real node-llama-cpp path on a 1 MB story model. It knows nothing, so these tests check the
// plumbing (streaming, grammar, cancellation, timings), never the quality of the text.

describeTinyLlm("node-llama-cpp client on stories260K.gguf", () => {
  let runtime: LlmRuntime;
  let llm: LoadedLlm;

  beforeAll(async () => {
    if (!HAS_TINY_LLM) return;
    runtime = createLlmRuntime();
    llm = await runtime.loadLlm({ modelPath: TINY_LLM_PATH, threads: 1, contextSize: 256 });
  });
  afterAll(async () => {
    await runtime?.dispose();
  });

  it("loads with the requested threads and context", () => {
    expect(llm.modelId).toBe("stories260K.gguf");
    expect(llm.architecture).toBe("llama");
    expect(llm.settings).toMatchObject({ threads: 1, contextSize: 256, gpuLayers: 0 });
    expect(llm.contextSize).toBeGreaterThanOrEqual(256);
  });

  it("streams tokens, and the result is exactly the streamed text, with timings", async () => {
    const chunks: string[] = [];
    const result = await llm.generate({ system: "You tell short stories.", prompt: "Once upon a time", maxTokens: 12, onToken: (t) => chunks.push(t) });
    expect(chunks.length).toBeGreaterThan(0);
    expect(result.text).toBe(chunks.join(""));
    expect(result.promptTokens).toBeGreaterThan(llm.countTokens("Once upon a time"));
    expect(result.completionTokens).toBeGreaterThan(0);
    expect(result.completionTokens).toBeLessThanOrEqual(12);
    expect(result.firstTokenMs).not.toBeNull();
    expect(result.totalMs).toBeGreaterThanOrEqual(result.firstTokenMs ?? 0);
    expect(["end", "maxTokens"]).toContain(result.stopReason);
  });

  it("is deterministic at temperature 0", async () => {
    const a = await llm.generate({ prompt: "The dog", maxTokens: 8, temperature: 0 });
    const b = await llm.generate({ prompt: "The dog", maxTokens: 8, temperature: 0 });
    expect(a.text).toBe(b.text);
  });

  it("forces JSON matching the schema when jsonSchema is set", async () => {
    const jsonSchema = {
      type: "object",
      properties: {
        obligations: { type: "array", items: { type: "string" } },
        severity: { enum: ["low", "high"] },
      },
    } as const;
    const shape = z.object({ obligations: z.array(z.string()), severity: z.enum(["low", "high"]) }).strict();
    const result = await llm.generate({ prompt: "List the obligations.", jsonSchema, maxTokens: 120 });
    expect(result.stopReason).toBe("end");
    const parsed: unknown = JSON.parse(result.text);
    expect(shape.safeParse(parsed).success, result.text).toBe(true);
  });

  it("cancels with CANCELLED, and the client stays usable", async () => {
    const controller = new AbortController();
    let streamed = 0;
    const cancelled = llm.generate({
      prompt: "Tell me a long story",
      maxTokens: 200,
      signal: controller.signal,
      onToken: () => {
        streamed += 1;
        if (streamed === 2) controller.abort();
      },
    });
    expect(await rejectionCode(cancelled)).toBe("CANCELLED");
    expect(streamed).toBeLessThan(10);
    expect(await rejectionCode(llm.generate({ prompt: "x", signal: AbortSignal.abort() }))).toBe("CANCELLED");
    expect((await llm.generate({ prompt: "The cat", maxTokens: 4 })).completionTokens).toBeGreaterThan(0);
  });

  it("counts tokens, and refuses a prompt that cannot fit the context", async () => {
    expect(llm.countTokens("Once upon a time there was a little girl.")).toBeGreaterThan(0);
    expect(llm.countTokens("a b c d e f")).toBeGreaterThan(llm.countTokens("a b"));
    const long = "story ".repeat(400);
    expect(await rejectionCode(llm.generate({ prompt: long, maxTokens: 4 }))).toBe("VALIDATION");
  });

  it("queues concurrent calls on its single sequence", async () => {
    const results = await Promise.all([1, 2, 3].map((n) => llm.generate({ prompt: `Story ${n}`, maxTokens: 4 })));
    expect(results.every((r) => r.completionTokens > 0)).toBe(true);
  });

  it("MODEL_TOO_LARGE_FOR_RAM and MODEL_TIMEOUT on the real model", async () => {
    const tiny = createLlmRuntime({ memoryProbe: () => ({ totalBytes: 1_000_000, freeBytes: 1_000_000 }) });
    expect(await rejectionCode(tiny.loadLlm({ modelPath: TINY_LLM_PATH, threads: 1 }))).toBe("MODEL_TOO_LARGE_FOR_RAM");
    await tiny.dispose();
    const slow = createLlmRuntime();
    expect(await rejectionCode(slow.loadLlm({ modelPath: TINY_LLM_PATH, threads: 1, loadTimeoutMs: 1 }))).toBe("MODEL_TIMEOUT");
    await slow.dispose();
  });

  it("a standalone loadLlm uses the default threads, and close() frees it for good", async () => {
    const own = await loadLlm({ modelPath: TINY_LLM_PATH, contextSize: 128, modelId: "stories" });
    expect(own.settings.threads).toBe(defaultThreads());
    expect(own.modelId).toBe("stories");
    const pending = own.generate({ prompt: "Once", maxTokens: 100 });
    await own.close();
    await own.close(); // idempotent
    const outcome = await rejectionCode(pending);
    expect(["resolved", "CANCELLED"]).toContain(outcome);
    expect(thrownCode(() => own.countTokens("x"))).toBe("INTERNAL");
    expect(await rejectionCode(own.generate({ prompt: "x" }))).toBe("INTERNAL");
  });
});
