import onnxProto from "onnx-proto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddingModelEntry } from "../../core/embed/model-manifest.ts";
import { createOnnxEmbedder } from "../../core/embed/onnx-embedder.ts";
import { isClauseGraphError } from "../../core/model/errors.ts";

// The transformer path (bge/e5 style: token_type_ids input, last_hidden_state output, pooling,
// prefixes, truncation that keeps [SEP]) cannot use a real transformer on these machines, so a
// tiny stand-in is written here: last_hidden_state = E[input_ids] + T[token_type_ids], masked.

const { onnx } = onnxProto;
const VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "query", "passage", ":", "data"] as const;
const HIDDEN = 4;
const id = (token: (typeof VOCAB)[number]): number => VOCAB.indexOf(token);
const row = (i: number): number[] => [Math.cos(i), Math.sin(i), i / 10, 1];

function floats(values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return out;
}

function fakeTransformer(inputNames: string[] = ["input_ids", "attention_mask", "token_type_ids"]): Uint8Array {
  const F = onnx.TensorProto.DataType.FLOAT;
  const I = onnx.TensorProto.DataType.INT64;
  const io = (name: string, type: number, dims: (string | number)[]): onnxProto.onnx.IValueInfoProto => ({
    name,
    type: { tensorType: { elemType: type, shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) } } },
  });
  const axes = new Uint8Array(8);
  new DataView(axes.buffer).setBigInt64(0, 2n, true);
  const graph: onnxProto.onnx.IGraphProto = {
    name: "fake",
    initializer: [
      { name: "E", dims: [VOCAB.length, HIDDEN], dataType: F, rawData: floats(VOCAB.flatMap((_, i) => row(i))) },
      { name: "T", dims: [2, HIDDEN], dataType: F, rawData: floats([0, 0, 0, 0, 5, 5, 5, 5]) },
      { name: "axes", dims: [1], dataType: I, rawData: axes },
    ],
    input: inputNames.map((n) => io(n, I, ["batch", "sequence"])),
    output: [io("last_hidden_state", F, ["batch", "sequence", HIDDEN])],
    node: [
      { opType: "Gather", input: ["E", inputNames[0] ?? "input_ids"], output: ["tok"] },
      { opType: "Gather", input: ["T", inputNames[2] ?? "token_type_ids"], output: ["typ"] },
      { opType: "Add", input: ["tok", "typ"], output: ["h"] },
      {
        opType: "Cast",
        input: [inputNames[1] ?? "attention_mask"],
        output: ["m"],
        attribute: [{ name: "to", type: onnx.AttributeProto.AttributeType.INT, i: F }],
      },
      { opType: "Unsqueeze", input: ["m", "axes"], output: ["m3"] },
      { opType: "Mul", input: ["h", "m3"], output: ["last_hidden_state"] },
    ],
  };
  return onnx.ModelProto.encode({ irVersion: 8, opsetImport: [{ domain: "", version: 17 }], graph }).finish();
}

const tokenizerJson = {
  version: "1.0",
  truncation: null,
  padding: null,
  added_tokens: ["[PAD]", "[UNK]", "[CLS]", "[SEP]"].map((content, i) => ({
    id: i,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  })),
  normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: "BertPreTokenizer" },
  post_processor: { type: "BertProcessing", sep: ["[SEP]", 3], cls: ["[CLS]", 2] },
  decoder: { type: "WordPiece", prefix: "##", cleanup: true },
  model: {
    type: "WordPiece",
    unk_token: "[UNK]",
    continuing_subword_prefix: "##",
    max_input_chars_per_word: 100,
    vocab: Object.fromEntries(VOCAB.map((t, i) => [t, i])),
  },
};

function entry(overrides: Partial<EmbeddingModelEntry> = {}): EmbeddingModelEntry {
  return {
    id: "fake-transformer",
    kind: "embedding",
    format: "onnx-transformer",
    displayName: "fake",
    languages: ["en"],
    files: { model: "model.onnx", tokenizer: "tokenizer.json" },
    source: { type: "huggingface", repo: "test/fake", revision: null, url: "https://example.org", remoteFiles: { model: "model.onnx" } },
    license: { id: "MIT", url: "https://example.org" },
    approxSizeBytes: 1,
    dimensions: HIDDEN,
    pooling: "mean",
    normalize: true,
    maxTokens: 512,
    queryPrefix: "query: ",
    documentPrefix: "passage: ",
    ...overrides,
  };
}

function expected(tokens: (typeof VOCAB)[number][]): number[] {
  const sum = [0, 0, 0, 0];
  for (const t of tokens) row(id(t)).forEach((x, d) => (sum[d] = (sum[d] ?? 0) + x));
  const norm = Math.hypot(...sum);
  return sum.map((x) => x / norm);
}

function expectClose(actual: Float32Array | undefined, wanted: number[]): void {
  expect(actual).toBeDefined();
  wanted.forEach((x, d) => expect(actual?.[d]).toBeCloseTo(x, 5));
}

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cg-fake-transformer-"));
  await writeFile(path.join(dir, "model.onnx"), fakeTransformer());
  await writeFile(path.join(dir, "tokenizer.json"), JSON.stringify(tokenizerJson));
  await writeFile(path.join(dir, "odd.onnx"), fakeTransformer(["input_ids", "attention_mask", "position_ids"]));
});

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("createOnnxEmbedder on a transformer-shaped model", () => {
  it("mean-pools last_hidden_state over real tokens and applies the document/query prefixes", async () => {
    const embedder = await createOnnxEmbedder({ modelDir: dir, manifestEntry: entry(), threads: 1 });
    try {
      const [doc] = await embedder.embedDocuments(["Hello world"]);
      expectClose(doc, expected(["[CLS]", "passage", ":", "hello", "world", "[SEP]"]));
      const [query] = await embedder.embedQueries(["Hello world"]);
      expectClose(query, expected(["[CLS]", "query", ":", "hello", "world", "[SEP]"]));
    } finally {
      await embedder.close();
    }
  });

  it("uses the first token with CLS pooling", async () => {
    const embedder = await createOnnxEmbedder({ modelDir: dir, manifestEntry: entry({ pooling: "cls", queryPrefix: "", documentPrefix: "" }) });
    const vectors = await embedder.embedDocuments(["hello", "world data world", ""]);
    for (const v of vectors) expectClose(v, expected(["[CLS]"]));
    await embedder.close();
  });

  it("truncates to maxTokens keeping the closing special token", async () => {
    const embedder = await createOnnxEmbedder({ modelDir: dir, manifestEntry: entry({ maxTokens: 4, queryPrefix: "", documentPrefix: "" }) });
    const [long, short] = await embedder.embedDocuments(["hello world data data hello", "hello world"]);
    expectClose(long, expected(["[CLS]", "hello", "world", "[SEP]"]));
    expectClose(short, expected(["[CLS]", "hello", "world", "[SEP]"]));
    await embedder.close();
  });

  it("pads mixed-length batches without letting padding leak into the vectors", async () => {
    const embedder = await createOnnxEmbedder({ modelDir: dir, manifestEntry: entry({ documentPrefix: "" }), batchSize: 3 });
    const texts = ["hello", "world world world world data", "data", "hello world", "unknownword", "data hello"];
    const batched = await embedder.embedDocuments(texts);
    for (let i = 0; i < texts.length; i++) {
      const [single] = await embedder.embedDocuments([texts[i] ?? ""]);
      expectClose(batched[i], Array.from(single ?? []));
    }
    await embedder.close();
  });

  it("rejects a model whose output size disagrees with the manifest, or whose inputs are unknown", async () => {
    const wrongDims = await createOnnxEmbedder({ modelDir: dir, manifestEntry: entry({ dimensions: 384 }) });
    const err = await wrongDims.embedDocuments(["hello"]).catch((e: unknown) => e);
    expect(isClauseGraphError(err) && err.code).toBe("MODEL_INVALID");
    await wrongDims.close();

    const odd = await createOnnxEmbedder({ modelDir: dir, manifestEntry: entry({ files: { model: "odd.onnx", tokenizer: "tokenizer.json" } }) }).catch(
      (e: unknown) => e,
    );
    expect(isClauseGraphError(odd) && odd.code).toBe("MODEL_INVALID");
    expect(String(isClauseGraphError(odd) && odd.message)).toContain("position_ids");
  });

  it("refuses to embed after close", async () => {
    const embedder = await createOnnxEmbedder({ modelDir: dir, manifestEntry: entry() });
    await embedder.close();
    await expect(embedder.embedDocuments(["hello"])).rejects.toThrow(/closed/);
  });
});
