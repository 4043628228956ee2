import { z } from "zod";

// What an extraction job reports when it ends: per document, how many sections the model read,
// how many came from the cache, and what was stored. Zod-only (browser-safe): the contract
// validates the summary with these schemas.

export const droppedCountsSchema = z.object({
  /** The evidence span is not in the section. */
  evidence: z.int().min(0),
  trivial: z.int().min(0),
  /** Merged into a triplet already kept (same fact, maybe another section). */
  duplicate: z.int().min(0),
});
export type DroppedCounts = z.infer<typeof droppedCountsSchema>;

export const documentExtractionSummarySchema = z.object({
  documentId: z.string(),
  title: z.string(),
  sections: z.int().min(0),
  /** Sections sent to the model in this run. */
  extracted: z.int().min(0),
  /** Sections whose result came from the cache (an earlier or interrupted run). */
  cached: z.int().min(0),
  /** Sections whose generation failed (not cached: the next run retries them). */
  failed: z.int().min(0),
  /** Chunks whose output was not valid JSON (cut off or malformed): they count as no triplets. */
  malformedChunks: z.int().min(0),
  /** LLM triplets stored for the document after cleaning and merging. */
  triplets: z.int().min(0),
  entities: z.int().min(0),
  dropped: droppedCountsSchema,
});
export type DocumentExtractionSummary = z.infer<typeof documentExtractionSummarySchema>;

export const extractionSummarySchema = z.object({
  modelId: z.string(),
  promptVersion: z.string(),
  documents: z.array(documentExtractionSummarySchema),
  sections: z.int().min(0),
  extracted: z.int().min(0),
  cached: z.int().min(0),
  failed: z.int().min(0),
  triplets: z.int().min(0),
  totalMs: z.number().min(0),
});
export type ExtractionSummary = z.infer<typeof extractionSummarySchema>;
