import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { LlmClient, LlmGenerateOptions } from "../../core/model/llm-client.ts";
import { modelsStateSchema } from "../../core/model/llm-model-schemas.ts";
import { readLlmChoice, settingsPath, writeLlmChoice } from "../../core/files/settings-file.ts";
import { rejectionCode } from "../helpers/expect-code.ts";
import { writeFakeGguf } from "../helpers/fake-gguf.ts";

// Choosing the language model from the app: listing, typed errors for missing, broken and
// too-large models (all decided before llama.cpp starts, so no weights are needed), the choice
// saved in settings.json, and a saved choice that cannot be loaded meaning extractive answers, not
// a crash. The real model path is covered by test/corpus/llm-model-select.test.ts.

let dir = "";
let source = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cg-model-select-"));
  source = path.join(dir, "rules.txt");
  await writeFile(source, "Incident rules\n\nArticle 1\nIncident notification\nOperators shall notify the authority of a major incident within 24 hours.\n");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A models folder entry placed by hand: `<root>/models/<id>/<file>`. */
async function placeModel(root: string, id: string, file: string, content: string | null): Promise<string> {
  const target = path.join(root, "models", id, file);
  await mkdir(path.dirname(target), { recursive: true });
  if (content === null) await writeFakeGguf(target, { contextLength: 4096, blockCount: 4, embeddingLength: 64, headCount: 4, headCountKv: 2 });
  else await writeFile(target, content);
  return target;
}

function scriptedLlm(): LlmClient & { closed: number } {
  const llm = {
    modelId: "caller-model",
    contextSize: 2048,
    closed: 0,
    async generate(options: LlmGenerateOptions) {
      const text = "Answer: Operators shall notify the authority within 24 hours [S1].\nAnalysis: Answered.\nSources: S1";
      options.onToken?.(text);
      return { text, promptTokens: 50, completionTokens: 10, firstTokenMs: 1, totalMs: 1 };
    },
    countTokens: (text: string) => Math.ceil(text.length / 4),
    async close() {
      llm.closed += 1;
    },
  };
  return llm;
}

describe("settings.json", () => {
  it("saves the model choice atomically and keeps settings it does not know", async () => {
    const data = path.join(dir, "settings");
    expect(await readLlmChoice(data)).toBeNull();
    await mkdir(data, { recursive: true });
    await writeFile(settingsPath(data), JSON.stringify({ theme: "dark" }));
    await writeLlmChoice(data, { modelId: "qwen2.5-1.5b-instruct-q4_k_m", threads: 2 });
    expect(await readLlmChoice(data)).toEqual({ modelId: "qwen2.5-1.5b-instruct-q4_k_m", threads: 2 });
    expect(JSON.parse(await readFile(settingsPath(data), "utf8"))).toMatchObject({ theme: "dark", llm: { modelId: "qwen2.5-1.5b-instruct-q4_k_m" } });
    await writeLlmChoice(data, { modelId: null });
    expect(await readLlmChoice(data)).toEqual({ modelId: null });
    // No temporary files left beside it.
    expect((await readdir(data)).sort()).toEqual(["settings.json"]);
  });

  it("a damaged file is a VALIDATION error when read, and is replaced when written", async () => {
    const data = path.join(dir, "damaged");
    await mkdir(data, { recursive: true });
    await writeFile(settingsPath(data), "{ not json");
    expect(await rejectionCode(readLlmChoice(data))).toBe("VALIDATION");
    await writeFile(settingsPath(data), JSON.stringify({ llm: { modelId: 42 } }));
    expect(await rejectionCode(readLlmChoice(data))).toBe("VALIDATION");
    await writeLlmChoice(data, { modelId: "m" });
    expect(await readLlmChoice(data)).toEqual({ modelId: "m" });
  });
});

describe("engine model selection", () => {
  it("lists the manifest's language models, none present, and answers extractively", async () => {
    const data = path.join(dir, "empty");
    const engine = await createEngine({ dataDir: data, embedder: null });
    try {
      const state = modelsStateSchema.parse(await engine.listModels());
      expect(state.modelsDir).toBe(path.join(data, "models"));
      expect(state.active).toMatchObject({ modelId: null, status: "none", mode: "extractive", error: null, external: false });
      expect(state.models.map((m) => m.id)).toContain("qwen2.5-1.5b-instruct-q4_k_m");
      expect(state.models.every((m) => !m.present && !m.active)).toBe(true);
      // Embedding models are the engine's business, not a choice in this list.
      expect(state.models.some((m) => m.id === "glove-static-100d")).toBe(false);
    } finally {
      await engine.close();
    }
  });

  it("MODEL_NOT_FOUND for an unknown or uninstalled model, MODEL_INVALID for a broken file, VALIDATION for a bad id", async () => {
    const data = path.join(dir, "errors");
    await placeModel(data, "broken", "broken.gguf", "<html>404 Not Found</html>");
    const engine = await createEngine({ dataDir: data, embedder: null });
    try {
      expect(await rejectionCode(engine.selectModel("no-such-model"))).toBe("MODEL_NOT_FOUND");
      expect(await rejectionCode(engine.selectModel("qwen2.5-1.5b-instruct-q4_k_m"))).toBe("MODEL_NOT_FOUND");
      expect(await rejectionCode(engine.selectModel("../etc"))).toBe("VALIDATION");
      const err = await engine.selectModel("broken").catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "MODEL_INVALID", message: expect.stringMatching(/HTML/) });
      const state = await engine.listModels();
      expect(state.active).toMatchObject({ modelId: "broken", status: "failed", mode: "extractive", error: { code: "MODEL_INVALID" } });
      expect(state.models.find((m) => m.id === "broken")).toMatchObject({ origin: "imported", present: true, active: true });
      // A failed choice is not saved, and answering still works, quoted.
      expect(await readLlmChoice(data)).toBeNull();
      await engine.importFiles([source]);
      expect((await engine.ask("How fast must operators notify a major incident?")).mode).toBe("extractive");
    } finally {
      await engine.close();
    }
  });

  it("MODEL_TOO_LARGE_FOR_RAM before llama.cpp starts when the model does not fit", async () => {
    const data = path.join(dir, "too-large");
    await placeModel(data, "fake-model", "fake-model.gguf", null);
    const engine = await createEngine({
      dataDir: data,
      embedder: null,
      llmRuntime: {
        memoryProbe: () => ({ totalBytes: 4000, freeBytes: 4000 }),
        createLlama: () => Promise.reject(new Error("llama.cpp must not start")),
      },
    });
    try {
      const err = await engine.selectModel("fake-model", { threads: 1 }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "MODEL_TOO_LARGE_FOR_RAM", message: expect.stringMatching(/this computer has/) });
      expect((await engine.listModels()).active).toMatchObject({ status: "failed", error: { code: "MODEL_TOO_LARGE_FOR_RAM" } });
    } finally {
      await engine.close();
    }
  });

  it("a saved choice that cannot be loaded gives extractive answers and a logged reason, not a crash", async () => {
    const data = path.join(dir, "saved-broken");
    await placeModel(data, "broken", "broken.gguf", "not a model");
    await writeLlmChoice(data, { modelId: "broken", threads: 2 });
    const lines: string[] = [];
    const engine = await createEngine({ dataDir: data, embedder: null, log: (m) => lines.push(m) });
    try {
      // Nothing is loaded at start-up: the choice waits for the first question.
      expect((await engine.listModels()).active).toMatchObject({ modelId: "broken", status: "pending", mode: "extractive", threads: 2 });
      await engine.importFiles([source]);
      const answer = await engine.ask("How fast must operators notify a major incident?");
      expect(answer.mode).toBe("extractive");
      expect(answer.citations.length).toBeGreaterThan(0);
      expect((await engine.listModels()).active).toMatchObject({ modelId: "broken", status: "failed", error: { code: "MODEL_INVALID" } });
      expect(lines.some((l) => /saved model "broken" could not be loaded.*MODEL_INVALID/.test(l))).toBe(true);
      // It is tried once, not on every question.
      await engine.ask("How fast must operators notify a major incident?");
      expect(lines.filter((l) => l.includes('saved model "broken"'))).toHaveLength(1);
      // Choosing no model clears the failure and is saved.
      expect((await engine.selectModel(null)).active).toMatchObject({ modelId: null, status: "none", error: null });
      expect(await readLlmChoice(data)).toEqual({ modelId: null });
    } finally {
      await engine.close();
    }
  });

  it("a damaged settings.json is logged and ignored", async () => {
    const data = path.join(dir, "bad-settings");
    await mkdir(data, { recursive: true });
    await writeFile(settingsPath(data), "{{{");
    const lines: string[] = [];
    const engine = await createEngine({ dataDir: data, embedder: null, log: (m) => lines.push(m) });
    try {
      expect((await engine.listModels()).active.status).toBe("none");
      expect(lines.some((l) => l.includes("saved model choice could not be read"))).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it("imports a GGUF into the models folder, where it is listed as present", async () => {
    const data = path.join(dir, "import");
    const file = path.join(dir, "My-Model.Q4_K_M.gguf");
    await writeFakeGguf(file, { contextLength: 2048, blockCount: 2, embeddingLength: 32, headCount: 2 });
    const engine = await createEngine({ dataDir: data, embedder: null });
    try {
      const imported = await engine.importModel(file);
      expect(imported).toMatchObject({ status: "imported", model: { id: "my-model.q4_k_m", origin: "imported", present: true, active: false } });
      expect((await engine.listModels()).models.find((m) => m.id === "my-model.q4_k_m")?.present).toBe(true);
      expect((await engine.importModel(file)).status).toBe("already-installed");
      expect(await rejectionCode(engine.importModel(path.join(dir, "missing.gguf")))).toBe("MODEL_NOT_FOUND");
      expect(await rejectionCode(engine.importModel(source))).toBe("MODEL_INVALID");
    } finally {
      await engine.close();
    }
  });

  it("a model passed by the caller is shown as external, used, and never closed by the engine", async () => {
    const data = path.join(dir, "external");
    const llm = scriptedLlm();
    const engine = await createEngine({ dataDir: data, embedder: null, llm });
    try {
      expect((await engine.listModels()).active).toMatchObject({ modelId: "caller-model", status: "ready", mode: "llm", external: true, contextSize: 2048 });
      await engine.importFiles([source]);
      expect((await engine.ask("How fast must operators notify a major incident?")).mode).toBe("llm");
      await engine.selectModel(null);
      expect(llm.closed).toBe(0);
      expect((await engine.ask("How fast must operators notify a major incident?")).mode).toBe("extractive");
    } finally {
      await engine.close();
    }
    expect(llm.closed).toBe(0);
  });

  it("with llm: null the saved choice is ignored", async () => {
    const data = path.join(dir, "forced-none");
    await writeLlmChoice(data, { modelId: "qwen2.5-1.5b-instruct-q4_k_m" });
    const engine = await createEngine({ dataDir: data, embedder: null, llm: null });
    try {
      expect((await engine.listModels()).active).toMatchObject({ modelId: null, status: "none" });
    } finally {
      await engine.close();
    }
  });
});
