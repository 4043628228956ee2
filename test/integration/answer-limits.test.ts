import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDispatcher } from "../../core/contract/dispatch.ts";
import type { WireEvent } from "../../core/contract/contract.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import type { LlmClient } from "../../core/model/llm-client.ts";
import { modelDisplayName } from "../../core/llm/model-display-name.ts";
import { MAX_REWRITES } from "../../core/answer/question/query-rewrite.ts";
import { settingsPath } from "../../core/files/settings-file.ts";
import { ARCHIVE_QUESTION as QUESTION, ARCHIVE_RULES as RULES } from "../helpers/archive-rules.ts";
import { citedHead, endlessLlm } from "../helpers/endless-llm.ts";
import { rejectionCode } from "../helpers/expect-code.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";
import { describeTinyLlm, TINY_LLM_PATH } from "../helpers/tiny-llm.ts";

// A written answer is under control. The time cap stops a generation that would
// go on and the answer says why; the token cap reaches the model and is saved like the model
// choice; Stop (jobs.cancel with the ask's id) aborts at once; the answer names its model by its
// name ("stories260K"), not its architecture ("llama"), also when it fell back to quoting.

describe("answer limits, Stop and the model's name (scripted model)", () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-answer-limits-"));
    file = path.join(dir, "rules.txt");
    await writeFile(file, RULES);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function engineWith(llm: LlmClient, name: string): Promise<Engine> {
    const engine = await createEngine({ dataDir: path.join(dir, name), embedder: hashEmbedder("hash-32", 32), llm });
    expect((await engine.importFiles([file]))[0]?.status).toBe("ok");
    return engine;
  }

  it("the time cap stops a generation that would not end, and the quoted answer says why", async () => {
    const llm = endlessLlm(() => "Answer: It depends on many things", 10);
    const engine = await engineWith(llm, "time-quoted");
    try {
      const started = performance.now();
      const result = await engine.ask(QUESTION, { maxSeconds: 1 });
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(result.mode).toBe("extractive");
      expect(result.notice).toMatchObject({ reason: "time-limit", quoted: true });
      expect(result.notice?.message).toMatch(/1 s time limit.*quoted from the documents/);
      expect(result.analysis).toBe(result.notice?.message);
      expect(result.model).toEqual({ id: "scripted-endless", name: "scripted-endless" });
      expect(result.answer).toMatch(/72 hours/);
      // The reason is in the answer log too.
      const [record] = await engine.answerLog({ limit: 1 });
      expect(record?.analysis).toMatch(/time limit/);
    } finally {
      await engine.close();
    }
  });

  it("keeps the cited sentences written before the time cap, marked as possibly incomplete", async () => {
    const engine = await engineWith(endlessLlm(citedHead, 10), "time-kept");
    try {
      const result = await engine.ask(QUESTION, { maxSeconds: 1 });
      expect(result.mode).toBe("llm");
      expect(result.notice).toMatchObject({ reason: "time-limit", quoted: false });
      expect(result.notice?.message).toMatch(/may be incomplete/);
      expect(result.sentences.length).toBeGreaterThan(0);
      expect(result.sentences.every((s) => s.supported && s.citationKeys.length > 0)).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it("passes the saved token cap to the model, says when it cut the answer, and keeps the caps across restarts", async () => {
    const llm = endlessLlm(citedHead, 1);
    const dataDir = path.join(dir, "tokens");
    let engine = await engineWith(llm, "tokens");
    try {
      const state = await engine.setAnswerLimits({ maxTokens: 77 });
      expect(state.limits).toEqual({ maxTokens: 77, maxSeconds: 120 });
      const result = await engine.ask(QUESTION);
      expect(llm.calls.at(-1)?.maxTokens).toBe(77);
      expect(result.notice).toMatchObject({ reason: "token-limit", quoted: false });
      expect(result.notice?.message).toMatch(/limit of 77 tokens/);
      // A call's own cap (the CLI's --max-tokens) wins over the saved one.
      await engine.ask(QUESTION, { maxTokens: 40 });
      expect(llm.calls.at(-1)?.maxTokens).toBe(40);
    } finally {
      await engine.close();
    }
    expect(JSON.parse(await readFile(settingsPath(dataDir), "utf8"))).toMatchObject({ answerLimits: { maxTokens: 77, maxSeconds: 120 } });
    engine = await createEngine({ dataDir, embedder: hashEmbedder("hash-32", 32), llm });
    try {
      expect((await engine.listModels()).limits).toEqual({ maxTokens: 77, maxSeconds: 120 });
      expect(await rejectionCode(engine.setAnswerLimits({ maxTokens: 3 }))).toBe("VALIDATION");
    } finally {
      await engine.close();
    }
  });

  it("Stop: jobs.cancel with the ask's id aborts the generation at once", async () => {
    const engine = await engineWith(endlessLlm(citedHead, 10), "stop");
    const tokens: string[] = [];
    const dispatcher = createDispatcher({
      engine,
      emit: (event: WireEvent) => {
        if (event.event === "ask.token") tokens.push(String((event.payload as { text: string }).text));
      },
    });
    try {
      const asked = dispatcher.dispatch("ask", { question: QUESTION, askId: "ask-stop-1" });
      const deadline = Date.now() + 10_000;
      while (tokens.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(tokens.length).toBeGreaterThanOrEqual(3);
      const stopped = performance.now();
      expect(await dispatcher.dispatch("jobs.cancel", { jobId: "ask-stop-1" })).toEqual({ ok: true, value: { cancelled: true } });
      expect(await asked).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
      expect(performance.now() - stopped).toBeLessThan(500);
      const streamedAtStop = tokens.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(tokens.length).toBe(streamedAtStop);
    } finally {
      await engine.close();
    }
  });

  it("says so in the answer when the chosen model could not be loaded, instead of quoting silently", async () => {
    const dataDir = path.join(dir, "unavailable");
    await mkdir(dataDir, { recursive: true });
    await writeFile(settingsPath(dataDir), JSON.stringify({ llm: { modelId: "no-such-model" } }));
    const engine = await createEngine({ dataDir, embedder: hashEmbedder("hash-32", 32) });
    try {
      expect((await engine.importFiles([file]))[0]?.status).toBe("ok");
      const result = await engine.ask(QUESTION);
      expect(result.mode).toBe("extractive");
      expect(result.notice).toMatchObject({ reason: "model-unavailable", quoted: true });
      expect(result.notice?.message).toMatch(/could not be loaded/);
      expect(result.answer).toMatch(/72 hours/);
    } finally {
      await engine.close();
    }
  });

  it("names a model by its display name or file name, never only its architecture", () => {
    expect(modelDisplayName("llama", "llama", "/m/stories260K/stories260K.gguf")).toBe("stories260K");
    expect(modelDisplayName(null, "qwen2", "/m/x/My-Model.Q4_K_M.gguf")).toBe("My-Model.Q4_K_M");
    expect(modelDisplayName("Qwen2.5 3B Instruct", "qwen2", "/m/q/q.gguf")).toBe("Qwen2.5 3B Instruct");
  });
});

describeTinyLlm("answer limits with a real GGUF (stories260K)", () => {
  let dir: string;
  let engine: Engine;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-answer-limits-gguf-"));
    await writeFile(path.join(dir, "rules.txt"), RULES);
    engine = await createEngine({ dataDir: path.join(dir, "data"), embedder: hashEmbedder("hash-32", 32) });
    expect((await engine.importFiles([path.join(dir, "rules.txt")]))[0]?.status).toBe("ok");
    const imported = await engine.importModel(TINY_LLM_PATH);
    // Its GGUF calls it "llama" (the architecture): the app shows the file's name.
    expect(imported.model.name).toBe("stories260K");
    const state = await engine.selectModel(imported.model.id, { threads: 2, contextSize: 2048 });
    expect(state.active.status).toBe("ready");
  }, 120_000);

  afterAll(async () => {
    await engine?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("caps the real model's tokens, falls back to quoting with the reason, and labels the answer with the model's name", async () => {
    const result = await engine.ask(QUESTION, { maxTokens: 16 });
    expect(result.model).toEqual({ id: expect.any(String), name: "stories260K" });
    // The model knows nothing and cites nothing; 16 tokens end it first.
    expect(result.mode).toBe("extractive");
    expect(result.notice).toMatchObject({ reason: "token-limit", quoted: true });
    expect(result.answer).toMatch(/72 hours/);
  });

  it("rewrites the question with the real model under the rewrite's caps, traces it, and still answers from the documents", async () => {
    const result = await engine.ask(QUESTION, { maxTokens: 16 });
    // The model knows nothing: whatever lines it wrote are at most three queries, searched at a low weight.
    expect(result.rewrites).toBeDefined();
    expect(result.rewrites?.queries.length ?? 99).toBeLessThanOrEqual(MAX_REWRITES);
    expect(result.rewrites?.error).toBeUndefined();
    expect(result.answer).toMatch(/72 hours/);
  });

  it("Stop aborts the real model's generation", async () => {
    const controller = new AbortController();
    const asked = engine.ask(QUESTION, { maxTokens: 120, signal: controller.signal, onToken: () => controller.abort() });
    expect(await rejectionCode(asked)).toBe("CANCELLED");
  });
});
