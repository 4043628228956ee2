import { distinctEntries, findInstrumentMentions, instrumentForAlias, withContained } from "../names/instrument-names.ts";
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
// written from the rule texts) expanding those too lowered BM25's Recall@10, as the added
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

/** Words after which an "-ing" form is still the act, with its object: "warning the customers", "reporting it". */
const OBJECT_START = new Set(["the", "a", "an", "our", "their", "your", "its", "his", "her", "us", "them", "him", "it", "you", "each", "every", "all", "any"]);

/**
 * Rule "a thing is not an act": a one-word lay verb ("warn", "tell") read in its "-ing" form with
 * no object after it names a thing, not the act: the "disagree warning" in a cockpit is an alert,
 * not a notice to anyone. Only a form with its object ("warning the customers") counts.
 */
function saidAsAct(words: readonly string[], queryStems: readonly string[], entry: Entry): boolean {
  if (entry.stems.length !== 1 || /ing$/i.test(entry.phrase)) return true;
  for (let i = 0; i < queryStems.length; i++) {
    if (queryStems[i] !== entry.stems[0]) continue;
    const word = words[i] ?? "";
    if (!/ing$/i.test(word) || OBJECT_START.has((words[i + 1] ?? "").toLowerCase())) return true;
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

/** Registry ids of the instruments a stored document is, from the registry aliases found at its import (with those it contains). */
export function instrumentsOfDocument(aliases: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const alias of aliases) {
    const entry = instrumentForAlias(alias);
    if (entry !== undefined) for (const c of withContained(entry)) ids.add(c.id);
  }
  return [...ids];
}

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
export function vocabularyExpansions(query: string, senses?: ReadonlySet<string>): readonly VocabularyExpansion[] {
  // Retrieval and the answer's report read the same question in one ask; a rephrased question is asked again too.
  const key = senses === undefined ? query : `${query}\u0000${[...senses].sort().join(" ")}`;
  const known = recent.get(key);
  if (known !== undefined) return known;
  const found = expand(query, senses);
  if (recent.size >= RECENT_QUERIES) recent.delete(recent.keys().next().value ?? "");
  recent.set(key, found);
  return found;
}

/**
 * `senses`: for a question naming no instrument, the instruments whose senses to take (the
 * question's regulation as retrieval found it, hybrid-search.ts); a question naming one keeps its own.
 */
function expand(query: string, senses?: ReadonlySet<string>): VocabularyExpansion[] {
  const words = tokenize(query);
  const queryStems = words.map(stem);
  const have = new Set(queryStems);
  const mentioned = namedInstruments(query);
  const named = mentioned.size > 0 ? mentioned : (senses ?? mentioned);
  const matched = new Map<number, string>();
  for (const entry of ENTRIES) {
    if (matched.has(entry.group) || !contains(queryStems, entry.stems)) continue;
    const group = GROUPS[entry.group];
    if (group?.instruments !== undefined && named.size > 0 && !group.instruments.some((id) => named.has(id))) continue;
    if (entry.stems.length === 1 && writtenAsName(query, entry.stems[0] ?? "")) continue;
    if (!saidAsAct(words, queryStems, entry)) continue;
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
export function thesaurusExpansion(query: string, senses?: ReadonlySet<string>): string[] {
  return vocabularyExpansions(query, senses).flatMap((e) => e.added);
}

/**
 * Rule "a word's sense follows the question's regulation": a lay word with a sense per
 * instrument ("vendor": an ICT third-party service provider under DORA, a business associate
 * under HIPAA, a processor under the GDPR), in a question naming no instrument, takes the sense
 * of the instruments the question's other words found: those holding most of the first lexical
 * hits (`votes`: instrument id → hits). Returns the instruments whose senses to keep, or null
 * when every sense stays (no such word, a named instrument, or no hit in any sense's instrument).
 */
export function sensesByRegulation(query: string, votes: ReadonlyMap<string, number>): Set<string> | null {
  const found = vocabularyExpansions(query);
  const byWord = new Map<string, VocabularyExpansion[]>();
  for (const e of found) if (e.instruments.length > 0) byWord.set(e.from, [...(byWord.get(e.from) ?? []), e]);
  if (namedInstruments(query).size > 0 || ![...byWord.values()].some((list) => list.length > 1)) return null;
  const kept = new Set<string>();
  let narrowed = false;
  for (const list of byWord.values()) {
    const score = (e: VocabularyExpansion): number => Math.max(0, ...e.instruments.map((id) => votes.get(id) ?? 0));
    const best = Math.max(...list.map(score));
    const chosen = best > 0 ? list.filter((e) => score(e) === best) : list;
    if (chosen.length < list.length) narrowed = true;
    for (const e of chosen) for (const id of e.instruments) kept.add(id);
  }
  return narrowed ? kept : null;
}
