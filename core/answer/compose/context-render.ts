import type { TripletRecord } from "../../model/graph-records.ts";
import { quoteForPrompt } from "./neutralize.ts";

// How one source looks inside the prompt. The key is ours, in the exact form the answer must copy;
// everything taken from the document (heading, facts, sentences) goes through quoteForPrompt.
//
//   <source key="[S1]">
//   Citation: DORA Art. 19(4), p. 42 — Reporting of major ICT-related incidents
//   Fact: financial entities | shall report | major ICT-related incidents
//   > Financial entities shall report …
//   </source>

export function renderSourceOpen(key: string, label: string, heading: string): string {
  const h = quoteForPrompt(heading);
  return `<source key="[${key}]">\nCitation: ${quoteForPrompt(label)}${h === "" ? "" : ` — ${h}`}`;
}

export function renderFact(t: TripletRecord): string {
  const deadline = t.deadline === null || t.deadline === "" ? "" : ` (deadline: ${quoteForPrompt(t.deadline)})`;
  return `Fact: ${quoteForPrompt(t.subject)} | ${quoteForPrompt(t.predicate)} | ${quoteForPrompt(t.object)}${deadline}`;
}

export function renderQuote(text: string): string {
  return `> ${quoteForPrompt(text)}`;
}

/** Between two quoted sentences that are not adjacent in the section. */
export const GAP_LINE = "> …";

export const SOURCE_CLOSE = "</source>";
