import os from "node:os";
import { z } from "zod";
import { ClauseGraphError } from "../model/errors.ts";
import type { GgufHeader } from "./gguf-header.ts";

// A model that does not fit in RAM does not fail cleanly: the machine swaps until it is unusable or
// the OOM killer takes the app. So loading refuses up front, with numbers the user can act on.

export interface MemoryState {
  totalBytes: number;
  /** What the OS can hand out now (os.freemem() is MemAvailable on Linux: reclaimable cache counts). */
  freeBytes: number;
}

export type MemoryProbe = () => MemoryState | Promise<MemoryState>;

export const systemMemoryProbe: MemoryProbe = () => ({ totalBytes: os.totalmem(), freeBytes: os.freemem() });

const GIB = 1024 ** 3;

/** Headroom left for the OS, the app and estimate error: 10% of RAM, at most 512 MiB. */
export function memoryMarginBytes(totalBytes: number): number {
  return Math.min(0.5 * GIB, Math.round(totalBytes * 0.1));
}

const archSchema = z.object({
  block_count: z.number(),
  embedding_length: z.number(),
  attention: z.object({ head_count: z.number(), head_count_kv: z.number().optional() }),
});

/**
 * A loader-free estimate: the weights (mmapped, so the whole file ends up resident) plus an f16 KV
 * cache for the context. Used as a fast first check before llama.cpp is even started.
 */
export function estimateRamFromHeader(header: GgufHeader, contextSize: number): number {
  const arch = archSchema.safeParse((header.info.metadata as unknown as Record<string, unknown>)[header.architecture]);
  if (!arch.success || arch.data.attention.head_count <= 0) return header.sizeBytes;
  const { block_count: layers, embedding_length: embd, attention } = arch.data;
  const kvDim = (embd / attention.head_count) * (attention.head_count_kv ?? attention.head_count);
  const kvCacheBytes = 2 /* K and V */ * layers * contextSize * kvDim * 2; /* f16 */
  return header.sizeBytes + Math.round(kvCacheBytes);
}

function gb(bytes: number): string {
  return `${(bytes / GIB).toFixed(1)} GB`;
}

/** Throws MODEL_TOO_LARGE_FOR_RAM when `requiredBytes` plus the margin does not fit. */
export function assertFitsInRam(requiredBytes: number, memory: MemoryState, file: string): void {
  const margin = memoryMarginBytes(memory.totalBytes);
  if (requiredBytes + margin > memory.totalBytes) {
    throw new ClauseGraphError(
      "MODEL_TOO_LARGE_FOR_RAM",
      `This model needs about ${gb(requiredBytes)} of memory but this computer has ${gb(memory.totalBytes)}. Choose a smaller model or a smaller context.`,
      { file },
    );
  }
  if (requiredBytes + margin > memory.freeBytes) {
    throw new ClauseGraphError(
      "MODEL_TOO_LARGE_FOR_RAM",
      `This model needs about ${gb(requiredBytes)} of memory but only ${gb(memory.freeBytes)} is free now. Close other applications, or choose a smaller model or context.`,
      { file },
    );
  }
}
