import { z } from "zod";

// Hard caps on a written answer: how many tokens the model may generate and how long the whole
// generation (prompt reading included) may take. Without them a 3B model on a 2-core laptop streamed
// one answer for minutes before it was thrown away. When a cap stops the model, the answer
// keeps the sentences it had written and cited, or is quoted from the documents, and says which cap
// stopped it. Saved in <dataDir>/settings.json beside the model choice (settings-file.ts);
// browser-safe (zod only), so the contract and the renderer share the bounds.

export const ANSWER_LIMIT_BOUNDS = {
  maxTokens: { min: 16, max: 4096 },
  maxSeconds: { min: 5, max: 1800 },
} as const;

/**
 * 512 tokens is several times the 90-word answers aimed at; on our 2-core machine a 3B Q4 model
 * reads a full context and writes a full answer well within 120 s, which still stops the runaway case.
 */
export const DEFAULT_ANSWER_LIMITS = { maxTokens: 512, maxSeconds: 120 } as const;

export const answerLimitsSchema = z.object({
  maxTokens: z.int().min(ANSWER_LIMIT_BOUNDS.maxTokens.min).max(ANSWER_LIMIT_BOUNDS.maxTokens.max),
  maxSeconds: z.int().min(ANSWER_LIMIT_BOUNDS.maxSeconds.min).max(ANSWER_LIMIT_BOUNDS.maxSeconds.max),
});

export type AnswerLimits = z.infer<typeof answerLimitsSchema>;

/** What a caller may change; absent fields keep their value. */
export const answerLimitsPatchSchema = answerLimitsSchema.partial().strict();

export type AnswerLimitsPatch = z.infer<typeof answerLimitsPatchSchema>;
