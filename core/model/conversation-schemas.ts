import { z } from "zod";
import { askResultSchema } from "./answer-schemas.ts";

// Conversations: the lines of a conversation's file in the library, and what the contract carries
// to the UI. Browser-safe (zod only) so core/contract and the renderer can import it.

/** Random (a UUID), chosen by the engine; never a path, so it can name a file safely. */
export const conversationIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

// ---- One line of `<dataDir>/conversations/<id>.jsonl` ----

const createdLineSchema = z.object({
  v: z.literal(1),
  kind: z.literal("created"),
  id: conversationIdSchema,
  at: z.iso.datetime(),
});

const turnLineSchema = z.object({
  v: z.literal(1),
  kind: z.literal("turn"),
  at: z.iso.datetime(),
  /** As the auditor typed it. */
  question: z.string(),
  /** What was retrieved with, when it differs (a follow-up); null otherwise. */
  askedAs: z.string().nullable(),
  /** Why it was taken as a follow-up; null when it was not one. */
  followUpReason: z.string().nullable(),
  /** The question whose scope the next follow-up keeps: this one, or the one this followed up. */
  scope: z.string(),
  /** The answer's record in the answer log (the answer itself lives there); null if it could not be logged. */
  logId: z.string().min(1).max(64).nullable(),
});

export const conversationLineSchema = z.discriminatedUnion("kind", [createdLineSchema, turnLineSchema]);
export type ConversationLine = z.infer<typeof conversationLineSchema>;
export type ConversationTurnLine = z.infer<typeof turnLineSchema>;

// ---- What the contract carries ----

export const conversationSummarySchema = z.object({
  id: conversationIdSchema,
  /** The first question ("New conversation" while there is none). */
  title: z.string(),
  createdAt: z.string(),
  /** When the last turn was added (createdAt without turns). */
  updatedAt: z.string(),
  turnCount: z.int().nonnegative(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const conversationTurnSchema = z.object({
  at: z.string(),
  question: z.string(),
  askedAs: z.string().nullable(),
  followUpReason: z.string().nullable(),
  logId: z.string().nullable(),
  /** The answer as it was given, rebuilt from the answer log; null when it is not there. */
  result: askResultSchema.nullable(),
  /** What changed since, in words: "This answer cites GDPR.pdf, which was deleted from the library on 2026-11-25." */
  notes: z.array(z.string()),
});
export type ConversationTurn = z.infer<typeof conversationTurnSchema>;

export const conversationSchema = conversationSummarySchema.extend({ turns: z.array(conversationTurnSchema) });
export type Conversation = z.infer<typeof conversationSchema>;

export const EXPORT_FORMATS = ["md", "html"] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** A workpaper, ready to save: the UI downloads it as a file, the CLI writes it. */
export const exportFileSchema = z.object({
  fileName: z.string(),
  mimeType: z.string(),
  text: z.string(),
});
export type ExportFile = z.infer<typeof exportFileSchema>;
