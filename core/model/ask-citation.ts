import { z } from "zod";

// One source an answer cites, as the answer, the graph answer's rows and the UI's citation chips
// all show it: the section, the document, the label an auditor writes and the pages.

export interface AskCitation {
  /** "S1", "S2", …: the key the answer uses in brackets ("[S1]"). */
  key: string;
  sectionId: string;
  documentId: string;
  /** Base name of the document's file. */
  file: string;
  /** How an auditor writes the citation: "DORA Art. 19(4), p. 42". */
  label: string;
  /** PDF pages of the cited text (narrower than the section's when only part of it is cited). */
  pageStart: number;
  pageEnd: number;
  /** The same pages as printed on them ("53" or "53–54"), when that differs from the PDF pages. */
  printedPages?: string;
  /** Character ranges of the cited sentences in the section's text: what the viewer highlights. */
  spans?: Array<{ start: number; end: number }>;
}

const count = z.int().nonnegative();

export const citationKeySchema = z.string().regex(/^S[1-9]\d*$/);

/** AskCitation's zod mirror (answers and graph rows alike; the drift check is in answer-schemas.ts). */
export const askCitationSchema = z.object({
  key: citationKeySchema,
  sectionId: z.string(),
  documentId: z.string(),
  file: z.string(),
  label: z.string(),
  pageStart: count,
  pageEnd: count,
  printedPages: z.string().optional(),
  spans: z.array(z.object({ start: count, end: count })).optional(),
});
