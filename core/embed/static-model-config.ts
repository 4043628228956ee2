import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

// config.json of a locally built static model: what it was built from and how, plus the size and
// hash of each file so a truncated or stale build is recognised and rebuilt instead of loaded.

/** Bump whenever the recipe changes (vocabulary, weighting, graph, tokenizer): old builds are redone. */
export const STATIC_MODEL_BUILDER_VERSION = 1;
export const STATIC_MODEL_ID = "glove-static-100d";

const fileInfo = z.object({ bytes: z.number().int().positive(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

export const staticModelConfigSchema = z.object({
  id: z.string(),
  format: z.literal("onnx-static"),
  builderVersion: z.number().int(),
  dimensions: z.number().int().positive(),
  pooling: z.literal("mean"),
  normalize: z.literal(true),
  maxTokens: z.number().int().positive(),
  vocabSize: z.number().int().positive(),
  unkTokenId: z.literal(0),
  weighting: z.object({ scheme: z.literal("sif"), a: z.number().positive(), probability: z.string() }),
  source: z.object({ package: z.string(), version: z.string(), vocabularySize: z.number().int().positive() }),
  files: z.object({ model: fileInfo, tokenizer: fileInfo, tokenizerConfig: fileInfo }),
  builtAt: z.string(),
});

export type StaticModelConfig = z.infer<typeof staticModelConfigSchema>;

export const STATIC_MODEL_FILES = {
  model: "model.onnx",
  tokenizer: "tokenizer.json",
  tokenizerConfig: "tokenizer_config.json",
  config: "config.json",
} as const;

/**
 * The build's config when `dir` holds a complete build by the current recipe, else null. Checks
 * sizes only (not hashes): this runs on every start and hashing the model each time buys little.
 */
export async function readValidStaticBuild(dir: string): Promise<StaticModelConfig | null> {
  let config: StaticModelConfig;
  try {
    const parsed = staticModelConfigSchema.safeParse(JSON.parse(await readFile(path.join(dir, STATIC_MODEL_FILES.config), "utf8")));
    if (!parsed.success) return null;
    config = parsed.data;
  } catch {
    return null;
  }
  if (config.builderVersion !== STATIC_MODEL_BUILDER_VERSION) return null;
  for (const role of ["model", "tokenizer", "tokenizerConfig"] as const) {
    try {
      const info = await stat(path.join(dir, STATIC_MODEL_FILES[role]));
      if (info.size !== config.files[role].bytes) return null;
    } catch {
      return null;
    }
  }
  return config;
}
