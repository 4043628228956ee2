import { MIN_ENTITY_NAME_LENGTH } from "../model/graph-records.ts";

// Triplets that say nothing an auditor could use: an empty part, a subject that is its own object,
// or a pronoun the model was told to resolve and did not ("it shall notify them").

const PRONOUN_ONLY = new Set([
  "it",
  "its",
  "they",
  "them",
  "their",
  "he",
  "she",
  "him",
  "her",
  "his",
  "we",
  "us",
  "our",
  "you",
  "your",
  "i",
  "me",
  "this",
  "that",
  "these",
  "those",
  "which",
  "who",
  "whom",
  "whose",
  "such",
  "there",
  "here",
  "one",
  "ones",
  "the",
  "a",
  "an",
  "same",
  "other",
  "others",
  "each",
  "all",
  "any",
  "both",
  "either",
  "neither",
  "thereof",
  "therein",
]);

export type TrivialReason = "empty" | "pronoun" | "self";

/** True when every word of the phrase is a pronoun or determiner. */
export function isPronounOnly(phrase: string): boolean {
  const words = phrase
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
  return words.length === 0 || words.every((w) => PRONOUN_ONLY.has(w));
}

/** Why the triplet is trivial, from its already-normalized keys; null when it is worth keeping. */
export function trivialReason(t: { subjectKey: string; predicateKey: string; objectKey: string; subject: string; object: string }): TrivialReason | null {
  // A one-letter name is as empty as none: the store refuses it (store/validate-insert.ts).
  if (t.subjectKey.trim().length < MIN_ENTITY_NAME_LENGTH || t.predicateKey === "" || t.objectKey.trim().length < MIN_ENTITY_NAME_LENGTH) return "empty";
  if (isPronounOnly(t.subject) || isPronounOnly(t.object)) return "pronoun";
  if (t.subjectKey === t.objectKey) return "self";
  return null;
}
