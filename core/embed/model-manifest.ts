import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { ClauseGraphError } from "../model/errors.ts";

// models/manifest.json lists every model the app knows how to run: the default static embedder it
// builds itself and the optional transformer embedders / GGUF LLMs a user may place in the data
// folder. It is validated at load time because a hand-edited manifest must fail with a clear
// message, not deep inside onnxruntime.

const sha1 = z.string().regex(/^[0-9a-f]{40}$/, "a full 40-hex commit hash");

const licenseSchema = z.object({
  /** SPDX id, or LicenseRef-… for licenses SPDX does not list. */
  id: z.string().min(1),
  url: z.url(),
  note: z.string().optional(),
});

const npmSourceSchema = z.object({
  type: z.literal("npm"),
  package: z.string().min(1),
  /** An exact npm version is immutable, so it pins the input as well as a commit hash would. */
  version: z.string().regex(/^\d+\.\d+\.\d+$/, "an exact semver version"),
  url: z.url(),
  buildScript: z.string().min(1),
  note: z.string().optional(),
});

const huggingFaceSourceSchema = z.object({
  type: z.literal("huggingface"),
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "owner/name"),
  /** null until someone fetches the files and records the commit they got ("pin on fetch"). */
  revision: sha1.nullable(),
  url: z.url(),
  /** Local file role → path inside the remote repository. */
  remoteFiles: z.record(z.string(), z.string().min(1)),
  note: z.string().optional(),
});

const sourceSchema = z.discriminatedUnion("type", [npmSourceSchema, huggingFaceSourceSchema]);

const relativeFile = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith("/") && !p.split(/[\\/]/).includes(".."), "a path inside the model folder");

const commonFields = {
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "lowercase id usable as a folder name"),
  displayName: z.string().min(1),
  languages: z.array(z.string().min(1)).min(1),
  source: sourceSchema,
  license: licenseSchema,
  approxSizeBytes: z.number().int().positive(),
};

export const embeddingModelSchema = z.object({
  ...commonFields,
  kind: z.literal("embedding"),
  format: z.enum(["onnx-static", "onnx-transformer"]),
  files: z.object({
    model: relativeFile,
    tokenizer: relativeFile,
    tokenizerConfig: relativeFile.optional(),
    config: relativeFile.optional(),
  }),
  dimensions: z.number().int().positive(),
  pooling: z.enum(["mean", "cls"]),
  normalize: z.boolean(),
  maxTokens: z.number().int().positive(),
  queryPrefix: z.string(),
  documentPrefix: z.string(),
});

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, "a lowercase 64-hex sha256");

export const llmModelSchema = z.object({
  ...commonFields,
  kind: z.literal("llm"),
  format: z.literal("gguf"),
  files: z.object({ model: relativeFile }),
  parameters: z.string().min(1),
  quantization: z.string().min(1),
  contextLength: z.number().int().positive(),
  /** general.architecture in the GGUF header: an import named like this entry must match it. */
  architecture: z.string().min(1).optional(),
  /** sha256 of files.model at source.revision; null until pinned by models/fetch-model.ts. */
  sha256: sha256Hex.nullable().default(null),
  /** Exact size of files.model in bytes, recorded with sha256. */
  sizeBytes: z.number().int().positive().nullable().default(null),
});

export const modelEntrySchema = z.discriminatedUnion("kind", [embeddingModelSchema, llmModelSchema]);

export const modelManifestSchema = z
  .object({
    schemaVersion: z.literal(1),
    defaultEmbedding: z.string().min(1),
    models: z.array(modelEntrySchema).min(1),
  })
  .superRefine((manifest, ctx) => {
    const seen = new Set<string>();
    for (const model of manifest.models) {
      if (seen.has(model.id)) ctx.addIssue({ code: "custom", message: `duplicate model id "${model.id}"` });
      seen.add(model.id);
    }
    const def = manifest.models.find((m) => m.id === manifest.defaultEmbedding);
    if (def === undefined || def.kind !== "embedding") {
      ctx.addIssue({ code: "custom", message: `defaultEmbedding "${manifest.defaultEmbedding}" is not an embedding model` });
    }
  });

export type EmbeddingModelEntry = z.infer<typeof embeddingModelSchema>;
export type LlmModelEntry = z.infer<typeof llmModelSchema>;
export type ModelManifest = z.infer<typeof modelManifestSchema>;

/** models/manifest.json of this checkout (or of the packaged app, which ships the folder as is). */
export const DEFAULT_MANIFEST_PATH = fileURLToPath(new URL("../../models/manifest.json", import.meta.url));

export function parseModelManifest(data: unknown, file = "manifest.json"): ModelManifest {
  const result = modelManifestSchema.safeParse(data);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new ClauseGraphError("MODEL_INVALID", `The model manifest is not valid: ${issues}`, { file });
  }
  return result.data;
}

export async function loadModelManifest(file: string = DEFAULT_MANIFEST_PATH): Promise<ModelManifest> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new ClauseGraphError("MODEL_NOT_FOUND", `The model manifest could not be read: ${file}`, { file, cause: err });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ClauseGraphError("MODEL_INVALID", `The model manifest is not valid JSON: ${file}`, { file, cause: err });
  }
  return parseModelManifest(data, file);
}

export function findEmbeddingModel(manifest: ModelManifest, id: string): EmbeddingModelEntry {
  const entry = manifest.models.find((m) => m.id === id);
  if (entry === undefined || entry.kind !== "embedding") {
    throw new ClauseGraphError("MODEL_NOT_FOUND", `No embedding model "${id}" in the model manifest.`);
  }
  return entry;
}

export function defaultEmbeddingModel(manifest: ModelManifest): EmbeddingModelEntry {
  return findEmbeddingModel(manifest, manifest.defaultEmbedding);
}

export function findLlmModel(manifest: ModelManifest, id: string): LlmModelEntry {
  const entry = manifest.models.find((m) => m.id === id);
  if (entry === undefined || entry.kind !== "llm") {
    throw new ClauseGraphError("MODEL_NOT_FOUND", `No language model "${id}" in the model manifest.`);
  }
  return entry;
}
