import { distinctEntries, findInstrumentMentions, withContained } from "../names/instrument-names.ts";
import { COMPLIANCE_LEXICON } from "./compliance-lexicon.ts";
import { isFunctionWord, stemEnglish as stem, tokenize } from "../text/index.ts";

// Auditors ask in everyday words ("data leak", "delete my data", "cloud provider", "the
// regulator"); regulations use defined legal vocabulary ("personal data breach", "erasure",
// "ICT third-party service provider", "supervisory authority"). A static word-vector model
// cannot bridge such pairs reliably, so the compliance lexicon (compliance-lexicon.ts: English and
// Italian, across data protection, financial resilience, health privacy, security controls and
// public procurement) adds the regulatory wording to the lexical query, and each expansion is
// reported with the answer (ask --json `expansions`).
//
// It is one-way: only an everyday expression triggers it, and only the regulatory wording is
// added. A question already in the regulation's words gains nothing: on ObliQA dev (questions
// written from the rule texts) expanding those too cost 0.012 Recall@10 of BM25, as the added
// synonyms outweighed the words the question was actually about. Matching is on light stems,
// so plurals and verb forms count.

/** One lay expression found in a question and the regulatory words it added. */
export interface VocabularyExpansion {
  /** The question's words that matched, as the lexicon has them. */
  from: string;
  /** The regulatory wording it stands for. */
  to: string[];
  /** Words added to the query (those the question lacked). */
  added: string[];
  /** Which rule found it: the lexicon, or the acronym rule below. */
  source: "lexicon" | "acronym";
  /** The instruments whose sense was taken; empty for a sense every instrument shares. */
  instruments: string[];
}

interface Entry {
  stems: string[];
  phrase: string;
  group: number;
}

const GROUPS = COMPLIANCE_LEXICON;

function stems(phrase: string): string[] {
  return tokenize(phrase).map(stem);
}

const ENTRIES: readonly Entry[] = GROUPS.flatMap((group, index) => group.lay.map((phrase) => ({ stems: stems(phrase), phrase, group: index })));

function contains(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** Most words a query gains: enough for three or four concepts, bounded so the question keeps its weight. */
const MAX_ADDED_WORDS = 16;

/**
 * Rule "a capitalised word is a name": a one-word lay expression written with a capital inside
 * the question ("the Regulator", "the Supervisor") is the rulebook's own defined name for its
 * authority, not everyday speech, so it is not translated.
 */
function writtenAsName(query: string, stemmed: string): boolean {
  const words = query.split(/[^\p{L}\p{N}'-]+/u).filter((w) => w !== "");
  return words.some((w, i) => i > 0 && /^\p{Lu}\p{Ll}/u.test(w) && stem(w) === stemmed);
}

/**
 * Rule "IT in capitals is information technology": lower-cased, "IT" is the pronoun "it", so the
 * lexicon cannot match it; written in capitals it is the acronym, and stands for ICT.
 */
const IT_ACRONYM = /(?<![\p{L}\p{N}])IT(?![\p{L}\p{N}])/u;

/** Registry ids of the instruments the question names (with those they contain). */
function namedInstruments(query: string): Set<string> {
  return new Set(distinctEntries(findInstrumentMentions(query)).flatMap((e) => withContained(e).map((c) => c.id)));
}

/** Expansions of the last few questions; they depend on the question alone. */
const RECENT_QUERIES = 32;
const recent = new Map<string, VocabularyExpansion[]>();

/**
 * The lay expressions of the question and the regulatory words each adds. A question naming an
 * instrument gets that instrument's senses of a word; one naming none, every sense. Words the
 * question already has are not repeated, and no more than MAX_ADDED_WORDS are added in all.
 */
export function vocabularyExpansions(query: string): readonly VocabularyExpansion[] {
  // Retrieval and the answer's report read the same question in one ask; a rephrased question is asked again too.
  const known = recent.get(query);
  if (known !== undefined) return known;
  const found = expand(query);
  if (recent.size >= RECENT_QUERIES) recent.delete(recent.keys().next().value ?? "");
  recent.set(query, found);
  return found;
}

function expand(query: string): VocabularyExpansion[] {
  const queryStems = stems(query);
  const have = new Set(queryStems);
  const named = namedInstruments(query);
  const matched = new Map<number, string>();
  for (const entry of ENTRIES) {
    if (matched.has(entry.group) || !contains(queryStems, entry.stems)) continue;
    const group = GROUPS[entry.group];
    if (group?.instruments !== undefined && named.size > 0 && !group.instruments.some((id) => named.has(id))) continue;
    if (entry.stems.length === 1 && writtenAsName(query, entry.stems[0] ?? "")) continue;
    matched.set(entry.group, entry.phrase);
  }
  const found: Array<{ from: string; to: string[]; source: VocabularyExpansion["source"]; instruments: string[] }> = [];
  if (IT_ACRONYM.test(query)) found.push({ from: "IT", to: ["ICT"], source: "acronym", instruments: [] });
  for (const [group, phrase] of matched) {
    const entry = GROUPS[group];
    if (entry !== undefined)
      found.push({
        from: phrase,
        to: [...entry.legal],
        source: "lexicon",
        instruments: [...(entry.instruments ?? [])].filter((id) => named.size === 0 || named.has(id)),
      });
  }
  const seen = new Set<string>();
  let budget = MAX_ADDED_WORDS;
  const out: VocabularyExpansion[] = [];
  for (const f of found) {
    const added: string[] = [];
    for (const phrase of f.to) {
      for (const word of tokenize(phrase)) {
        const s = stem(word);
        if (budget === 0 || have.has(s) || seen.has(s) || word.length < 2 || isFunctionWord(word)) continue;
        seen.add(s);
        added.push(word);
        budget--;
      }
    }
    if (added.length > 0) out.push({ ...f, added });
  }
  return out;
}

/**
 * The regulatory (or lay) wording of the concepts the question names, as extra words for the
 * lexical query; words the question already has are not repeated. Empty when nothing matches.
 */
export function thesaurusExpansion(query: string): string[] {
  return vocabularyExpansions(query).flatMap((e) => e.added);
}
