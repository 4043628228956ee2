import type { QuestionName } from "../../model/question-analysis-types.ts";
import { WORD } from "../../text/index.ts";
import { isFunctionWord } from "../compose/lexical.ts";

// The names a question gives to what it is about: acronyms ("HIPAA", "NIST", "PCI DSS"),
// capitalised compounds ("Sarbanes-Oxley"), numbered standards ("ISO/IEC 27001", "Regulation
// 1169/2011") and titled instruments ("California Consumer Privacy Act", "AI Act"). A question that
// names something no imported document mentions is about a document that was not imported: quoting
// the library's nearest sentences would answer another question, so it gets the not-answered
// reply, saying which name is missing (bench:answer measures this on out-of-domain questions).

export type { QuestionName } from "../../model/question-analysis-types.ts";

/** Words that end a title: "… Act", "… Regulation", "… Directive". */
const INSTRUMENT_WORDS = new Set([
  "act",
  "acts",
  "regulation",
  "regulations",
  "directive",
  "directives",
  "rule",
  "rules",
  "framework",
  "standard",
  "standards",
  "code",
  "law",
  "laws",
]);
/** Jurisdiction prefixes a library may well write without: "the EU AI Act" → "AI Act". */
const PREFIXES = new Set(["EU", "US", "UK", "The"]);

interface Token {
  text: string;
  start: number;
  end: number;
}

function tokens(text: string): Token[] {
  return [...text.matchAll(WORD)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

const isCapitalised = (w: string): boolean => /^\p{Lu}/u.test(w);
/** Two or more capitals, not a number: "HIPAA", "NIS2", "TINs", "eKYC" is not (lower first). */
const isAcronym = (w: string): boolean => /^\p{Lu}/u.test(w) && (w.match(/\p{Lu}/gu)?.length ?? 0) >= 2;

/** Where a sentence (or a list item) starts: its first word is capitalised for grammar, not as a name. */
function startsSentence(question: string, at: number): boolean {
  const before = question.slice(0, at).trimEnd();
  return before === "" || /[.?!:;*•\-–—"'“(]$/.test(before);
}

export function questionNames(question: string): QuestionName[] {
  const toks = tokens(question);
  const out: QuestionName[] = [];
  const seen = new Set<string>();
  const add = (text: string, kind: QuestionName["kind"]): void => {
    const key = `${kind}:${text.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ text, kind });
  };

  for (const t of toks) {
    if (!isAcronym(t.text)) continue;
    // "Enhanced Due Diligence (EDD)": an acronym the question defines is not a name to look up.
    if (question[t.start - 1] === "(" && question[t.end] === ")") continue;
    add(t.text.replace(/(?<=\p{Lu})s$/u, ""), "acronym");
  }

  // Capitalised hyphen compounds: "Sarbanes-Oxley", "Non-Equivalent".
  for (const m of question.matchAll(/\p{Lu}[\p{L}\p{N}]*(?:-\p{Lu}[\p{L}\p{N}]*)+/gu)) add(m[0], "name");

  // Acronyms with a number: "ISO/IEC 27001", "OHSAS 18001", "SP 800-53".
  for (const m of question.matchAll(/\b\p{Lu}{2,}(?:\/\p{Lu}{2,})*[ -]?\d{3,}(?:-\d+)*/gu)) add(m[0], "name");

  // Codified rules cited by title and part: "21 CFR Part 11", "14 CFR part 39", "15 U.S.C. 6801".
  // A library that never cites the part does not hold it, whatever it holds of the same code.
  for (const m of question.matchAll(/\b\d{1,2}\s+(?:C\.?F\.?R\.?|U\.?S\.?C\.?)\s+(?:(?:[Pp]arts?|§{1,2})\s*)?\d+(?:\.\d+)?/g)) add(m[0], "name");

  // Numbered instruments: "Regulation 1169/2011", "Directive 2016/943".
  for (const m of question.matchAll(/\b(?:Regulation|Directive|Decision)\s+(?:\((?:EU|EC)\)\s+)?(?:No\.?\s+)?\d+\/\d+/g)) add(m[0], "name");

  // Titled instruments: a run of capitalised words (space- or hyphen-separated) ending in an
  // instrument word, without a sentence-initial word and jurisdiction prefixes.
  let i = 0;
  while (i < toks.length) {
    let j = i;
    while (j < toks.length) {
      const t = toks[j];
      if (t === undefined || !isCapitalised(t.text)) break;
      const previous = toks[j - 1];
      if (j > i && previous !== undefined && !/^[ -]$/.test(question.slice(previous.end, t.start))) break;
      j++;
    }
    let run = toks.slice(i, j).map((t) => t.text);
    const first = toks[i];
    if (run.length > 0 && first !== undefined && startsSentence(question, first.start) && !isAcronym(first.text)) run = run.slice(1);
    let end = run.length - 1;
    while (end > 0 && !INSTRUMENT_WORDS.has((run[end] ?? "").toLowerCase())) end--;
    let title = run.slice(0, end + 1);
    while (title.length > 0 && PREFIXES.has(title[0] ?? "")) title = title.slice(1);
    if (end > 0 && title.length >= 2) add(title.join(" "), "name");
    i = Math.max(j, i + 1);
  }
  return out;
}

/** Lower-case words, a plural "s" dropped, so "Rules" matches "Rule" and "TINs" matches "TIN". */
function normalizedWords(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => {
    const lower = w.toLowerCase();
    return lower.length > 3 && lower.endsWith("s") ? lower.slice(0, -1) : lower;
  });
}

/** Whether `text` contains the name's words consecutively (case, punctuation and plurals aside). */
export function mentionsName(text: string, name: string): boolean {
  const needle = normalizedWords(name);
  if (needle.length === 0) return true;
  return ` ${normalizedWords(text).join(" ")} `.includes(` ${needle.join(" ")} `);
}

/** How a text spells an acronym out: as a proper name, and how many times in lower case. */
interface Spellings {
  capitalised: boolean;
  lowerCase: number;
}

/**
 * Where the text spells the acronym out as consecutive content words, function words allowed in
 * between ("data protection officer" for "DPO", "Information and Communication Technology" for
 * "ICT"): a document that says what an acronym stands for is about it even if it never writes it.
 * Two-letter acronyms and function words as initials would match by chance, so neither counts.
 */
function spellings(text: string, acronym: string): Spellings {
  const none = { capitalised: false, lowerCase: 0 };
  if (/\d/.test(acronym)) return none;
  const letters = acronym.toLowerCase().replace(/[^\p{L}]/gu, "");
  if (letters.length < 3) return none;
  // A hyphenated compound spells one letter ("small or medium-sized enterprises" is "SME") or one
  // per part ("Anti-Money Laundering" is "AML"): both readings are tried, the one finding more kept.
  const readings = [/\p{L}+/gu, /\p{L}+(?:-\p{L}+)*/gu].map((re) => initialsRuns(text.match(re) ?? [], letters));
  return {
    capitalised: readings.some((r) => r.capitalised),
    lowerCase: Math.max(...readings.map((r) => r.lowerCase)),
  };
}

/**
 * Rule "a name is spelled out as a name or as a term": a run of words with the acronym's
 * initials counts when its words are capitalised (a proper name: "Financial Conduct Authority")
 * or when the texts say it in lower case at least twice (a term they use: "data protection
 * officer"). Said once in lower case it is chance: DORA's "national financial competent
 * authority" is not the FCA.
 */
export function spellsOut(texts: string | readonly string[], acronym: string): boolean {
  let lowerCase = 0;
  for (const text of typeof texts === "string" ? [texts] : texts) {
    const found = spellings(text, acronym);
    if (found.capitalised) return true;
    lowerCase += found.lowerCase;
  }
  return lowerCase >= LOWER_CASE_SPELLINGS;
}

/** Lower-case spellings of an acronym that make it a term of the texts rather than chance. */
const LOWER_CASE_SPELLINGS = 2;

function initialsRuns(words: readonly string[], letters: string): Spellings {
  const found = { capitalised: false, lowerCase: 0 };
  for (let i = 0; i < words.length; i++) {
    if (words[i]?.[0]?.toLowerCase() !== letters[0]) continue;
    let k = 0;
    let capitalised = true;
    for (let j = i; j < words.length && k < letters.length; j++) {
      const w = words[j] ?? "";
      if (isFunctionWord(w.toLowerCase())) continue;
      if (w.length >= 3 && w[0]?.toLowerCase() === letters[k]) {
        k++;
        if (w[0] === w[0]?.toLowerCase()) capitalised = false;
      } else break;
    }
    if (k === letters.length) {
      if (capitalised) found.capitalised = true;
      else found.lowerCase++;
    }
  }
  return found;
}

/** Sections a name is searched in: enough that a name present in the library is among them. */
const HITS_CHECKED = 25;

export interface NameSearchHit {
  text: string;
}

/**
 * The question's names that no document of the library mentions, found by a full-text search for
 * each name and a look at the best hits; an acronym also counts as mentioned when the retrieved
 * `evidence` spells it out. Empty when the library knows every name (or the question names nothing).
 */
export async function namesMissingFromLibrary(
  question: string,
  search: (query: string, k: number) => Promise<NameSearchHit[]>,
  evidence: readonly string[] = [],
  /** Names settled elsewhere (the instrument registry, the documents' aliases: question-scope.ts). */
  settled: (name: QuestionName) => boolean = () => false,
): Promise<string[]> {
  return unmentionedNames(
    questionNames(question).filter((name) => !settled(name)),
    search,
    evidence,
  );
}

/**
 * Of `names` (the question analysis's otherNames: read once per ask), those no document of the
 * library mentions, in the same way as namesMissingFromLibrary.
 */
export async function unmentionedNames(
  names: readonly QuestionName[],
  search: (query: string, k: number) => Promise<NameSearchHit[]>,
  evidence: readonly string[] = [],
): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) {
    // "IT systems", "US law": an acronym that is also a function word is dropped from the
    // full-text query as a stop word and would match every "it" of the text, so a search proves
    // nothing either way. ObliQA dev: questions such as "… IT infrastructure security …"
    // were refused with "None of the imported documents mentions “IT”".
    if (name.kind === "acronym" && isFunctionWord(name.text.toLowerCase())) continue;
    if (name.kind === "acronym" && spellsOut(evidence, name.text)) continue;
    // A search that fails proves nothing: the name is not held against the question.
    const hits = await search(name.text, HITS_CHECKED).catch(() => null);
    if (
      hits !== null &&
      !hits.some((h) => mentionsName(h.text, name.text)) &&
      !(
        name.kind === "acronym" &&
        spellsOut(
          hits.map((h) => h.text),
          name.text,
        )
      )
    )
      missing.push(name.text);
  }
  return missing;
}
