import type { AskCitation } from "../answer/answer-types.ts";

// What a routed question carries back beside (or instead of) the text answer: the route taken and
// why, and the rows a graph query found, each with the section and page it rests on. Plain data:
// the engine returns it, the CLI prints it (`ask --json`: `route`, `rows`), the UI draws the table.

export type AnswerRouteKind = "graph" | "text" | "both";

export interface AnswerRoute {
  /** Where the answer came from: the graph, text retrieval, or both merged. */
  route: AnswerRouteKind;
  /** Why, in words, shown under the answer. */
  reason: string;
  /** The graph question asked ("sections citing", "deadlines", …), when the graph was asked. */
  intent?: string;
  /** "template" when the engine's own query ran, "model" when a local model wrote it. */
  source?: "template" | "model";
  /** The read-only Cypher statement that ran, as the gate printed it. */
  query?: string;
  /** Set when the graph was asked and the answer fell back to text retrieval: why. */
  fallback?: string;
  /** The table's column names, in order. */
  columns?: string[];
}

export interface GraphRowCell {
  name: string;
  value: string;
}

export interface GraphRow {
  /** The row's values, in the table's column order. */
  cells: GraphRowCell[];
  /** The section (and page) the row rests on; its key is one of AskResult.citations. */
  citation: AskCitation;
}
