import { analyzeQuery } from "../../retrieve/query-terms.ts";
import {
  AMBIGUOUS_FUNCTION_WORDS,
  isFunctionWord as isFunctionWordOfAnyLanguage,
  memoized,
  PARTIES,
  type PartyType,
  stemEnglishFolded,
  stemItalian,
  tokenize,
} from "../../text/index.ts";
import { vocabularyExpansions } from "../../retrieve/legal-thesaurus.ts";

// Word-level evidence for answering: which content words a question asks about (weighted by how
// rare they are among the candidate sentences, so "data" in a GDPR pool counts little and
// "72" or "breach" a lot), and how much of an answer sentence its cited text contains.

/** Expansion words (regulatory wording of lay terms) count for this share of a question word. */
const EXPANSION_WEIGHT = 0.5;
/** A lay word whose regulatory counterpart a sentence has counts this much of the word itself. */
const EQUIVALENT_WEIGHT = 0.8;

export type TextLanguage = "en" | "it";

/** The answers' English stemmer: the light one with its folds, remembered (a pool repeats its words). */
const stemFolded = memoized(stemEnglishFolded);
const stemIn = (language: TextLanguage): ((word: string) => string) => (language === "it" ? stemItalian : stemFolded);

/** Answers also leave out the Italian function words that are English word forms ("non", "come"). */
export function isFunctionWord(word: string): boolean {
  return isFunctionWordOfAnyLanguage(word) || AMBIGUOUS_FUNCTION_WORDS.has(word);
}

/** A footnote number printed against its word: "process43". */
const FOOTNOTE_MARK = /^(\p{Ll}{3,})\d{1,3}$/u;

/** Stems of the content words of a text, in order (repeats kept). */
export function contentStems(text: string, language: TextLanguage = "en"): string[] {
  const stem = stemIn(language);
  const out: string[] = [];
  for (const token of tokenize(text)) {
    // A footnote number printed against its word ("The risk assessment process43 is composed of
    // four steps", NIST SP 800-30) is not part of it.
    const w = token.replace(FOOTNOTE_MARK, "$1");
    if (isFunctionWord(w) || (w.length < 2 && !/\d/.test(w))) continue;
    out.push(stem(w));
  }
  return out;
}

/** Numbers as printed ("72", "2016", "1.5"): a claim's numbers must be in its source. */
export function numbersIn(text: string): string[] {
  return [...text.matchAll(/\d+(?:[.,]\d+)*/g)].map((m) => m[0].replace(/[.,]$/, ""));
}

/** Smoothed inverse document frequency over a pool of stem sets. */
export function idfTable(pool: ReadonlyArray<ReadonlySet<string>>): (stem: string) => number {
  const df = new Map<string, number>();
  for (const set of pool) for (const s of set) df.set(s, (df.get(s) ?? 0) + 1);
  const n = pool.length;
  return (stem) => Math.log(1 + (n + 1) / ((df.get(stem) ?? 0) + 0.5));
}

export interface QueryTerms {
  /** Stem → weight: question words 1, thesaurus expansions EXPANSION_WEIGHT (before IDF). */
  weights: Map<string, number>;
  /** Stems the question itself has (what coverage is measured against). */
  required: Set<string>;
  /**
   * The question's lay words and the regulatory words they stand for (legal-thesaurus.ts): a
   * sentence saying "classify" answers the "grade" of the question.
   */
  equivalents: Array<{ lay: string[]; legal: string[] }>;
  /**
   * A party the question names and the other names of its kind, each as all of its stems
   * (question words on the left): see KIN_TYPES.
   */
  kin: Array<{ lay: string[]; names: string[][] }>;
}

/**
 * Rule "the people a rule protects go by several names": the question's "individuals" are the
 * GDPR's data subjects and HIPAA's individuals, its "customers" a rule's clients or consumers. Only
 * these kinds: authorities or regulated parties of one kind are not one another (a Member State is
 * no supervisory authority, a controller no covered entity). Names a question may use, and
 * recipients, are read; narrower ones ("child", "patient") are not the same people.
 */
const KIN_TYPES: ReadonlySet<PartyType> = new Set(["data subject", "client"]);
const KIN = PARTIES.filter((p) => p.type !== undefined && KIN_TYPES.has(p.type) && (p.question === true || p.recipient !== undefined));

/**
 * The question's content stems. `ignore` removes words that only name the document ("GDPR",
 * "DORA", "article"): they route retrieval but never appear in the text that answers.
 */
export function queryTerms(question: string, ignore: ReadonlySet<string> = new Set(), language: TextLanguage = "en"): QueryTerms {
  const stemOf = stemIn(language);
  const analyzed = analyzeQuery(question);
  const weights = new Map<string, number>();
  const required = new Set<string>();
  analyzed.words.forEach((w) => {
    if (isFunctionWord(w)) return;
    const s = stemOf(w);
    if (ignore.has(s)) return;
    weights.set(s, 1);
    required.add(s);
  });
  const equivalents: QueryTerms["equivalents"] = [];
  for (const expansion of vocabularyExpansions(question)) {
    for (const w of expansion.added) {
      const s = stemOf(w);
      if (!weights.has(s) && !ignore.has(s) && !isFunctionWord(w)) weights.set(s, EXPANSION_WEIGHT);
    }
    const lay = tokenize(expansion.from)
      .filter((w) => !isFunctionWord(w))
      .map(stemOf)
      .filter((s) => required.has(s));
    const legal = expansion.to.flatMap((phrase) => tokenize(phrase).filter((w) => !isFunctionWord(w) && w.length > 1)).map(stemOf);
    if (lay.length > 0 && legal.length > 0) equivalents.push({ lay, legal });
  }
  const stemsOf = (form: string): string[] =>
    tokenize(form)
      .filter((w) => !isFunctionWord(w))
      .map(stemOf);
  const kin: QueryTerms["kin"] = [];
  for (const party of KIN) {
    const named = party.forms.map(stemsOf).find((st) => st.length > 0 && st.every((x) => required.has(x)));
    if (named === undefined) continue;
    const names = KIN.filter((other) => other !== party && other.type === party.type).flatMap((other) =>
      other.forms.map(stemsOf).filter((st) => st.length > 0),
    );
    if (names.length > 0) kin.push({ lay: named, names });
  }
  return { weights, required, equivalents, kin };
}

/**
 * How much of the question a sentence covers, 0–1: IDF-weighted question words present in it (or,
 * at `contextWeight`, in its section's label and heading) over the weight of all question words.
 */
export function coverage(
  terms: QueryTerms,
  idf: (stem: string) => number,
  sentence: ReadonlySet<string>,
  context: ReadonlySet<string> = new Set(),
  contextWeight = 0.5,
): number {
  let total = 0;
  for (const s of terms.required) total += idf(s);
  if (total === 0) return 0;
  let got = 0;
  for (const [s, w] of terms.weights) {
    if (sentence.has(s)) got += w * idf(s);
    else if (context.has(s)) got += w * contextWeight * idf(s);
  }
  // Rule "the regulation's word answers the auditor's": a lay word the sentence lacks counts as
  // present when the sentence has its regulatory counterpart (less the credit that word already
  // gave as an expansion, so nothing counts twice).
  for (const { lay, legal } of terms.equivalents) {
    const said = legal.filter((s) => sentence.has(s));
    if (said.length === 0) continue;
    const already = said.reduce((sum, s) => sum + (terms.required.has(s) ? 0 : (terms.weights.get(s) ?? 0) * idf(s)), 0);
    const missing = lay.filter((s) => !sentence.has(s)).reduce((sum, s) => sum + idf(s), 0);
    got += Math.max(0, missing * EQUIVALENT_WEIGHT - already);
  }
  for (const { lay, names } of terms.kin) {
    if (lay.every((s) => sentence.has(s)) || !names.some((name) => name.every((s) => sentence.has(s)))) continue;
    got += lay.filter((s) => !sentence.has(s)).reduce((sum, s) => sum + idf(s), 0) * EQUIVALENT_WEIGHT;
  }
  return Math.min(1, got / total);
}

/** How many of the question's own words the sentence has. */
export function matchedTerms(terms: QueryTerms, sentence: ReadonlySet<string>): number {
  let n = 0;
  for (const s of terms.required) if (sentence.has(s)) n++;
  return n;
}

/** Share of a claim's content stems found in its source (1 for a claim without content words). */
export function lexicalSupport(claim: readonly string[], source: ReadonlySet<string>): number {
  const distinct = new Set(claim);
  if (distinct.size === 0) return 1;
  let hit = 0;
  for (const s of distinct) if (source.has(s)) hit++;
  return hit / distinct.size;
}

/** Words of a name, as stems: "NIST SP 800-30r1" → {nist, sp, 800, 30r1}. */
export function nameStems(name: string): Set<string> {
  return new Set(tokenize(name).map(stemFolded));
}
