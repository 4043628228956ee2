import { z } from "zod";
import { errorInfoSchema } from "./record-schemas.ts";
import { answerLimitsSchema } from "./answer-limits.ts";

// What the engine tells a front end about language models: the ones it can answer with (from the
// manifest and the user's imports) and the one in use. Browser-safe (zod only), so the contract
// and the renderer share these shapes.

export const MODEL_STATUSES = ["none", "pending", "loading", "ready", "failed"] as const;

export const modelEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** "manifest": a model the app recommends; "imported": a user's own GGUF. */
  origin: z.enum(["manifest", "imported"]),
  /** The GGUF file is in the models folder. */
  present: z.boolean(),
  /** On disk when present, else the manifest's approximate download size. */
  sizeBytes: z.number().nonnegative().nullable(),
  parameters: z.string().nullable(),
  quantization: z.string().nullable(),
  contextLength: z.int().positive().nullable(),
  license: z.string().nullable(),
  languages: z.array(z.string()),
  /** The file's sha256 matches the one the manifest pins. */
  verified: z.boolean(),
  /** The model answering questions now (or chosen and waiting to load). */
  active: z.boolean(),
});

export const activeModelSchema = z.object({
  modelId: z.string().nullable(),
  /**
   * none: no model, answers are quoted (extractive). pending: chosen in an earlier session, loaded
   * on the first question. loading. ready: answers are written by the model. failed: the chosen
   * model could not be loaded (see error); answers are quoted until another is selected.
   */
  status: z.enum(MODEL_STATUSES),
  /** How the next answer will be made. */
  mode: z.enum(["llm", "extractive"]),
  threads: z.int().positive().nullable(),
  contextSize: z.int().positive().nullable(),
  error: errorInfoSchema.nullable(),
  /** Given to the engine by its caller (e.g. `clausegraph ask --llm`), not chosen from the list. */
  external: z.boolean(),
});

export const modelsStateSchema = z.object({
  /** Where GGUF files are installed (`<modelRoot>/models`). */
  modelsDir: z.string(),
  active: activeModelSchema,
  models: z.array(modelEntrySchema),
  /** Caps on every written answer (answer-limits.ts). */
  limits: answerLimitsSchema,
});

export const modelImportResultSchema = z.object({
  status: z.enum(["imported", "already-installed", "replaced"]),
  model: modelEntrySchema,
});

export type ModelEntry = z.infer<typeof modelEntrySchema>;
export type ModelsState = z.infer<typeof modelsStateSchema>;
export type ModelImportResult = z.infer<typeof modelImportResultSchema>;

/** Settings a selection may carry; anything else comes from llm-settings.ts defaults. */
export interface ModelSelectSettings {
  threads?: number;
  contextSize?: number;
}
