// The structured questions the graph must answer exactly (test/corpus/graph-questions.json) and
// how an answer is checked against them: the set of values of the question's key columns must equal
// its rows, and every row must cite a section and a page. Shared by bench:graph and the corpus test.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { AskResult } from "../../core/model/answer-types.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const GRAPH_QUESTIONS_FILE = path.resolve(here, "../../test/corpus/graph-questions.json");

const questionSchema = z.object({
  question: z.string().min(5),
  /** The columns a row is identified by ("Section", or "Section" and "Who" …). */
  key: z.array(z.string().min(1)).min(1),
  /** The expected rows: values of the key columns, in the key's order. */
  rows: z.array(z.array(z.string())).min(1),
});
const fileSchema = z.object({ description: z.string(), questions: z.array(questionSchema) });

export type GraphQuestion = z.infer<typeof questionSchema>;

export function readGraphQuestions(file = GRAPH_QUESTIONS_FILE): GraphQuestion[] {
  const { questions } = fileSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  for (const q of questions) {
    const bad = q.rows.find((r) => r.length !== q.key.length);
    if (bad !== undefined) throw new Error(`${q.question}: row ${JSON.stringify(bad)} does not have the ${q.key.length} key columns`);
  }
  return questions;
}

export interface GraphQuestionOutcome {
  question: string;
  route: string;
  /** The answer held exactly the expected rows, each cited. */
  exact: boolean;
  missing: string[][];
  extra: string[][];
  /** Rows without a section or a page. */
  uncited: number;
  rows: number;
  ms: number;
}

/** Checks one answer against its question's rows. */
export function checkGraphAnswer(q: GraphQuestion, result: AskResult, ms = 0): GraphQuestionOutcome {
  const rows = result.rows ?? [];
  const keyOf = (values: readonly string[]): string => JSON.stringify(values);
  const got = new Map(
    rows.map((row) => {
      const values = q.key.map((k) => row.cells.find((c) => c.name === k)?.value ?? "");
      return [keyOf(values), values] as const;
    }),
  );
  const want = new Map(q.rows.map((r) => [keyOf(r), r] as const));
  const missing = [...want].filter(([k]) => !got.has(k)).map(([, v]) => v);
  const extra = [...got].filter(([k]) => !want.has(k)).map(([, v]) => v);
  const uncited = rows.filter((row) => row.citation.sectionId === "" || row.citation.label === "" || !(row.citation.pageStart > 0)).length;
  return {
    question: q.question,
    route: result.route?.route ?? "none",
    exact: missing.length === 0 && extra.length === 0 && uncited === 0,
    missing,
    extra,
    uncited,
    rows: rows.length,
    ms,
  };
}
