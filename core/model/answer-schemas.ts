import { z } from "zod";
import { subgraphSchema, tripletSchema } from "./record-schemas.ts";
import { answerRouteSchema, graphRowSchema } from "./graph-answer-schemas.ts";
import type { Subgraph } from "./subgraph-types.ts";
import type { TripletRecord } from "./graph-records.ts";
import type { AskResult, AskSentence, AskTimings } from "./answer-types.ts";
import { askCitationSchema, citationKeySchema, type AskCitation } from "./ask-citation.ts";
import { ANSWER_RULES, IN_LIBRARY_RULES, type InLibraryFeature } from "./answer-rules.ts";

// Zod mirrors of answer-types.ts for the IPC contract. Browser-safe on purpose: only zod and plain
// constant lists at run time (the type imports vanish), so core/contract and the renderer can
// import this file. The triplet and subgraph schemas are core/contract's.

const count = z.int().nonnegative();

// The triplet and subgraph shapes are the contract's own (zod-only, browser-safe as well).
export const askTripletSchema = tripletSchema;
export const askSubgraphSchema = subgraphSchema;

export { askCitationSchema, citationKeySchema };

export const askSentenceSchema = z.object({
  text: z.string(),
  citationKeys: z.array(citationKeySchema),
  supported: z.boolean(),
  evidence: z.array(z.object({ key: citationKeySchema, start: count, end: count })).optional(),
  role: z.enum(["lead", "point", "support"]).optional(),
  rule: z.enum(ANSWER_RULES).optional(),
  more: z.boolean().optional(),
});

export const askTimingsSchema = z.object({
  retrieveMs: z.number().nonnegative(),
  promptTokens: count,
  firstTokenMs: z.number().nonnegative().nullable(),
  totalMs: z.number().nonnegative(),
});

export const askResultSchema = z.object({
  answer: z.string(),
  mode: z.enum(["llm", "extractive"]),
  citations: z.array(askCitationSchema),
  sentences: z.array(askSentenceSchema),
  triplets: z.array(askTripletSchema),
  subgraph: askSubgraphSchema,
  analysis: z.string().optional(),
  inLibrary: z
    .object({
      rule: z.enum(IN_LIBRARY_RULES),
      probability: z.number().nullable(),
      features: z.object({ coverage: z.number(), answeringSentences: z.number() } satisfies Record<InLibraryFeature, z.ZodNumber>).nullable(),
    })
    .optional(),
  refusalReason: z.string().optional(),
  verdict: z.enum(["yes", "no", "conditional"]).optional(),
  timings: askTimingsSchema,
  logId: z.string().optional(),
  conversationId: z.string().optional(),
  followUp: z.object({ question: z.string(), reason: z.string() }).optional(),
  model: z.object({ id: z.string(), name: z.string() }).optional(),
  notice: z
    .object({
      reason: z.enum(["time-limit", "token-limit", "no-citations", "context-too-small", "model-unavailable", "closest-provisions"]),
      quoted: z.boolean(),
      message: z.string(),
    })
    .optional(),
  route: answerRouteSchema.optional(),
  rows: z.array(graphRowSchema).optional(),
  rewrites: z
    .object({
      queries: z.array(z.string()),
      dropped: z.number().int().nonnegative(),
      ms: z.number().nonnegative(),
      stoppedBy: z.enum(["time-limit", "token-limit"]).nullable(),
      error: z.string().optional(),
    })
    .optional(),
  expansions: z
    .array(
      z.object({
        from: z.string(),
        to: z.array(z.string()),
        added: z.array(z.string()),
        source: z.enum(["lexicon", "acronym"]),
        instruments: z.array(z.string()),
      }),
    )
    .optional(),
});

// Compile-time only: each schema's output must be exactly the shared type, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [
  Same<z.infer<typeof askTripletSchema>, TripletRecord>,
  Same<z.infer<typeof askSubgraphSchema>, Subgraph>,
  Same<z.infer<typeof askCitationSchema>, AskCitation>,
  Same<z.infer<typeof askSentenceSchema>, AskSentence>,
  Same<z.infer<typeof askTimingsSchema>, AskTimings>,
  Same<z.infer<typeof askResultSchema>, AskResult>,
] = [true, true, true, true, true, true];
void sameShapes;
