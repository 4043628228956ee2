import { z } from "zod";
import { askCitationSchema } from "./ask-citation.ts";
import type { AnswerRoute, EntityFacts, GraphRow } from "./graph-answer-types.ts";

// Zod mirrors of graph-answer-types.ts for the IPC contract (browser-safe: zod only at run time).
// The row's citation is an answer's citation (ask-citation.ts).

const count = z.int().nonnegative();

export const answerRouteSchema = z.object({
  route: z.enum(["graph", "text", "both"]),
  reason: z.string(),
  intent: z.string().optional(),
  source: z.enum(["template", "model"]).optional(),
  query: z.string().optional(),
  fallback: z.string().optional(),
  columns: z.array(z.string()).optional(),
});

export const graphRowSchema = z.object({
  cells: z.array(z.object({ name: z.string(), value: z.string() })),
  citation: askCitationSchema,
});

export const entityFactsSchema = z.object({
  name: z.string(),
  sections: z.array(
    z.object({
      sectionId: z.string(),
      documentId: z.string(),
      label: z.string(),
      page: count,
      role: z.enum(["subject", "object", "recipient"]),
      fact: z.string(),
      span: z.object({ start: count, end: count }),
      facts: count,
    }),
  ),
  truncated: z.boolean(),
});

// Compile-time only: each schema's output must be exactly the shared type, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [
  Same<z.infer<typeof answerRouteSchema>, AnswerRoute>,
  Same<z.infer<typeof graphRowSchema>, GraphRow>,
  Same<z.infer<typeof entityFactsSchema>, EntityFacts>,
] = [true, true, true];
void sameShapes;
