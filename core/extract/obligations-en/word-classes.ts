// What kind of word a token is for the obligation rules, where wink's POS tag alone does not say:
// bare and finite verbs, gerunds, list markers, and noun phrases that name a party.

import { textOf, type Tok } from "../english-tokens.ts";
import { isNounLike, isParticiple, type NounPhrase } from "../noun-phrases.ts";
import { partyTypeOfName } from "../party-types.ts";
import { FINITE_FORMS, ING_WORDS, MODALS } from "./clause-words.ts";
import { COORDINATED_VERBS, IMPERATIVE_VERBS } from "./verb-words.ts";

export interface Span {
  from: number;
  to: number;
}

/** A verb in a list of coordinated verbs ("affirm, increase, or reduce"), where wink often tags nouns. */
export function isListedVerb(t: Tok | undefined): boolean {
  if (t !== undefined && (t.lower === "be" || t.lower === "have")) return false;
  return t !== undefined && (isBaseVerb(t) || ((t.pos === "NOUN" || t.pos === "ADJ") && (IMPERATIVE_VERBS.has(t.lower) || COORDINATED_VERBS.has(t.lower))));
}

/** A verb in its bare form ("notify", "be", "lay" — wink lemmatises that one to "lie"). */
export function isBaseVerb(t: Tok | undefined): boolean {
  if (t === undefined) return false;
  if (t.pos !== "VERB" && t.pos !== "AUX") return false;
  if (MODALS.has(t.lower) || FINITE_FORMS.has(t.lower)) return false;
  if (t.lemma === t.lower) return true;
  return !/(?:ed|ing)$/.test(t.lower) && !/[^s]s$/.test(t.lower) && !isParticiple(t);
}

/** An -ing verb opening a phrase: a gerund clause ("implementing automated mechanisms"). */
export function isGerund(t: Tok | undefined, next?: Tok): boolean {
  if (t === undefined || !/ing$/.test(t.lower) || ING_WORDS.has(t.lower)) return false;
  if (t.pos === "VERB") return true;
  // "may include isolating administrative interfaces", "consider salting passwords": tagged a noun, used as a verb.
  return (
    (t.pos === "NOUN" || t.pos === "PROPN") && next !== undefined && (next.pos === "ADJ" || next.pos === "NOUN" || next.pos === "DET" || next.pos === "PRON")
  );
}

export function isFiniteVerb(toks: readonly Tok[], k: number): boolean {
  const t = toks[k];
  return t !== undefined && (t.pos === "VERB" || t.pos === "AUX") && !isParticiple(t) && !/ing$/.test(t.lower) && !isNounLike(toks, k) && !MODALS.has(t.lower);
}

/** A list marker's token: punctuation, a number, or the letters of "(a) the controller", "(ii) A covered entity". */
export function isMarkerToken(toks: readonly Tok[], i: number): boolean {
  const t = toks[i];
  if (!t) return false;
  if (t.pos === "PUNCT" || t.pos === "SYM" || t.pos === "NUM") return true;
  return /^[a-z]{1,4}$/i.test(t.value) && toks[i - 1]?.value === "(" && toks[i + 1]?.value === ")";
}

export function skipListMarkers(toks: readonly Tok[], k: number, end: number): number {
  let i = k;
  while (i <= end) {
    const t = toks[i];
    if (!t) break;
    // A heading word printed before the sentence ("DISCUSSION Alternate work sites may …").
    const heading =
      /^[A-Z]{4,}$/.test(t.value) && /^[A-Z][a-z]/.test(toks[i + 1]?.value ?? "") && (t.lower === "discussion" || t.lower === "note" || t.lower === "example");
    if (!heading && !isMarkerToken(toks, i)) break;
    i++;
  }
  return i;
}

/** The phrase with its determiner, so that naming sees "this Regulation" (the document itself). */
export function nounPhraseSpan(np: NounPhrase): Span {
  return { from: np.determiner >= 0 ? np.determiner : np.from, to: np.to };
}

export function isPartyPhrase(text: string, toks: readonly Tok[], span: Span | null): boolean {
  if (span === null) return false;
  return partyTypeOfName(textOf(text, toks, span.from, span.to).toLowerCase()) !== null;
}
