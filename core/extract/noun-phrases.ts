import type { Tok } from "./english-tokens.ts";
import { partyTypeOfName } from "./party-types.ts";

// Noun-phrase chunks over wink-nlp's universal POS tags, the unit every rule-based entity is cut
// to: (determiner) (modifiers) head noun (of + noun phrase)*. wink's lite model mis-tags a few
// regular shapes of regulatory English, corrected here rather than in each rule:
// - plural nouns inside compounds come out as verbs ("audit logs/VERB", "processing activities");
// - "data subject" reads "subject" as the adjective of "subject to";
// - "individual" heads a phrase as an adjective ("notify each individual whose …");
// - participles modify nouns ("protected/VERB health information", "designated officials").

export interface NounPhrase {
  /** First token after any determiner. */
  from: number;
  /** Last token (the head, or the end of an attached "of" phrase). */
  to: number;
  /** The head noun of the phrase itself (before any "of" attachment). */
  head: number;
  /** Index of the determiner(s) before `from`, or -1. */
  determiner: number;
}

const DETERMINERS = new Set([
  "the",
  "a",
  "an",
  "any",
  "each",
  "every",
  "all",
  "such",
  "its",
  "their",
  "his",
  "her",
  "our",
  "your",
  "this",
  "that",
  "these",
  "those",
  "both",
  "either",
  "neither",
  "no",
  "another",
  "other",
  "certain",
  "said",
  "whose",
  "which",
  "what",
]);
// Adjectives that name a kind of person or body when nothing follows them.
const NOMINAL_ADJECTIVES = new Set([
  "individual",
  "national",
  "official",
  "representative",
  "resident",
  "principal",
  "minor",
  "juvenile",
  "professional",
  "subordinate",
  "affiliate",
  "standard",
  "key",
  "fine",
  "chief",
  "safeguard",
  "average",
  "brief",
  "principal",
  "general",
]);
const POSSESSIVES = new Set(["his", "her", "its", "their", "our", "your"]);
// -ing words that are nouns ("undertaking", "processing") or adjectives of fixed terms ("implementing
// technical standards", "binding corporate rules") in regulatory text, whatever the tagger says.
const ING_NOUNS = new Set([
  "undertaking",
  "processing",
  "reporting",
  "testing",
  "training",
  "funding",
  "offering",
  "marketing",
  "profiling",
  "hearing",
  "ruling",
  "finding",
  "filing",
  "setting",
  "planning",
  "meeting",
  "proceeding",
  "recording",
  "accounting",
  "monitoring",
  "outsourcing",
  "licensing",
  "pricing",
  "listing",
  "building",
  "sharing",
  "screening",
  "logging",
  "scanning",
  "handling",
  "engineering",
]);
const ING_ADJECTIVES = new Set([
  "implementing",
  "operating",
  "existing",
  "underlying",
  "outstanding",
  "remaining",
  "corresponding",
  "binding",
  "governing",
  "controlling",
  "sanctioning",
  "reporting",
  "processing",
  "testing",
  "accounting",
  "supervising",
  "requesting",
  "receiving",
  "sending",
  "issuing",
  "participating",
  "cooperating",
  "consulting",
  "leading",
]);
// -ing words that work as prepositions: never inside a noun phrase ("information concerning …").
const PREPOSITIONAL_ING = new Set([
  "concerning",
  "regarding",
  "including",
  "following",
  "pending",
  "excluding",
  "according",
  "notwithstanding",
  "respecting",
  "considering",
  "during",
]);
// Nouns that take a plural verb: "data show", "personnel include".
const MASS_NOUNS = new Set(["data", "personnel", "staff", "people", "police", "media", "public", "management", "board", "government"]);
// Words before which a verb-tagged word is a noun: "the act", "its file", "a proposed finding of fact".
const NOUN_OPENERS = new Set(["the", "a", "an", "its", "their", "his", "her", "our", "your", "such", "any", "each", "every", "no", "'s", "’s"]);
// Third-person verbs that are (almost) never plural nouns: "FISMA requires that", "scanning includes:".
const VERBS_NOT_NOUNS = new Set([
  "include",
  "require",
  "intend",
  "provide",
  "apply",
  "ensure",
  "contain",
  "consist",
  "allow",
  "cover",
  "describe",
  "specify",
  "establish",
  "identify",
  "involve",
  "refer",
  "mean",
  "remain",
  "become",
  "seem",
  "appear",
  "continue",
  "exist",
  "depend",
  "result",
  "occur",
  "relate",
  "constitute",
  "represent",
  "define",
  "determine",
  "implement",
  "support",
  "affect",
  "enable",
  "help",
  "meet",
  "take",
  "make",
  "give",
  "receive",
  "permit",
  "prohibit",
  "perform",
  "conduct",
  "maintain",
  "use",
  "serve",
  "concern",
  "lay",
  "set",
  "focus",
  "address",
  "reflect",
  "fail",
]);
// Two-word nouns whose second word wink tags as a verb ("business/PROPN associate/VERB").
const NOUN_COMPOUNDS = new Set([
  "business associate",
  "business associates",
  "data subject",
  "data subjects",
  "health plan",
  "health plans",
  "service user",
  "service users",
  "workforce member",
  "workforce members",
]);
const IRREGULAR_PARTICIPLES = new Set([
  "made",
  "laid",
  "set",
  "held",
  "kept",
  "sent",
  "given",
  "taken",
  "done",
  "drawn",
  "borne",
  "written",
  "shown",
  "known",
  "paid",
  "bound",
  "built",
  "chosen",
  "put",
  "brought",
  "sought",
  "thought",
  "bought",
  "caught",
  "taught",
  "found",
  "heard",
  "left",
  "lost",
  "meant",
  "met",
  "read",
  "sold",
  "told",
  "understood",
  "withheld",
  "upheld",
  "spent",
  "run",
  "seen",
  "become",
  "begun",
  "forgotten",
  "undertaken",
  "overseen",
  "arisen",
]);
// "of" phrases that say where a rule is written, not what the thing is ("requirements of this Regulation").
const SELF_REFERENCE =
  /^(?:this|that|the\s+present)\s+(?:regulation|directive|article|section|part|subpart|chapter|paragraph|subparagraph|annex|publication|rule|title|decision|subchapter)\b/i;
// An "of" phrase that cites ("adaptations of Regulation (EC) No 45/2001") is a reference, not part of the name.
const CITATION =
  /^(?:the\s+)?(?:Regulation|Directive|Decision|Articles?|paragraphs?|points?|Annex|Chapter|Section|Title|Part|Subpart|§+)\s*(?:\(|No\b|\d|[IVXLC]+\b)/u;
const MAX_OF_DEPTH = 2;

function isWordToken(t: Tok | undefined): boolean {
  return t !== undefined && /[\p{L}\p{N}]/u.test(t.value);
}

/** A hyphen written inside a word ("third-party", "ICT-related"), not a dash between words. */
export function isInnerHyphen(toks: readonly Tok[], i: number): boolean {
  const t = toks[i];
  const prev = toks[i - 1];
  const next = toks[i + 1];
  return (
    t !== undefined &&
    /^[-‐‑]$/.test(t.value) &&
    prev !== undefined &&
    next !== undefined &&
    prev.end === t.start &&
    t.end === next.start &&
    isWordToken(prev) &&
    isWordToken(next)
  );
}

export function isParticiple(t: Tok | undefined): boolean {
  if (t === undefined || t.pos !== "VERB") return false;
  return /(?:ed|en|wn)$/.test(t.lower) || IRREGULAR_PARTICIPLES.has(t.lower);
}

/** True when token i is the noun of a phrase, tagging errors corrected. */
export function isNounLike(toks: readonly Tok[], i: number): boolean {
  const t = toks[i];
  if (t === undefined) return false;
  if (PREPOSITIONAL_ING.has(t.lower) && !isDeterminer(toks[i - 1])) return false;
  if (ING_NOUNS.has(t.lower) && !(toks[i + 1]?.pos === "DET") && !["forth", "out", "up", "down", "off"].includes(toks[i + 1]?.lower ?? "")) return true;
  // "financial entities meeting the criteria", "financial entities providing ICT services": an -ing
  // word before a determiner, or after a plural noun, starts a clause.
  if (/ing$/.test(t.lower) && i > 0) {
    if (isDeterminer(toks[i + 1]) && toks[i + 1]?.pos === "DET") return false;
    const before = toks[i - 1];
    if (before !== undefined && /[^s]s$/.test(before.lower) && (before.pos === "NOUN" || before.pos === "PROPN")) return false;
  }
  if (t.pos === "NOUN" || t.pos === "PROPN") return /[\p{L}]/u.test(t.value);
  const prev = toks[i - 1];
  const next = toks[i + 1];
  if (prev !== undefined && NOUN_COMPOUNDS.has(`${prev.lower} ${t.lower}`)) return true;
  if (t.pos === "VERB" && prev !== undefined && /[a-z]s$/.test(t.lower) && !/(?:ss|us)$/.test(t.lower) && !VERBS_NOT_NOUNS.has(t.lemma)) {
    const afterNominal =
      prev.pos === "NOUN" || prev.pos === "PROPN" || prev.pos === "ADJ" || isInnerHyphen(toks, i - 1) || (isParticiple(prev) && toks[i - 2]?.value !== ",");
    const beforeBoundary = next === undefined || ["PUNCT", "ADP", "CCONJ", "NOUN", "VERB", "AUX", "PART"].includes(next.pos);
    return afterNominal && beforeBoundary;
  }
  // "the delegated act", "the organization's file", "proposed findings of fact": a verb form right
  // after an article or modifier and before the end of the phrase is a noun.
  if (t.pos === "VERB" && !isParticiple(t) && prev !== undefined && (NOUN_OPENERS.has(prev.lower) || prev.pos === "ADJ" || isParticiple(prev))) {
    if (next === undefined || next.pos === "PUNCT" || next.pos === "ADP" || next.pos === "CCONJ") return true;
  }
  // "use session lock with …": a singular noun cannot be the subject of a bare verb, so the
  // verb is the second noun of a compound.
  if (
    t.pos === "VERB" &&
    t.lemma === t.lower &&
    !/s$/.test(t.lower) &&
    prev !== undefined &&
    prev.pos === "NOUN" &&
    !/s$/.test(prev.lower) &&
    !MASS_NOUNS.has(prev.lower)
  ) {
    if (next === undefined || next.pos === "ADP" || next.pos === "PUNCT" || next.pos === "CCONJ") return true;
  }
  if (t.pos === "ADJ" && NOMINAL_ADJECTIVES.has(t.lower)) {
    return next === undefined || !(next.pos === "NOUN" || next.pos === "PROPN" || next.pos === "ADJ");
  }
  return false;
}

/** A token that may stand before the head inside a phrase. */
function isModifier(toks: readonly Tok[], i: number): boolean {
  const t = toks[i];
  if (t === undefined) return false;
  if (t.pos === "ADJ" || t.pos === "NUM") return true;
  // "third-party", "follow-up action", "ICT-related": the words around a hyphen inside a word.
  if (isInnerHyphen(toks, i) || isInnerHyphen(toks, i + 1) || isInnerHyphen(toks, i - 1)) return toks[i]?.pos !== "PUNCT" || isInnerHyphen(toks, i);
  if (t.value === "'s" || t.value === "’s") return true;
  // "protected health information", "designated officials": a participle directly before a noun or adjective.
  if (PREPOSITIONAL_ING.has(t.lower)) return isDeterminer(toks[i - 1]);
  // "a written brief specifying exceptions": an -ing verb after a noun opens a clause.
  if (t.pos === "VERB" && /ing$/.test(t.lower) && isNounLike(toks, i - 1) && !ING_ADJECTIVES.has(t.lower)) return false;
  if (isParticiple(t) || (t.pos === "VERB" && /ing$/.test(t.lower))) {
    const next = toks[i + 1];
    return next !== undefined && (isNounLike(toks, i + 1) || next.pos === "ADJ" || isInnerHyphen(toks, i + 1));
  }
  // "supervisory, investigative and sanctioning powers": commas between adjectives.
  if (t.value === "," && toks[i - 1]?.pos === "ADJ" && toks[i + 1]?.pos === "ADJ") return true;
  // "natural or legal person", "material or non-material damage", "system entry and exit points"
  if (t.pos === "CCONJ") {
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (prev?.pos === "ADJ" && next !== undefined && (next.pos === "ADJ" || isInnerHyphen(toks, i + 2))) return true;
    // "sound administrative and accounting procedures", "investigative and sanctioning powers"
    if (prev?.pos === "ADJ" && isNounLike(toks, i + 1) && isNounLike(toks, i + 2)) return true;
    if (prev?.pos === "ADJ" && next?.pos === "VERB" && isModifier(toks, i + 1)) return true;
    // Two nouns sharing a head: "system entry and exit points", "transport and courier personnel"
    // (not "covered entity or business associate": two parties).
    if (!(prev !== undefined && isNounLike(toks, i - 1) && isNounLike(toks, i + 1) && isNounLike(toks, i + 2))) return false;
    const left = `${toks[i - 2]?.lower ?? ""} ${prev.lower}`;
    const right = `${toks[i + 1]?.lower ?? ""} ${toks[i + 2]?.lower ?? ""}`;
    return !(partyTypeOfName(left) !== null && partyTypeOfName(right) !== null);
  }
  return false;
}

export function isDeterminer(t: Tok | undefined): boolean {
  return t !== undefined && (t.pos === "DET" || DETERMINERS.has(t.lower)) && t.pos !== "NOUN";
}

/**
 * The noun phrase starting at token i (a determiner may come first), or null when none starts
 * there. `limit` is the last token it may use. "of" phrases are attached up to two deep, unless
 * they only say where the text is ("of this Regulation").
 */
export function nounPhraseAt(toks: readonly Tok[], i: number, limit: number, depth = 0): NounPhrase | null {
  let j = i;
  let determiner = -1;
  // "one or more", "at least one": quantifiers before the phrase proper.
  if (toks[j]?.lower === "one" && toks[j + 1]?.lower === "or" && toks[j + 2]?.lower === "more") j += 3;
  // "his or her right", "their or its"
  if (POSSESSIVES.has(toks[j]?.lower ?? "") && toks[j + 1]?.lower === "or" && POSSESSIVES.has(toks[j + 2]?.lower ?? "")) j += 2;
  while (j <= limit && isDeterminer(toks[j])) {
    determiner = j;
    j++;
  }
  const from = j;
  let head = -1;
  // "sound/VERB administrative … procedures": an adjective wink read as a verb, opening the phrase.
  if (toks[j]?.pos === "VERB" && !/(?:ing|ed)$/.test(toks[j]?.lower ?? "") && toks[j + 1]?.pos === "ADJ" && j < limit) j++;
  for (; j <= limit; j++) {
    if (isNounLike(toks, j)) {
      head = j;
      continue;
    }
    if (isModifier(toks, j)) continue;
    // A number after a noun belongs to it ("paragraph 1", "Article 6"); after an adjective it does not start one.
    if (toks[j]?.pos === "NUM" && head === j - 1) {
      head = j;
      continue;
    }
    break;
  }
  if (head < from) return null;
  // Trailing modifiers after the last noun are not part of the phrase ("entities concerned").
  let to = head;
  // "the drawing up of codes", "the setting out of rules": a nominal -ing with its particle.
  if (/ing$/.test(toks[to]?.lower ?? "") && (toks[to + 1]?.lower === "up" || toks[to + 1]?.lower === "out") && toks[to + 2]?.lower === "of") to += 1;
  if (depth < MAX_OF_DEPTH && toks[to + 1]?.lower === "of" && to + 2 <= limit) {
    const rest = toks
      .slice(to + 2, Math.min(limit, to + 6) + 1)
      .map((t) => t.value)
      .join(" ");
    if (!SELF_REFERENCE.test(rest) && !CITATION.test(rest)) {
      const inner = nounPhraseAt(toks, to + 2, limit, depth + 1);
      if (inner !== null) to = inner.to;
    }
  }
  return { from, to, head, determiner };
}

// "take into account risks", "have in place a policy": the noun of an idiom is not part of the phrase after it.
const IDIOMS = new Set([
  "into account",
  "in place",
  "in accordance",
  "in particular",
  "in writing",
  "on request",
  "in time",
  "into consideration",
  "in addition",
]);

function isIdiomObject(toks: readonly Tok[], i: number): boolean {
  const prev = toks[i - 1];
  const t = toks[i];
  return prev !== undefined && t !== undefined && IDIOMS.has(`${prev.lower} ${t.lower}`);
}

/**
 * The noun phrase ending at token `end` (inclusive), walking left over modifiers: for the
 * antecedent of "which" / "who" ("… to the competent authority, which shall …").
 */
export function nounPhraseEndingAt(toks: readonly Tok[], end: number, lower: number): NounPhrase | null {
  if (!isNounLike(toks, end) && toks[end]?.pos !== "NUM") return null;
  let j = end;
  while (j - 1 >= lower && (isNounLike(toks, j - 1) || isModifier(toks, j - 1)) && !isIdiomObject(toks, j - 1)) j--;
  // "… of the home Member State": the phrase the "of" hangs from comes with it.
  let from = j;
  let head = end;
  let ofAt = from - 1;
  while (ofAt >= lower && isDeterminer(toks[ofAt])) ofAt--;
  if (toks[ofAt]?.lower === "of") {
    let k = ofAt - 1;
    while (k >= lower && isDeterminer(toks[k])) k--;
    const outer = k >= lower ? nounPhraseEndingAt(toks, k, lower) : null;
    if (outer !== null) {
      from = outer.from;
      head = outer.head;
    }
  }
  let determiner = -1;
  if (isDeterminer(toks[from - 1])) determiner = from - 1;
  return { from, to: end, head, determiner };
}
