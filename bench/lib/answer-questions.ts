// The labelled auditor questions over the ten corpus PDFs (test/corpus/answer-questions.json):
// for each, the provision that answers it and the operative words an answer must carry. Read by
// `npm run bench:answer` (figures) and by test/corpus/answer-labelled.test.ts (the data is right).
// Matching helpers live here so the bench and the test judge text the same way.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ANSWER_QUESTIONS_FILE = path.resolve(here, "../../test/corpus/answer-questions.json");

/** The answer types of the question analysis. */
export const ANSWER_TYPES = [
  "deadline",
  "frequency",
  "amount",
  "party",
  "definition",
  "yes-no",
  "permission",
  "list",
  "procedure",
  "date-of-application",
  "scope",
] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];

export const answerQuestionSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
    question: z.string().min(10),
    language: z.enum(["en", "it"]),
    answerType: z.enum(ANSWER_TYPES),
    /** File name in ../shared/corpus/regulatory. */
    document: z.string().regex(/\.pdf$/),
    provision: z
      .object({
        /** The section label as the engine prints it, without " (part N)": "Article 19", "§ 164.310", "3.1.1", "Par. 2.2". */
        label: z.string().min(1),
        /** Where in the section the answer sits: "4" (EU paragraph), "(c)" (CFR paragraph), "(60)" (definition point). */
        paragraph: z
          .string()
          .regex(/^(?:\d+|\([a-z]{1,4}\)|\(\d+\))$/)
          .optional(),
      })
      .strict(),
    /** Exact substrings of the document (after normalizeForMatch) an answer must contain. */
    operativeWords: z.array(z.string().min(1)).min(1),
    notes: z.string().optional(),
  })
  .strict();
export type AnswerQuestion = z.infer<typeof answerQuestionSchema>;

export const answerQuestionsSchema = z.array(answerQuestionSchema).superRefine((questions, ctx) => {
  const seen = new Set<string>();
  for (const [i, q] of questions.entries()) {
    if (seen.has(q.id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: `duplicate id ${q.id}` });
    seen.add(q.id);
  }
});

export async function loadAnswerQuestions(file: string = ANSWER_QUESTIONS_FILE): Promise<AnswerQuestion[]> {
  return answerQuestionsSchema.parse(JSON.parse(await readFile(file, "utf8")));
}

/**
 * Text as compared: PDF text and answers differ in quotes (’ vs '), dashes (737–8), spacing after
 * a hyphen at a line break ("737– 9"), soft hyphens, non-breaking spaces and case; none of these
 * changes what a sentence says.
 */
export function normalizeForMatch(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\u00ad/g, "")
    .replace(/[‘’‚‛′`]/g, "'")
    .replace(/[“”„‟″]/g, '"')
    .replace(/[‐‑‒–—―−]/g, "-")
    .replace(/\s+/g, " ")
    .replace(/(\w)- (?=\w)/g, "$1-")
    .toLowerCase()
    .trim();
}

export interface WordsFound {
  found: string[];
  missing: string[];
}

export function operativeWordsIn(text: string, words: readonly string[]): WordsFound {
  const haystack = normalizeForMatch(text);
  const found: string[] = [];
  const missing: string[] = [];
  for (const w of words) (haystack.includes(normalizeForMatch(w)) ? found : missing).push(w);
  return { found, missing };
}

/** "Article 3 (part 2)" → "Article 3": long sections are stored in parts, each with the section's label. */
export function baseLabel(label: string): string {
  return label.replace(/\s+\(part \d+\)$/, "").trim();
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** How the paragraph's number is printed where it starts: "4. " for EU paragraphs, "(c)" or "(60)" as is. */
function markerPattern(paragraph: string): string {
  return /^\d+$/.test(paragraph) ? `${paragraph}\\.\\s` : escapeRegExp(paragraph);
}

/** The paragraph printed after this one: "4" → "5", "(c)" → "(d)", "(60)" → "(61)"; null when unknown. */
function nextParagraph(paragraph: string): string | null {
  if (/^\d+$/.test(paragraph)) return String(Number(paragraph) + 1);
  const number = /^\((\d+)\)$/.exec(paragraph);
  if (number?.[1] !== undefined) return `(${Number(number[1]) + 1})`;
  const letter = /^\(([a-y])\)$/.exec(paragraph);
  if (letter?.[1] !== undefined) return `(${String.fromCharCode(letter[1].charCodeAt(0) + 1)})`;
  return null;
}

/**
 * Offsets where `paragraph` starts a paragraph of `text`. A marker counts at the start of a line
 * whose previous line ends a sentence or a list item (a line starting "(j) of this section" is
 * the tail of a cross-reference broken across lines, not paragraph (j)), or inside a line right
 * after a sentence when followed by a heading-like capital or a sub-marker (the CFR text prints
 * "… is the one claimed. (e)(1) Standard: …" on one line).
 */
function markerStarts(text: string, paragraph: string): number[] {
  const marker = markerPattern(paragraph);
  const starts: number[] = [];
  const lineStart = new RegExp(`(^|\\n)(?=${marker})`, "g");
  for (let m = lineStart.exec(text); m !== null; m = lineStart.exec(text)) {
    const at = m.index + (m[1] ?? "").length;
    const before = text.slice(0, at).replace(/\s+$/, "");
    if (before === "" || /(?:[.;:,)\]"'”’]|\b(?:and|or))$/.test(before)) starts.push(at);
    if (lineStart.lastIndex === m.index) lineStart.lastIndex++;
  }
  const inline = new RegExp(`(?<=[.;:]\\s)${marker}(?=\\(|\\s+[A-Z])`, "g");
  for (let m = inline.exec(text); m !== null; m = inline.exec(text)) starts.push(m.index);
  return [...new Set(starts)].sort((a, b) => a - b);
}

/** The span of `paragraph` in a section's text (up to the next paragraph's marker), or null if it is not printed there. */
export function paragraphSpan(text: string, paragraph: string): { start: number; end: number } | null {
  const start = markerStarts(text, paragraph)[0];
  if (start === undefined) return null;
  const next = nextParagraph(paragraph);
  const end = next === null ? undefined : markerStarts(text, next).find((i) => i > start);
  return { start, end: end ?? text.length };
}

/**
 * The top-level paragraphs a citation label pins: "DORA Art. 19(4), (5), p. 42" → ["4", "5"];
 * "§ 164.308(b)(1)(ii)(A)" → ["b"] (its point "(A)" is not paragraph (a)); a parenthesis after a
 * space ("Regulation (EU)") is part of a name, not a paragraph.
 */
export function labelParagraphs(citationLabel: string): string[] {
  const head = citationLabel.replace(/,\s*pp?\.\s*[\d–-]+\s*$/, "");
  const found: string[] = [];
  for (const piece of head.split(/,\s*/)) {
    const m = /^\(([0-9a-z]{1,4})\)/i.exec(piece.trim()) ?? /(?<=[\w.])\(([0-9a-z]{1,4})\)/i.exec(piece);
    if (m?.[1] !== undefined) found.push(m[1].toLowerCase());
  }
  return found;
}

/** "4" → "4", "(c)" → "c": the form labelParagraphs returns. */
export function bareParagraph(paragraph: string): string {
  return paragraph.replace(/^\((.*)\)$/, "$1").toLowerCase();
}
