import type { Modality } from "../model/graph-records.ts";

// Near-identical predicates become one relation: "are approved" and "is approved", "must notify"
// and "shall notify", "notifies" and "notify". Only auxiliaries, modals and the agreement of a
// leading verb are folded; the content verb is never replaced by a synonym (a wrong merge of
// "may request" into "shall request" would change what the law says).

const BE = new Set(["is", "are", "am", "be"]);
const WAS = new Set(["was", "were"]);
const HAVE = new Set(["has", "have"]);
const DO = new Set(["does", "do"]);
const AUXILIARIES = new Set([
  ...BE,
  ...WAS,
  ...HAVE,
  ...DO,
  "shall",
  "must",
  "may",
  "should",
  "can",
  "could",
  "will",
  "would",
  "might",
  "not",
  "been",
  "being",
]);

function verbLemma(word: string): string {
  if (word.length <= 3 || AUXILIARIES.has(word) || /(?:ss|us|is)$/.test(word)) return word;
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The cluster key of a predicate, also used as its displayed form. */
export function predicateKey(predicate: string): string {
  let s = predicate
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/[^\p{L}\p{N}' -]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^to /, "");
  // Obligation wordings that mean "shall".
  s = s
    .replace(/\b(?:must|(?:is|are) required to|(?:has|have) to|(?:is|are) obliged to)\b/g, "shall")
    .replace(/\bshall not\b|\bmust not\b/g, "shall not")
    .replace(/\bcannot\b/g, "can not");
  const words = s.split(" ").filter((w) => w !== "");
  if (words.length === 0) return "";
  const out = words.map((w) => (BE.has(w) ? "is" : WAS.has(w) ? "was" : HAVE.has(w) ? "has" : DO.has(w) ? "does" : w));
  // A leading content verb agrees with its subject ("notifies" / "notify"): fold it to the lemma.
  const first = out[0] ?? "";
  if (!AUXILIARIES.has(first)) out[0] = verbLemma(first);
  return out.join(" ");
}

/** What the predicate requires, for the triplet's modality column (same values as rule triplets). */
export function predicateModality(key: string): Modality {
  if (/\bshould not\b/.test(key)) return "should not";
  if (/\b(?:shall|may|can) not\b/.test(key) || /\bis prohibited\b/.test(key)) return "must not";
  if (/\bshall\b/.test(key)) return "must";
  if (/\bshould\b/.test(key)) return "should";
  if (/\bmay\b/.test(key)) return "may";
  return "fact";
}
