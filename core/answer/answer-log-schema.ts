import { z } from "zod";

// One line of a database's answer log: what an auditor asked, what evidence the engine retrieved,
// what the answer cited, and which model (by id and file hash) wrote it. The audit export reads
// these. Browser-safe (zod only) so the contract can carry records to the UI.

export const ANSWER_LOG_VERSION = 1;

const ms = z.number().nonnegative();

export const answerLogRecordSchema = z.object({
  version: z.literal(ANSWER_LOG_VERSION),
  /** Random, unique per answer: lets an export refer to one answer. */
  id: z.string().min(1).max(64),
  /** ISO 8601 time the answer was returned. */
  askedAt: z.iso.datetime(),
  question: z.string(),
  mode: z.enum(["llm", "extractive"]),
  /** The retrieved sections the answer was built from, best first. */
  evidenceSectionIds: z.array(z.string()),
  /** Sections the answer cites, in key order. */
  citedSectionIds: z.array(z.string()),
  citations: z.array(
    z.object({
      key: z.string(),
      sectionId: z.string(),
      label: z.string(),
      pageStart: z.int().nonnegative(),
      pageEnd: z.int().nonnegative(),
    }),
  ),
  /** The model loaded when the question was asked (null: none, the answer is quoted). */
  model: z
    .object({
      id: z.string(),
      /** sha256 of the GGUF file, when known (recorded at import); null otherwise. */
      sha256: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
    })
    .nullable(),
  timings: z.object({
    retrieveMs: ms,
    promptTokens: z.int().nonnegative(),
    firstTokenMs: ms.nullable(),
    totalMs: ms,
  }),
  answer: z.string(),
  /** The model's analysis line, or why the answer was quoted or refused; null when there is none. */
  analysis: z.string().nullable(),
  /** Sentences that failed citation verification (shown as [unverified]). */
  unsupportedSentences: z.int().nonnegative(),
  /** True when the answer is the not-answered reply. */
  refused: z.boolean(),
});

export type AnswerLogRecord = z.infer<typeof answerLogRecordSchema>;

/** Most records one read returns (the contract's limit). */
export const MAX_ANSWER_LOG_READ = 1000;
