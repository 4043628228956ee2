import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LlmModelEntry, loadModelManifest, type ModelManifest } from "../../core/embed/model-manifest.ts";
import { importModel } from "../../core/llm/import-model.ts";
import { modelIdFromFileName } from "../../core/llm/model-paths.ts";
import { findInstalledLlm, listModels, removeModel } from "../../core/llm/model-registry.ts";
import { rejectionCode } from "../helpers/expect-code.ts";
import { writeFakeGguf } from "../helpers/fake-gguf.ts";

let work = "";
let dataDir = "";
let manifest: ModelManifest;

beforeEach(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "cg-registry-"));
  dataDir = path.join(work, "data");
  manifest = await loadModelManifest();
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The manifest with its Qwen 1.5B entry changed as a test needs. */
function withQwen(change: Partial<LlmModelEntry>): ModelManifest {
  const copy = structuredClone(manifest);
  copy.models = copy.models.map((m) => (m.id === "qwen2.5-1.5b-instruct-q4_k_m" && m.kind === "llm" ? { ...m, ...change } : m));
  return copy;
}

async function modelsFolder(): Promise<string[]> {
  return (await readdir(path.join(dataDir, "models"))).sort();
}

describe("model registry", () => {
  it("lists every manifest model, none installed in a fresh data folder", async () => {
    const models = await listModels(dataDir);
    expect(models.map((m) => m.id)).toEqual(manifest.models.map((m) => m.id));
    expect(models.every((m) => !m.installed && m.origin === "manifest")).toBe(true);
    const qwen = models.find((m) => m.id === "qwen2.5-1.5b-instruct-q4_k_m");
    expect(qwen).toMatchObject({
      kind: "llm",
      parameters: "1.5B",
      quantization: "Q4_K_M",
      architecture: "qwen2",
      license: { id: "Apache-2.0" },
      file: path.join(dataDir, "models", "qwen2.5-1.5b-instruct-q4_k_m", "qwen2.5-1.5b-instruct-q4_k_m.gguf"),
    });
  });

  it("imports a user's GGUF atomically, lists it with its header facts, and removes it", async () => {
    const source = path.join(work, "My-Model.Q4_K_M.gguf");
    const bytes = await writeFakeGguf(source, { name: "My fine-tune", contextLength: 8192 });
    const result = await importModel(dataDir, source, { manifest });
    expect(result.status).toBe("imported");
    expect(result.record).toMatchObject({
      id: "my-model.q4_k_m",
      file: "My-Model.Q4_K_M.gguf",
      sha256: sha256(bytes),
      sizeBytes: bytes.length,
      manifestId: null,
      verified: false,
      architecture: "llama",
      name: "My fine-tune",
      contextLength: 8192,
    });
    expect(await readFile(result.file)).toEqual(bytes);
    expect(await modelsFolder()).toEqual(["my-model.q4_k_m"]); // no staging or trash left behind

    const listed = (await listModels(dataDir, { manifest })).find((m) => m.id === "my-model.q4_k_m");
    expect(listed).toMatchObject({ origin: "imported", kind: "llm", installed: true, sizeBytes: bytes.length, sha256: sha256(bytes), contextLength: 8192 });
    expect((await findInstalledLlm(dataDir, "my-model.q4_k_m", { manifest })).file).toBe(result.file);

    expect((await importModel(dataDir, source, { manifest })).status).toBe("already-installed");

    await writeFakeGguf(source, { name: "My fine-tune v2", contextLength: 4096 });
    const replaced = await importModel(dataDir, source, { manifest });
    expect(replaced.status).toBe("replaced");
    expect(replaced.record.contextLength).toBe(4096);
    expect(await modelsFolder()).toEqual(["my-model.q4_k_m"]);

    expect(await removeModel(dataDir, "my-model.q4_k_m", { manifest })).toMatchObject({ id: "my-model.q4_k_m" });
    expect(await modelsFolder()).toEqual([]);
    expect(await rejectionCode(removeModel(dataDir, "my-model.q4_k_m", { manifest }))).toBe("MODEL_NOT_FOUND");
    expect(await rejectionCode(findInstalledLlm(dataDir, "my-model.q4_k_m", { manifest }))).toBe("MODEL_NOT_FOUND");
  });

  it("copies when asked not to link, and the copy is independent of the original", async () => {
    const source = path.join(work, "copy-me.gguf");
    const bytes = await writeFakeGguf(source);
    const result = await importModel(dataDir, source, { manifest, link: false });
    expect((await stat(result.file)).ino).not.toBe((await stat(source)).ino);
    await writeFile(source, "changed");
    expect(await readFile(result.file)).toEqual(bytes);
  });

  it("recognises a recommended model by its file name and verifies the pinned sha256", async () => {
    const source = path.join(work, "qwen2.5-1.5b-instruct-q4_k_m.gguf");
    const bytes = await writeFakeGguf(source, { architecture: "qwen2" });
    const pinned = withQwen({ sha256: sha256(bytes) });
    const result = await importModel(dataDir, source, { manifest: pinned });
    expect(result.record).toMatchObject({ id: "qwen2.5-1.5b-instruct-q4_k_m", manifestId: "qwen2.5-1.5b-instruct-q4_k_m", verified: true });
    const listed = (await listModels(dataDir, { manifest: pinned })).find((m) => m.id === "qwen2.5-1.5b-instruct-q4_k_m");
    expect(listed).toMatchObject({ installed: true, verified: true, origin: "manifest", sha256: sha256(bytes) });

    // Unpinned (the shipped manifest): recognised, installed, but not verified.
    await rm(path.join(dataDir, "models"), { recursive: true });
    const unpinned = await importModel(dataDir, source, { manifest });
    expect(unpinned.record).toMatchObject({ manifestId: "qwen2.5-1.5b-instruct-q4_k_m", verified: false });
  });

  it("recognises a renamed recommended model by its pinned sha256", async () => {
    const source = path.join(work, "downloaded (1).gguf");
    const bytes = await writeFakeGguf(source, { architecture: "qwen2" });
    const result = await importModel(dataDir, source, { manifest: withQwen({ sha256: sha256(bytes) }) });
    expect(result.record).toMatchObject({ id: "qwen2.5-1.5b-instruct-q4_k_m", file: "qwen2.5-1.5b-instruct-q4_k_m.gguf", verified: true });
  });

  it("MODEL_INVALID when a file named like a recommended model is not it, and nothing is left behind", async () => {
    const source = path.join(work, "qwen2.5-1.5b-instruct-q4_k_m.gguf");
    await writeFakeGguf(source, { architecture: "qwen2" });
    const wrongSha = await importModel(dataDir, source, { manifest: withQwen({ sha256: "0".repeat(64) }) }).catch((e: unknown) => e);
    expect(wrongSha).toMatchObject({ code: "MODEL_INVALID", message: expect.stringMatching(/pinned/) });

    await writeFakeGguf(source, { architecture: "gemma" });
    const wrongArch = await importModel(dataDir, source, { manifest }).catch((e: unknown) => e);
    expect(wrongArch).toMatchObject({ code: "MODEL_INVALID", message: expect.stringMatching(/gemma/) });
    expect(await modelsFolder()).toEqual([]);
  });

  it("rejects non-GGUF and missing files before touching the models folder", async () => {
    const pdf = path.join(work, "regulation.pdf");
    await writeFile(pdf, "%PDF-1.7\n");
    expect(await rejectionCode(importModel(dataDir, pdf, { manifest }))).toBe("MODEL_INVALID");
    expect(await rejectionCode(importModel(dataDir, path.join(work, "none.gguf"), { manifest }))).toBe("MODEL_NOT_FOUND");
    expect(await rejectionCode(readdir(path.join(dataDir, "models")))).toMatch(/ENOENT/);
  });

  it("lists a recommended model placed by hand, and refuses to remove embedders or odd ids", async () => {
    const dir = path.join(dataDir, "models", "phi-3.5-mini-instruct-q4_k_m");
    await mkdir(dir, { recursive: true });
    await writeFakeGguf(path.join(dir, "Phi-3.5-mini-instruct-Q4_K_M.gguf"), { architecture: "phi3" });
    await mkdir(path.join(dataDir, "models", "notes"));
    await mkdir(path.join(dataDir, "models", ".import-leftover"));
    const models = await listModels(dataDir, { manifest });
    expect(models.find((m) => m.id === "phi-3.5-mini-instruct-q4_k_m")).toMatchObject({ installed: true, sha256: null, verified: false });
    expect(models.some((m) => m.id === "notes" || m.id.startsWith("."))).toBe(false);

    expect(await rejectionCode(removeModel(dataDir, "glove-static-100d", { manifest }))).toBe("VALIDATION");
    expect(await rejectionCode(removeModel(dataDir, "../data", { manifest }))).toBe("VALIDATION");
    expect(await rejectionCode(importModel(dataDir, path.join(dir, "Phi-3.5-mini-instruct-Q4_K_M.gguf"), { manifest, id: "Bad Id" }))).toBe("VALIDATION");
  });

  it("derives folder-safe ids from file names", () => {
    expect(modelIdFromFileName("/x/Mistral-7B-Instruct-v0.3.Q4_K_M.gguf")).toBe("mistral-7b-instruct-v0.3.q4_k_m");
    expect(modelIdFromFileName("my model (final).GGUF")).toBe("my-model-final");
    expect(modelIdFromFileName("___.gguf")).toBe("model");
  });
});
