import os from "node:os";
import { z } from "zod";
import { ClauseGraphError } from "../model/errors.ts";

// How a local model runs. Defaults suit a laptop CPU: llama.cpp's own thread default (4, or all math
// cores) made generation orders of magnitude slower on our 2-core machines, so threads is always set explicitly.

export interface LlmSettings {
  threads: number;
  /** Tokens of prompt + answer the context holds (never more than the model was trained on). */
  contextSize: number;
  /** Layers offloaded to a GPU; 0 keeps everything on the CPU. Only used with a GPU runtime. */
  gpuLayers: number;
  loadTimeoutMs: number;
}

export type LlmSettingsInput = Partial<LlmSettings>;

export const DEFAULT_CONTEXT_SIZE = 4096;
export const DEFAULT_LOAD_TIMEOUT_MS = 120_000;
/** More threads than this stops helping on laptop CPUs (memory bandwidth bound) and starves the UI. */
export const MAX_DEFAULT_THREADS = 4;
/** Smaller contexts cannot hold even a short system prompt and question. */
export const MIN_CONTEXT_SIZE = 64;

const inputSchema = z.object({
  threads: z.number().int().min(1).max(256).optional(),
  contextSize: z.number().int().min(MIN_CONTEXT_SIZE).max(1_048_576).optional(),
  gpuLayers: z.number().int().min(0).max(100_000).optional(),
  loadTimeoutMs: z.number().int().positive().optional(),
});

export function defaultThreads(cores: number = os.availableParallelism()): number {
  return Math.max(1, Math.min(MAX_DEFAULT_THREADS, cores));
}

/**
 * Fills in defaults and clamps the context to the model's training length (a longer one only
 * wastes memory: the model cannot attend past it). Throws VALIDATION for out-of-range values.
 */
export function resolveLlmSettings(
  input: LlmSettingsInput,
  model: { trainContextSize: number | null },
  cores: number = os.availableParallelism(),
): LlmSettings {
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ClauseGraphError("VALIDATION", `Invalid model settings: ${issues}`);
  }
  const requested = parsed.data.contextSize ?? DEFAULT_CONTEXT_SIZE;
  const train = model.trainContextSize;
  return {
    threads: parsed.data.threads ?? defaultThreads(cores),
    contextSize: train !== null && train > 0 ? Math.min(requested, train) : requested,
    gpuLayers: parsed.data.gpuLayers ?? 0,
    loadTimeoutMs: parsed.data.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS,
  };
}
