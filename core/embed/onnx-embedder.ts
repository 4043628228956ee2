import { Tokenizer } from "@huggingface/tokenizers";
import { access, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as ort from "onnxruntime-node";
import { ClauseGraphError } from "../model/errors.ts";
import type { Embedder } from "../model/embedder.ts";
import type { EmbeddingModelEntry } from "./model-manifest.ts";
import { l2Normalize, poolTokens } from "./pooling.ts";

// One embedder for every ONNX embedding model in the manifest:
// - "onnx-static" (the built-in GloVe model): the graph pools and normalises; its output is
//   [batch, dim] already.
// - "onnx-transformer" (bge-small, e5-small, …): the graph returns last_hidden_state
//   [batch, seq, hidden]; pooling (mean or CLS) and normalisation follow the manifest here.
// Texts are tokenised with @huggingface/tokenizers from the model folder's tokenizer.json,
// truncated to maxTokens, sorted by length and run in batches padded to their longest member, so
// one long section does not make 63 short ones pay for its padding.

export interface OnnxEmbedderOptions {
  modelDir: string;
  manifestEntry: EmbeddingModelEntry;
  /** onnxruntime intra-op threads; default 1 on a 2-core machine (ingestion runs alongside), at most 2. */
  threads?: number;
  /** Texts per inference call. */
  batchSize?: number;
}

export const DEFAULT_BATCH_SIZE = 64;

function defaultThreads(): number {
  return Math.max(1, Math.min(2, os.availableParallelism() - 1));
}

async function requireFile(file: string, modelId: string): Promise<void> {
  try {
    await access(file);
  } catch (err) {
    throw new ClauseGraphError("MODEL_NOT_FOUND", `The embedding model "${modelId}" is missing ${path.basename(file)}.`, { file, cause: err });
  }
}

async function readJson(file: string, modelId: string): Promise<object> {
  await requireFile(file, modelId);
  try {
    const data: unknown = JSON.parse(await readFile(file, "utf8"));
    if (typeof data !== "object" || data === null || Array.isArray(data)) throw new Error("not a JSON object");
    return data;
  } catch (err) {
    throw new ClauseGraphError("MODEL_INVALID", `${path.basename(file)} of the embedding model "${modelId}" is not valid JSON.`, { file, cause: err });
  }
}

async function loadTokenizer(modelDir: string, entry: EmbeddingModelEntry): Promise<Tokenizer> {
  const tokenizerFile = path.join(modelDir, entry.files.tokenizer);
  const tokenizerJson = await readJson(tokenizerFile, entry.id);
  const config = entry.files.tokenizerConfig === undefined ? {} : await readJson(path.join(modelDir, entry.files.tokenizerConfig), entry.id);
  try {
    return new Tokenizer(tokenizerJson, config);
  } catch (err) {
    throw new ClauseGraphError("MODEL_INVALID", `The tokenizer of the embedding model "${entry.id}" cannot be loaded.`, { file: tokenizerFile, cause: err });
  }
}

async function openSession(modelFile: string, entry: EmbeddingModelEntry, threads: number): Promise<ort.InferenceSession> {
  await requireFile(modelFile, entry.id);
  try {
    return await ort.InferenceSession.create(modelFile, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
    });
  } catch (err) {
    throw new ClauseGraphError("MODEL_INVALID", `The embedding model "${entry.id}" could not be loaded by onnxruntime.`, { file: modelFile, cause: err });
  }
}

const KNOWN_INPUTS = new Set(["input_ids", "attention_mask", "token_type_ids"]);

function pickOutput(session: ort.InferenceSession, entry: EmbeddingModelEntry, modelFile: string): string {
  const preferred = entry.format === "onnx-static" ? "embeddings" : "last_hidden_state";
  const name = session.outputNames.includes(preferred) ? preferred : session.outputNames[0];
  if (name === undefined) throw new ClauseGraphError("MODEL_INVALID", `The embedding model "${entry.id}" has no output.`, { file: modelFile });
  return name;
}

function checkInputs(session: ort.InferenceSession, entry: EmbeddingModelEntry, modelFile: string): void {
  const unknown = session.inputNames.filter((n) => !KNOWN_INPUTS.has(n));
  if (!session.inputNames.includes("input_ids") || unknown.length > 0) {
    throw new ClauseGraphError(
      "MODEL_INVALID",
      `The embedding model "${entry.id}" takes inputs [${session.inputNames.join(", ")}]; expected input_ids, attention_mask and optionally token_type_ids.`,
      { file: modelFile },
    );
  }
}

interface Batch {
  indices: number[];
  ids: number[][];
}

export async function createOnnxEmbedder(options: OnnxEmbedderOptions): Promise<Embedder> {
  const { modelDir, manifestEntry: entry } = options;
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
  const modelFile = path.join(modelDir, entry.files.model);
  const tokenizer = await loadTokenizer(modelDir, entry);
  const session = await openSession(modelFile, entry, Math.max(1, options.threads ?? defaultThreads()));
  checkInputs(session, entry, modelFile);
  const outputName = pickOutput(session, entry, modelFile);
  const feedsMask = session.inputNames.includes("attention_mask");
  const feedsTypes = session.inputNames.includes("token_type_ids");
  // When the tokenizer wraps texts in special tokens ([CLS] … [SEP], <s> … </s>), truncation
  // keeps the closing one, as the models saw in training.
  const keepLastToken = tokenizer.post_processor !== null;
  // A token is at least one character, so text beyond this many characters could never be kept:
  // cutting it first keeps a 1 MB paste from being tokenised in full.
  const charLimit = entry.maxTokens * 32;
  let closed = false;

  const encode = (text: string): number[] => {
    const { ids } = tokenizer.encode(text.length > charLimit ? text.slice(0, charLimit) : text);
    if (ids.length <= entry.maxTokens) return ids;
    const last = ids[ids.length - 1];
    return keepLastToken && last !== undefined ? [...ids.slice(0, entry.maxTokens - 1), last] : ids.slice(0, entry.maxTokens);
  };

  const runBatch = async (batch: Batch): Promise<Float32Array[]> => {
    const rows = batch.ids.length;
    // An empty text has no tokens: a one-position all-padding row gives the defined zero vector.
    const seq = Math.max(1, ...batch.ids.map((ids) => ids.length));
    const inputIds = new BigInt64Array(rows * seq);
    const mask = new BigInt64Array(rows * seq);
    batch.ids.forEach((ids, r) => {
      ids.forEach((id, t) => {
        inputIds[r * seq + t] = BigInt(id);
        mask[r * seq + t] = 1n;
      });
    });
    const feeds: Record<string, ort.Tensor> = { input_ids: new ort.Tensor("int64", inputIds, [rows, seq]) };
    if (feedsMask) feeds.attention_mask = new ort.Tensor("int64", mask, [rows, seq]);
    if (feedsTypes) feeds.token_type_ids = new ort.Tensor("int64", new BigInt64Array(rows * seq), [rows, seq]);

    let output: ort.Tensor | undefined;
    try {
      output = (await session.run(feeds, [outputName]))[outputName];
    } catch (err) {
      throw new ClauseGraphError("MODEL_INVALID", `The embedding model "${entry.id}" failed to run.`, { file: modelFile, cause: err });
    }
    const dims = output?.dims ?? [];
    const dim = dims[dims.length - 1];
    if (output === undefined || !(output.data instanceof Float32Array) || dim !== entry.dimensions || (dims.length !== 2 && dims.length !== 3)) {
      throw new ClauseGraphError(
        "MODEL_INVALID",
        `The embedding model "${entry.id}" returned ${output?.type ?? "nothing"} [${dims.join(", ")}]; the manifest says ${entry.dimensions} dimensions.`,
        { file: modelFile },
      );
    }
    const data = output.data;
    if (dims.length === 3) {
      return poolTokens(data, mask, rows, seq, dim, entry.pooling).map((v) => (entry.normalize ? l2Normalize(v) : v));
    }
    const vectors = Array.from({ length: rows }, (_, r) => data.slice(r * dim, (r + 1) * dim));
    // The static graph pools and normalises itself; renormalising would only perturb the last bits.
    return entry.format === "onnx-static" || !entry.normalize ? vectors : vectors.map(l2Normalize);
  };

  const embed = async (texts: string[], prefix: string): Promise<Float32Array[]> => {
    if (closed) throw new ClauseGraphError("INTERNAL", `The embedding model "${entry.id}" is closed.`);
    const encoded = texts.map((t) => encode(prefix + t));
    const order = encoded.map((_, i) => i).sort((a, b) => (encoded[b]?.length ?? 0) - (encoded[a]?.length ?? 0) || a - b);
    const result: Float32Array[] = new Array<Float32Array>(texts.length);
    for (let start = 0; start < order.length; start += batchSize) {
      const indices = order.slice(start, start + batchSize);
      const vectors = await runBatch({ indices, ids: indices.map((i) => encoded[i] ?? []) });
      indices.forEach((i, k) => {
        const v = vectors[k];
        if (v !== undefined) result[i] = v;
      });
    }
    return result;
  };

  return {
    id: entry.id,
    dimensions: entry.dimensions,
    embedQueries: (texts) => embed(texts, entry.queryPrefix),
    embedDocuments: (texts) => embed(texts, entry.documentPrefix),
    // A static model pools word rows: one word embeds to its own (normalised) row.
    ...(entry.format === "onnx-static" ? { embedWords: (words: string[]) => embed(words, "") } : {}),
    async close() {
      if (closed) return;
      closed = true;
      await session.release();
    },
  };
}
