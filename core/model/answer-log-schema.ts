import { z } from "zod";
import { subgraphSchema } from "./record-schemas.ts";

// One line of a database's answer log: what an auditor asked, what evidence the engine retrieved,
// what the answer cited, and which model (by id and file hash) wrote it. The audit export reads
// these. Browser-safe (zod only) so the contract can carry records to the UI.

export const ANSWER_LOG_VERSION = 1;

const ms = z.number().nonnegative();
const range = z.object({ start: z.int().nonnegative(), end: z.int().nonnegative() });

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
      // Recorded since conversations and the workpaper export (absent on older lines): what a
      // reopened answer and an export show even after the document was deleted.
      documentId: z.string().optional(),
      /** Base name of the document's file. */
      file: z.string().optional(),
      documentSha256: z.string().optional(),
      /** The cited pages as printed on them ("53" or "53–54"), when that differs from the PDF pages. */
      printedPages: z.string().optional(),
      /** Character ranges of the cited sentences in the section text (the viewer's highlight). */
      spans: z.array(range).optional(),
      /** The cited sentences, verbatim from the section. */
      quotes: z.array(z.string()).optional(),
    }),
  ),
  /** The answer as shown, sentence by sentence (absent on older lines). */
  sentences: z
    .array(
      z.object({
        text: z.string(),
        citationKeys: z.array(z.string()),
        supported: z.boolean(),
        evidence: z.array(range.extend({ key: z.string() })).optional(),
        // Display fields are kept loose (strings, not the answer's enums): a line written by one
        // version must stay readable by the next, or the audit trail would lose it.
        role: z.string().optional(),
        /** The named rule that placed the sentence (answer-rules.ts), as a string for the same reason. */
        rule: z.string().optional(),
        /** Shown under "show more" (true) or before it (false); absent on lines older than the mark. */
        more: z.boolean().optional(),
      }),
    )
    .optional(),
  /** What was retrieved with when it differs from the question (a follow-up keeps the previous scope). */
  askedAs: z.string().optional(),
  /**
   * The graph shown beside the answer (absent on older lines, and for refusals): a reopened answer
   * draws this one, less what the library no longer holds, instead of a graph rebuilt without the
   * retrieval evidence that linked its nodes.
   */
  subgraph: subgraphSchema.optional(),
  /** The conversation the answer belongs to, if any. */
  conversationId: z.string().optional(),
  /** The ClauseGraph version that answered (package.json). */
  appVersion: z.string().optional(),
  /** As shown with the answer: the yes/no verdict, why it was refused, the model's name, a fallback notice. */
  verdict: z.string().optional(),
  refusalReason: z.string().optional(),
  answeredBy: z.object({ id: z.string(), name: z.string() }).optional(),
  notice: z.object({ reason: z.string(), quoted: z.boolean(), message: z.string() }).optional(),
  /** The model loaded when the question was asked (null: none, the answer is quoted). */
  model: z
    .object({
      id: z.string(),
      /** sha256 of the GGUF file, when known (recorded at import); null otherwise. */
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .nullable(),
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

/** The model that wrote a logged answer: its id and the sha256 of its file (null for a scripted or unknown one). */
export interface AnswerLogModel {
  id: string;
  sha256: string | null;
}
