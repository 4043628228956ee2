import { z } from "zod";
import { sectionSchema, subgraphSchema, tripletSchema } from "./record-schemas.ts";

// The records of a comparison, one place for the engine, the store's JSON columns, the IPC
// contract, the CLI's --json and the renderer. Zod only (browser-safe); the types are inferred.

const count = z.int().nonnegative();

export const spanSchema = z.object({ start: count, end: count });
export type Span = z.infer<typeof spanSchema>;

/** Rule-based differences between the obligations of an aligned pair (obligation-diff.ts). */
export const FLAG_KINDS = ["deadline", "modality", "unmatched-obligation", "no-obligations"] as const;
export const flagSchema = z.object({
  kind: z.enum(FLAG_KINDS),
  /** Which side the difference is about ("a": A has something B lacks or differs on; "both"). */
  side: z.enum(["a", "b", "both"]),
  message: z.string(),
  /** What A and B say, as printed ("within 72 hours", "shall"). */
  a: z.string().optional(),
  b: z.string().optional(),
  /** The stricter side, when the rule can tell (a shorter deadline, "shall" over "may"). */
  stricter: z.enum(["a", "b"]).optional(),
});
export type PairFlag = z.infer<typeof flagSchema>;

export const citationLinkSchema = z.object({
  direction: z.enum(["a-cites-b", "b-cites-a"]),
  raw: z.string(),
  inHeading: z.boolean(),
});

/** Why a B section matched: each signal's value and its share of the score (crosswalk-model.ts). */
export const matchReasonsSchema = z.object({
  /** Cosine of the two sections' vectors (the embedder in use). */
  similarity: z.number(),
  lexical: z.number(),
  heading: z.number(),
  sharedTerms: z.array(z.string()),
  sharedParties: z.array(z.string()),
  sharedWords: z.array(z.string()),
  citation: citationLinkSchema.nullable(),
  /** Each feature's weight × value: what pushed the score up (or down). */
  contributions: z.record(z.string(), z.number()),
  /** The searches that proposed the candidate: "vector", "lexical", "heading", "citation". */
  foundBy: z.array(z.string()),
});
export type MatchReasons = z.infer<typeof matchReasonsSchema>;

/** The sentences of both sides that match best (highlighted side by side). */
export const evidenceSchema = z.object({
  sentences: z.array(z.object({ a: spanSchema, b: spanSchema, score: z.number() })),
});
export type PairEvidence = z.infer<typeof evidenceSchema>;

export const VERDICT_LABELS = ["equivalent", "a_stricter", "b_stricter", "contradicts", "unrelated"] as const;
export const verdictLabelSchema = z.enum(VERDICT_LABELS);

export const quoteSchema = z.object({ text: z.string(), start: count, end: count });

/** A local model's judgement of an aligned pair, with one sentence quoted from each side. */
export const pairVerdictSchema = z.object({
  label: verdictLabelSchema,
  quoteA: quoteSchema,
  quoteB: quoteSchema,
  modelId: z.string(),
  promptVersion: z.string(),
});
export type PairVerdict = z.infer<typeof pairVerdictSchema>;

export const crosswalkMatchSchema = z.object({
  bSectionId: z.string(),
  bDocumentId: z.string(),
  bLabel: z.string(),
  bHeading: z.string(),
  bPageStart: count,
  rank: z.int().positive(),
  score: z.number().min(0).max(1),
  reasons: matchReasonsSchema,
  flags: z.array(flagSchema),
  evidence: evidenceSchema,
  verdict: pairVerdictSchema.optional(),
});
export type CrosswalkMatch = z.infer<typeof crosswalkMatchSchema>;

export const crosswalkRowSchema = z.object({
  aSectionId: z.string(),
  aLabel: z.string(),
  aHeading: z.string(),
  aPageStart: count,
  matches: z.array(crosswalkMatchSchema),
  /** No match scores above the threshold (crosswalk-model.ts MATCH_THRESHOLD). */
  unmatched: z.boolean(),
});
export type CrosswalkRow = z.infer<typeof crosswalkRowSchema>;

const documentRefSchema = z.object({ id: z.string(), fileName: z.string(), title: z.string() });

export const comparisonSummarySchema = z.object({
  id: z.string(),
  documentA: documentRefSchema,
  /** null: A was compared with the whole library (libraryDocuments). */
  documentB: documentRefSchema.nullable(),
  libraryDocuments: z.array(documentRefSchema),
  k: z.int().positive(),
  embeddingModel: z.string(),
  scorerVersion: z.string(),
  llmModel: z.string(),
  status: z.enum(["computing", "complete", "partial"]),
  /** Why the stored result may no longer be what a new run gives (in words), or null. */
  stale: z.string().nullable(),
  sections: count,
  pairsExamined: count,
  matchThreshold: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ComparisonSummary = z.infer<typeof comparisonSummarySchema>;

export const crosswalkSchema = z.object({
  comparison: comparisonSummarySchema,
  rows: z.array(crosswalkRowSchema),
});
export type Crosswalk = z.infer<typeof crosswalkSchema>;

/** What a run did: how much it examined, rewrote, and asked the model. */
export const compareResultSchema = z.object({
  comparison: comparisonSummarySchema,
  pairsExamined: count,
  /** A sections whose matches changed and were written; the rest were already as computed. */
  rowsWritten: count,
  rowsKept: count,
  /** With a model: the k·n pairs judged, from the cache, and by the model (failed ones are retried next time). */
  verdicts: z.object({ pairs: count, cached: count, modelCalls: count, failed: count }),
  seconds: z.number(),
});
export type CompareResult = z.infer<typeof compareResultSchema>;

const obligationSchema = z.object({
  tripletId: z.string(),
  party: z.string(),
  action: z.string(),
  object: z.string(),
  /** As a lawyer reads it: "shall", "shall not", "may", "should", "should not". */
  modality: z.string(),
  deadline: z.string().nullable(),
  span: spanSchema,
});
export type ObligationView = z.infer<typeof obligationSchema>;

/** One line of the side-by-side obligations: both sides, or one side without a counterpart. */
export const obligationRowSchema = z.object({
  a: obligationSchema.nullable(),
  b: obligationSchema.nullable(),
  similarity: z.number(),
  flags: z.array(flagSchema),
});
export type ObligationRow = z.infer<typeof obligationRowSchema>;

/** One row's pair opened side by side. */
export const pairDetailSchema = z.object({
  comparisonId: z.string(),
  a: sectionSchema,
  b: sectionSchema,
  aDocument: documentRefSchema,
  bDocument: documentRefSchema,
  match: crosswalkMatchSchema,
  obligations: z.array(obligationRowSchema),
  /** Both sections, their shared terms and their obligations, for the graph pane. */
  subgraph: subgraphSchema,
  triplets: z.array(tripletSchema),
});
export type PairDetail = z.infer<typeof pairDetailSchema>;

export const exportFormatSchema = z.enum(["csv", "md"]);
export type CrosswalkExportFormat = z.infer<typeof exportFormatSchema>;
