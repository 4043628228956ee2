import { findCrossReferences } from "./cross-references.ts";
import { tokenize, type EnglishNlp } from "./english-tokens.ts";
import { findInstruments } from "./instruments.ts";
import { canonicalKey, expandAcronyms, singularizeWord } from "./normalize-entity.ts";
import { isDeterminer, nounPhraseAt } from "./noun-phrases.ts";
import { MIN_ENTITY_NAME_LENGTH } from "../model/graph-records.ts";

// The name and merge key of an entity mention. A name is what the graph shows: the noun phrase as
// the document writes it, lower case except acronyms ("ICT third-party service provider"), the
// head singular ("financial entities" → "financial entity", "management bodies of the financial
// entity" → "management body of the financial entity"). The key is what merges mentions: the
// document's acronyms expanded ("ICT" ↔ "information and communication technology"), articles
// and punctuation folded. Mentions that name no concept an auditor could look up are refused:
// pronouns, bare determiners, cross-references ("paragraph 1", "first subparagraph", "Article 6",
// "(EU) No 648/2012": those are REFERS_TO edges already).

export interface EntityNameOptions {
  language: "en" | "it";
  /** The document's acronyms ("ICT" → "information and communication technology"). */
  acronyms?: ReadonlyMap<string, string>;
}

export interface EntityName {
  name: string;
  key: string;
  /** The name had an acronym the key expanded. */
  expanded: boolean;
}

const MAX_NAME_WORDS = 12;

// Pronouns and words that say which or whose, not what.
const NON_ENTITY_WORDS = new Set([
  "which",
  "that",
  "it",
  "they",
  "this",
  "these",
  "those",
  "who",
  "whom",
  "such",
  "them",
  "there",
  "here",
  "the",
  "a",
  "an",
  "its",
  "their",
  "his",
  "her",
  "him",
  "us",
  "we",
  "you",
  "one",
  "ones",
  "other",
  "others",
  "any",
  "all",
  "each",
  "both",
  "either",
  "thereof",
  "therein",
  "same",
  "what",
  "whatever",
  "following",
  "foregoing",
  "former",
  "latter",
  "case",
  "extent",
  "way",
  "manner",
  "basis",
  "purpose",
  "purposes",
  "respect",
  "regard",
  "stesso",
  "stessa",
  "esso",
  "essa",
  "essi",
  "questo",
  "questa",
  "quale",
  "che",
  "lo",
  "la",
  "gli",
  "le",
  "il",
]);
// Words that, alone or with an ordinal, cite a provision ("first subparagraph", "point")…
const PROVISION_WORDS = String.raw`(?:sub)?paragraphs?|articles?|art\.?|artt\.?|recitals?|annex(?:es)?|chapters?|points?|subparts?|appendix|appendices|§+|commi|comma|lettera|lett\.?|indents?`;
// … and words that cite one only with a number ("Section 2", "requirement 3.1.1"; "the requirements" names a thing).
const NUMBERED_WORDS = String.raw`sections?|subsections?|parts?|titles?|requirements?|sentences?|rules?`;
const ORDINALS = String.raw`(?:(?:first|second|third|fourth|fifth|sixth|last|previous|preceding|following|introductory|same|present)\s+)*`;
const PROVISION = new RegExp(
  String.raw`^${ORDINALS}(?:${PROVISION_WORDS})(?![\p{L}])(?:\s+(?:of|to|in|thereof|above|below)\b.*|\s*[\divxlc(][^\s]*.*)?$`,
  "iu",
);
const NUMBERED_PROVISION = new RegExp(String.raw`^${ORDINALS}(?:${NUMBERED_WORDS})\s*(?:\d|[ivxlc]+\b|\()`, "iu");
const SELF_REFERENCE =
  /^(?:this|that|the\s+present|present)\s+(?:regulation|directive|decision|article|section|part|subpart|chapter|paragraph|subparagraph|annex|publication|rule|title|subchapter)\b/iu;
const INSTRUMENT_NUMBER =
  /(?:^|[\s(])(?:eu|ec|eec|no\.?)\)?\s*(?:no\.?\s*)?\d{1,4}\/\d{1,4}|\b\d{2,4}\/\d{2,4}(?:\/[a-z]{2,3})?\b|\b\d+\s*cfr\b|\bu\.?s\.?c\.?\b/iu;
const LEADING_DETERMINER =
  /^(?:(?:the|a|an|its|their|his|her|our|your|such|said|the same|each|every|any|all|this|that|these|those|both|either|no|another|certain|one or more|what|which|whose|his or her)\s+)+/iu;
const LEADING_PRONOUN_OBJECT = /^(?:them|him|her|it|us|you)\s+(?:of|about|with|to|for|on|in)\s+/iu;
const ARTICLES = /\b(?:the|a|an)\s+/giu;
const ACRONYM = /^[A-Z][A-Z0-9&]*[A-Z0-9](?:s)?$/u;

/** True for names that cite a provision or another act instead of naming a thing. */
export function isCrossReferenceName(name: string): boolean {
  const s = name.trim();
  // A Roman numeral alone is a cut "Chapters III, IV and V".
  if (/^[ivxlcdm]+$/iu.test(s)) return true;
  if (PROVISION.test(s) || NUMBERED_PROVISION.test(s) || SELF_REFERENCE.test(s) || INSTRUMENT_NUMBER.test(s)) return true;
  if (/[()]/.test(s) && !/^\p{L}[^()]*\([^()]+\)[^()]*$/u.test(s)) return true; // unbalanced brackets: a cut citation ("eu) no 648/2012")
  const covered = [...findCrossReferences(s, {}), ...findInstruments(s)].reduce((n, r) => n + (r.end - r.start), 0);
  return covered >= s.length / 2;
}

/** True when every word is a pronoun, determiner or word that names nothing by itself. */
export function namesNothing(key: string): boolean {
  return key.split(/\s+/).every((word) => NON_ENTITY_WORDS.has(word));
}

function displayWord(word: string): string {
  if (ACRONYM.test(word)) return word.replace(/(?<=[A-Z0-9])s$/u, "");
  // "ICT-related", "CUI-related": keep the acronym's case inside a hyphenated word.
  return word
    .split("-")
    .map((part) => (ACRONYM.test(part) ? part : part.toLowerCase()))
    .join("-");
}

/** The display name: as written, lower case except acronyms, the head singular. */
function displayName(surface: string, language: "en" | "it"): string {
  const words = surface
    .normalize("NFKC")
    .replace(/[‘’`´]/g, "'")
    .replace(/[“”«»"]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N})]+$/gu, "")
    .split(" ")
    .filter((w) => w !== "")
    .map(displayWord);
  if (language !== "en") return words.join(" ").replace(/^(?:il|lo|la|i|gli|le|un|uno|una)\s+|^(?:l|un)'\s*/iu, "");
  // The head is the last word before the first "of"/"for" phrase; in "policies and procedures"
  // each coordinated phrase has its own.
  const cut = words.findIndex((w, i) => i > 0 && (w === "of" || w === "for"));
  const headEnd = cut < 0 ? words.length : cut;
  const heads = [headEnd - 1, ...words.slice(0, headEnd).flatMap((w, i) => ((w === "and" || w === "or") && i > 0 ? [i - 1] : []))];
  for (const at of heads) {
    const head = words[at];
    // "five years", "72 hours": a counted noun stays plural.
    if (head === undefined || /^(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve|several|many)$/iu.test(words[at - 1] ?? "")) continue;
    words[at] = ACRONYM.test(head) ? head : singularizeWord(head.replace(/'s$/u, ""));
  }
  return words.join(" ");
}

/**
 * The name and key of a mention, or null when it names nothing an auditor could look up. The
 * mention should already be a noun phrase (noun-phrases.ts); determiners are removed here.
 */
export function entityName(mention: string, options: EntityNameOptions): EntityName | null {
  // "this Regulation", "the present Directive": the document itself; "§ 164.308": a citation.
  if (SELF_REFERENCE.test(mention.trim()) || isCrossReferenceName(mention)) return null;
  const stripped = mention.replace(LEADING_PRONOUN_OBJECT, "").replace(LEADING_DETERMINER, "").trim();
  const words = stripped.split(/\s+/).filter((w) => w !== "");
  // A phrase longer than this is a clause: keep it up to its last "of" phrase that fits.
  // Too long: the first of its coordinated phrases, or its first words up to a whole word group.
  const firstConjunct = stripped.split(/,\s*(?:and|or)?\s*|\s+(?:and|or)\s+(?=(?:the|a|an|any|all)\s)/u)[0] ?? stripped;
  const fitted =
    words.length <= MAX_NAME_WORDS
      ? stripped
      : firstConjunct.split(/\s+/).length <= MAX_NAME_WORDS
        ? firstConjunct
        : words
            .slice(0, MAX_NAME_WORDS)
            .join(" ")
            .replace(/(?:\s+(?:of|for|and|or|to|in|on|the|a|an))+$/iu, "");
  const name = displayName(fitted, options.language);
  if (name.length < MIN_ENTITY_NAME_LENGTH || isCrossReferenceName(name)) return null;
  // The key reads the acronyms in full, so "ICT" and "information and communication technology" meet.
  const expandedText = expandAcronyms(fitted, options.acronyms);
  const key = canonicalKey(displayName(expandedText, options.language).replace(ARTICLES, ""), { language: options.language });
  if (key.length < MIN_ENTITY_NAME_LENGTH || namesNothing(key)) return null;
  return { name, key, expanded: expandedText !== fitted };
}

/**
 * True when `text`, read on its own by the tagger, is one noun phrase or a coordination of noun
 * phrases: what the graph's entity names must be (bench:graph reports the share).
 */
export function isNounPhraseText(nlp: EnglishNlp, text: string): boolean {
  // Read in a frame only a noun phrase fits ("They discussed the ___ ."): alone, the tagger takes
  // "standard", "lead overseer" or "register of information" for an adjective or a verb.
  const frame = `They discussed the ${text} .`;
  const all = tokenize(nlp, frame).toks;
  const toks = all.slice(3, -1);
  if (toks.length === 0 || all[2]?.lower !== "the") return false;
  const last = toks.length - 1;
  let k = 0;
  while (k <= last && isDeterminer(toks[k])) k++;
  for (let guard = 0; guard < 8 && k <= last; guard++) {
    const np = nounPhraseAt(toks, k, last);
    if (np === null) return false;
    if (np.to === last) return true;
    const sep = toks[np.to + 1];
    if (!(sep?.pos === "CCONJ" || sep?.value === "," || sep?.value === "/")) return false;
    k = np.to + 2;
    if (toks[k]?.pos === "CCONJ") k++;
  }
  return false;
}
