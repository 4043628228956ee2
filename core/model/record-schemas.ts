import { z } from "zod";
import { ERROR_CODES } from "./errors.ts";
import { ocrOfferSchema, ocrSummarySchema } from "./ocr-types.ts";
import { SECTION_KINDS } from "./section-types.ts";

// Zod mirrors of the engine's plain-data types. They validate what crosses a process boundary in
// the direction the receiver cannot trust (responses reaching the renderer), and the type checks
// at the bottom keep them from drifting away from the shared TypeScript types.

export const errorInfoSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  file: z.string().optional(),
});

const count = z.int().nonnegative();

export const sourceFormatSchema = z.enum(["pdf", "text", "markdown"]);

export const documentRecordSchema = z.object({
  id: z.string(),
  sha256: z.string(),
  file: z.string(),
  fileName: z.string(),
  title: z.string(),
  format: sourceFormatSchema,
  language: z.string(),
  pages: count,
  bytes: count,
  sections: count,
  importedAt: z.string(),
  aliases: z.array(z.string()).optional(),
  userAliases: z.array(z.string()).optional(),
  hiddenAliases: z.array(z.string()).optional(),
  ocr: ocrSummarySchema.optional(),
});

export const importResultSchema = z.object({
  file: z.string(),
  documentId: z.string().nullable(),
  sha256: z.string().nullable(),
  title: z.string().nullable(),
  pages: count,
  sections: count,
  status: z.enum(["ok", "skipped", "error"]),
  warnings: z.array(z.string()),
  error: errorInfoSchema.optional(),
  ocrOffer: ocrOfferSchema.optional(),
  ocr: ocrSummarySchema.optional(),
});

export const searchResultSchema = z.object({
  sectionId: z.string(),
  documentId: z.string(),
  file: z.string(),
  label: z.string(),
  heading: z.string(),
  path: z.array(z.string()),
  pageStart: count,
  pageEnd: count,
  score: z.number(),
  text: z.string(),
  foundBy: z.array(z.enum(["bm25", "sectionVectors", "tripletVectors", "graphExpansion"])),
});

export const tripletSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  sectionId: z.string(),
  subjectId: z.string(),
  subject: z.string(),
  predicate: z.string(),
  objectId: z.string(),
  object: z.string(),
  recipientId: z.string().optional(),
  recipient: z.string().optional(),
  modality: z.enum(["must", "must not", "may", "should", "should not", "fact"]),
  deadline: z.string().nullable(),
  source: z.enum(["rule", "llm"]),
  confidence: z.number(),
  start: count,
  end: count,
  evidence: z.string(),
});

export const subgraphSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(["section", "entity", "term"]),
      label: z.string(),
      documentId: z.string().optional(),
      rank: z.number().optional(),
    }),
  ),
  edges: z.array(
    z.object({
      id: z.string(),
      source: z.string(),
      target: z.string(),
      kind: z.enum(["triplet", "cites", "defines", "mentions", "in-section"]),
      label: z.string(),
      tripletId: z.string().optional(),
    }),
  ),
});

export const searchResponseSchema = z.object({
  query: z.string(),
  results: z.array(searchResultSchema),
  triplets: z.array(tripletSchema),
  subgraph: subgraphSchema,
  timings: z.object({ retrieveMs: z.number(), totalMs: z.number() }),
});

const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const sectionSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  ordinal: count,
  kind: z.enum(SECTION_KINDS),
  label: z.string(),
  heading: z.string(),
  path: z.array(z.string()),
  parentId: z.string().nullable(),
  level: count,
  text: z.string(),
  pageStart: count,
  pageEnd: count,
  spans: z.array(z.object({ start: count, end: count, page: count, box: boxSchema, label: z.string().optional(), ocr: z.number().min(0).max(100).optional() })),
});

export const deleteResultSchema = z.object({
  deleted: z.boolean(),
  documentId: z.string().nullable(),
  file: z.string().nullable(),
});

export const statsSchema = z.object({
  documents: count,
  sections: count,
  crossReferences: count,
  resolvedCrossReferences: count,
  terms: count,
  triplets: count,
  entities: count,
  embeddedSections: count,
  embeddingModel: z.string(),
});

export const damagedDocumentSchema = z.object({
  documentId: z.string(),
  problem: z.enum(["lost", "incomplete"]),
  rows: z.record(z.string(), count),
  recordedSections: count.optional(),
  linkedSections: count.optional(),
  fileName: z.string().nullable(),
  originalFile: z.string().nullable(),
  sourceFile: z.string().nullable(),
  message: z.string(),
});

export const libraryHealthSchema = z.object({ documents: count, damaged: z.array(damagedDocumentSchema) });

export const repairResultSchema = z.object({
  rebuilt: z.boolean(),
  reimported: z.array(importResultSchema),
  missing: z.array(z.object({ documentId: z.string(), fileName: z.string().nullable() })),
  backup: z.string().nullable(),
  health: libraryHealthSchema,
});

export const jobProgressSchema = z.object({
  jobId: z.string(),
  status: z.enum(["queued", "running", "done", "failed", "cancelled"]),
  step: z.string(),
  current: z.number(),
  total: z.number(),
  subject: z.string().optional(),
  error: errorInfoSchema.optional(),
});
