import { z } from "zod";
import { errorInfoSchema, sourceFormatSchema } from "../model/record-schemas.ts";
import { ocrLanguageSchema, ocrModeSchema, ocrOfferSchema } from "../model/ocr-types.ts";
import type { ParseLimits } from "./parse-limits.ts";
import type { ParsedDocument } from "../model/ingest-types.ts";

// The messages between the engine and its parsing child (parse-isolated.ts ↔ parse-child.ts),
// validated on arrival in both directions: the child parses hostile files and may be confused.

const limitsShape = {
  childHeapMb: z.number(),
  childRssMb: z.number(),
  pageSeconds: z.number(),
  fileSecondsBase: z.number(),
  fileSecondsPerPage: z.number(),
  fileSecondsMax: z.number(),
  inflatedBytesPerStream: z.number(),
  inflatedBytesPerFile: z.number(),
  operatorsPerPage: z.number(),
  operatorsPerFile: z.number(),
  textItemsPerPage: z.number(),
  nestingDepth: z.number(),
  ocrPageSeconds: z.number(),
  fileSecondsPerOcrPage: z.number(),
  // Checked by the engine after parsing (yield-limits.ts); the child is told them with the rest.
  documentTextChars: z.number(),
  documentSections: z.number(),
  documentTriplets: z.number(),
} satisfies Record<keyof ParseLimits, z.ZodNumber>;

export const parseRequestSchema = z.strictObject({
  type: z.literal("parse"),
  file: z.string(),
  password: z.string().optional(),
  sha256: z.string().optional(),
  /** The file's bytes when the engine has read them already (it reads a dropped file once); `file` then only names it. */
  bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array).optional(),
  limits: z.strictObject(limitsShape),
  ocr: z
    .strictObject({
      mode: ocrModeSchema,
      language: ocrLanguageSchema.optional(),
      cacheDir: z.string().optional(),
      workers: z.int().min(1).max(16).optional(),
      secondsPerPage: z.number().positive().optional(),
    })
    .optional(),
});
export type ParseRequest = z.infer<typeof parseRequestSchema>;

const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
const lineSchema = z.object({ page: z.number(), text: z.string(), box: boxSchema, fontSize: z.number(), bold: z.boolean(), column: z.number() });
const pageSchema = z.object({
  number: z.number(),
  width: z.number(),
  height: z.number(),
  lines: z.array(lineSchema),
  footnotes: z.array(lineSchema),
  label: z.string().max(64).optional(),
  ocr: z.object({ confidence: z.number(), language: ocrLanguageSchema }).optional(),
});

export const parsedDocumentSchema: z.ZodType<ParsedDocument> = z.object({
  file: z.string(),
  format: sourceFormatSchema,
  sha256: z.string(),
  bytes: z.number(),
  title: z.string(),
  language: z.string(),
  pageCount: z.number(),
  pages: z.array(pageSchema),
  warnings: z.array(z.string()),
});

export const childMessageSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("ready") }),
  z.strictObject({ type: z.literal("progress"), page: z.number(), total: z.number() }),
  /** The text pages are read; `pages` pages are now read with OCR (their own time budget). */
  z.strictObject({ type: z.literal("ocr-start"), pages: z.number() }),
  z.strictObject({ type: z.literal("ocr-page"), done: z.number(), total: z.number() }),
  /** Where /proc is missing (macOS, Windows), the child's own report feeds the memory watchdog. */
  z.strictObject({ type: z.literal("memory"), rss: z.number() }),
  z.strictObject({ type: z.literal("done"), document: parsedDocumentSchema }),
  /** `ocrOffer` with NEEDS_OCR (mode "ask"): what reading the scanned pages would take. */
  z.strictObject({ type: z.literal("failed"), error: errorInfoSchema, ocrOffer: ocrOfferSchema.optional() }),
]);
export type ChildMessage = z.infer<typeof childMessageSchema>;
