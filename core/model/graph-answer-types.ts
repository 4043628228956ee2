import type { AskCitation } from "./ask-citation.ts";

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

/** One section that states a fact about an entity (graph.entityFacts): what the UI steps through. */
export interface EntityFactSection {
  sectionId: string;
  documentId: string;
  /** How an auditor cites it: "DORA Art. 19, p. 42". */
  label: string;
  /** The PDF page the first such fact is printed on. */
  page: number;
  /** The entity's part in that fact: "subject", "object" or "recipient". */
  role: "subject" | "object" | "recipient";
  /** The fact as a short line: "financial entity — shall report — major ICT-related incident". */
  fact: string;
  /** The fact's sentence in the section text, to highlight. */
  span: { start: number; end: number };
  /** More facts about it in the same section. */
  facts: number;
}

export interface EntityFacts {
  /** The entity's name as the graph shows it. */
  name: string;
  /** Every section stating a fact about it (under the same name in any document), its own document first, in reading order. */
  sections: EntityFactSection[];
  /** More sections existed than are listed. */
  truncated: boolean;
}
