import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import { sha256File } from "../../core/llm/file-sha256.ts";
import { readLlmChoice } from "../../core/files/settings-file.ts";
import { describeTinyLlm, HAS_TINY_LLM, TINY_LLM_PATH } from "../helpers/tiny-llm.ts";

// Model selection on the real node-llama-cpp path with the 1 MB story model: import, select with
// explicit threads, answer (the model knows nothing: only the plumbing is checked), the answer log
// naming the model and its file hash, the choice surviving a restart and loading on first question.

describeTinyLlm("engine model selection with stories260K.gguf", () => {
  let dir = "";
  let source = "";
  beforeAll(async () => {
    if (!HAS_TINY_LLM) return;
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-model-select-tiny-"));
    source = path.join(dir, "rules.txt");
    await writeFile(source, "Incident rules\n\nArticle 1\nIncident notification\nOperators shall notify the authority of a major incident within 24 hours.\n");
  });
  afterAll(async () => {
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });

  it("imports, selects, answers, logs the model's hash, and reloads the saved choice on the next start", async () => {
    const data = path.join(dir, "data");
    const sha256 = await sha256File(TINY_LLM_PATH);
    const engine = await createEngine({ dataDir: data, embedder: null });
    try {
      await engine.importFiles([source]);
      const imported = await engine.importModel(TINY_LLM_PATH);
      expect(imported.model).toMatchObject({ id: "stories260k", present: true });
      const state = await engine.selectModel("stories260k", { threads: 1, contextSize: 512 });
      expect(state.active).toMatchObject({ modelId: "stories260k", status: "ready", mode: "llm", threads: 1, error: null, external: false });
      expect(state.models.find((m) => m.id === "stories260k")?.active).toBe(true);
      expect(await readLlmChoice(data)).toEqual({ modelId: "stories260k", threads: 1, contextSize: 512 });

      const answer = await engine.ask("How fast must operators notify a major incident?");
      // Whatever the tiny model wrote, only verified citations come back.
      for (const c of answer.citations) expect(c.sectionId).toMatch(/:/);
      const record = (await engine.answerLog({ limit: 1 }))[0];
      expect(record?.model).toEqual({ id: "stories260k", sha256 });

      // Switching while an answer runs: the answer finishes with the model it started with.
      await copyFile(TINY_LLM_PATH, path.join(dir, "other-tiny.gguf"));
      await engine.importModel(path.join(dir, "other-tiny.gguf"));
      const running = engine.ask("Who must be notified of a major incident?");
      const switched = await engine.selectModel("other-tiny", { threads: 1, contextSize: 512 });
      expect(switched.active.modelId).toBe("other-tiny");
      await running;
    } finally {
      await engine.close();
    }

    const reopened = await createEngine({ dataDir: data, embedder: null });
    try {
      expect((await reopened.listModels()).active).toMatchObject({ modelId: "other-tiny", status: "pending", mode: "extractive" });
      await reopened.ask("How fast must operators notify a major incident?");
      expect((await reopened.listModels()).active).toMatchObject({ modelId: "other-tiny", status: "ready", mode: "llm", threads: 1 });
      expect((await reopened.answerLog({ limit: 1 }))[0]?.model).toEqual({ id: "other-tiny", sha256 });
      expect((await reopened.selectModel(null)).active).toMatchObject({ status: "none", mode: "extractive" });
      expect((await reopened.ask("How fast must operators notify a major incident?")).mode).toBe("extractive");
    } finally {
      await reopened.close();
    }
  });
});
