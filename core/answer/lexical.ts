import { analyzeQuery, isStopword, memoStemmer, tokenize } from "../retrieve/query-terms.ts";
import { vocabularyExpansions } from "../retrieve/legal-thesaurus.ts";

// Word-level evidence for answering: which content words a question asks about (weighted by how
// rare they are among the candidate sentences, so "data" in a GDPR pool counts little and
// "72" or "breach" a lot), and how much of an answer sentence its cited text contains.

// Italian function words: questions about procurement rules are asked in Italian too.
const ITALIAN_STOPWORDS = new Set(
  (
    "il lo la i gli le un uno una di del dello della dei degli delle da dal dalla dai dalle in nel nella nei nelle " +
    "su sul sulla sui sulle per con tra fra e ed o od ma se che chi cui non più come dove quando quale quali qual " +
    "è sono essere sia siano al allo alla ai agli alle questo questa questi queste quello quella ne ci si"
  ).split(/\s+/),
);

/** Expansion words (regulatory wording of lay terms) count for this share of a question word. */
const EXPANSION_WEIGHT = 0.5;
/** A lay word whose regulatory counterpart a sentence has counts this much of the word itself. */
const EQUIVALENT_WEIGHT = 0.8;

const baseStem = memoStemmer();

/**
 * The shared stemmer, plus the folds it lacks: "notify"/"notification", "apply"/"application";
 * "apply", "comply" are not adverbs ("ap", "com" while "applies" gave "appli"); a final y after a
 * consonant as "carries" has it ("carrying out" gave "carry", "carry out" "carri": DORA Art. 27's
 * testers "for the carrying out of TLPT" missed the question's words); "contractual" as "contract";
 * "-ness" dropped first, as the stemmer keeps "lawfulness" whole (GDPR Art. 6, "Lawfulness of
 * processing", lost the lead to Art. 5 for "What are the lawful bases for processing?").
 */
function stemOf(word: string): string {
  return (/ply$/.test(word) ? word : baseStem(word.replace(/(?<=[a-z]{4})ness$/, "")))
    .replace(/icat$/, "i")
    .replace(/([^aeiou])y$/, "$1i")
    .replace(/(?<=[a-z]{5})tu$/, "t");
}

export type TextLanguage = "en" | "it";

/**
 * Italian suffixes, longest first, stripped once: nominalisations ("indicazione" → "indic", as
 * "indica"), participles and gerunds ("decorrenti", "decorre" → "decorr"; "durata", "dura" →
 * "dur"), infinitives, adverbs. The English stripper left "prestazione" and "prestazioni", or
 * "indica" and "indicazione", apart, and Italian questions missed the sentences that answer them
 * (labelled question it-d04 found nothing close enough).
 */
const ITALIAN_SUFFIXES = [
  "azioni",
  "azione",
  "izioni",
  "izione",
  "zioni",
  "zione",
  "amenti",
  "amento",
  "imenti",
  "imento",
  "mente",
  "ando",
  "endo",
  "enti",
  "ente",
  "anti",
  "ante",
  "ità",
  "ato",
  "ata",
  "ati",
  "ate",
  "ito",
  "ita",
  "iti",
  "ite",
  "uto",
  "uta",
  "uti",
  "ute",
  "are",
  "ere",
  "ire",
];

/** A light Italian stemmer (after Savoy's): one suffix, else the final vowel, keeping at least three letters. */
export function stemItalian(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 4 || /^\d/.test(w)) return w;
  for (const suffix of ITALIAN_SUFFIXES) if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  return /[aeiouàèéìòù]$/.test(w) ? w.slice(0, -1) : w;
}

const stemIn = (language: TextLanguage): ((word: string) => string) => (language === "it" ? stemItalian : stemOf);

export function isFunctionWord(word: string): boolean {
  return isStopword(word) || ITALIAN_STOPWORDS.has(word);
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
}

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
  return { weights, required, equivalents };
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
  return new Set(tokenize(name).map(stemOf));
}
