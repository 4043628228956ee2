import { shortDocumentName, shortSectionLabel } from "../../citations/index.ts";
import type { AskInput } from "../../model/answer-types.ts";

// A refused question says why in words: the probe saw only "The documents provided do
// not answer this." and had to read the log to learn whether the document was missing or the
// library had nothing close enough.

/** Why a question gets no answer when the library has nothing that states it. */
export function nothingCloseEnough(input: Pick<AskInput, "results">): string {
  const nearest = [...new Set(input.results.slice(0, 2).map((r) => `${shortDocumentName(r.document)} ${shortSectionLabel(r.section.label)}`.trim()))];
  if (nearest.length === 0) return "Nothing in the library is close enough to this question: no section matched it.";
  return `Nothing in the library is close enough to this question: the nearest sections (${nearest.join(", ")}) do not state it.`;
}

/**
 * Why the fitted decision (in-library.ts) put the question outside the library: the nearest
 * sections, and the question's words none of them has (`absent`).
 */
export function outsideTheLibrary(input: Pick<AskInput, "results">, absent: readonly string[]): string {
  const base = nothingCloseEnough(input);
  if (absent.length === 0) return base.replace(/\.$/, ": they share too few of its words.");
  const words = absent.map((w) => `“${w}”`);
  const list = words.length === 1 ? words[0] : `${words.slice(0, -1).join(", ")} or ${words.at(-1) ?? ""}`;
  return base.replace(/\.$/, `, and none of them mentions ${list}.`);
}

const LANGUAGE_NAMES: Readonly<Record<string, string>> = { en: "English", it: "Italian" };

/** Why a question in a language no document of the library is written in gets no answer. */
export function notInItsLanguage(language: string): string {
  const name = LANGUAGE_NAMES[language] ?? language;
  return `No document in the library is written in ${name}, the language of this question: ask it in the language of the documents.`;
}
