// The subject of a modal: the clause before it where the subject is looked for, the noun phrase(s)
// there, coordinated parties ("The controller and the processor shall"), and the antecedent of a
// relative pronoun ("EBA, ESMA or EIOPA, which shall").

import type { Tok } from "../english-tokens.ts";
import { isNounLike, nounPhraseAt, nounPhraseEndingAt, type NounPhrase } from "../noun-phrases.ts";
import { CLAUSE_CUTS, COMPOUND_PREPOSITIONS, PRONOUNS, RELATIVES } from "./clause-words.ts";
import { isFiniteVerb, isGerund, skipListMarkers, type Span } from "./word-classes.ts";

export interface Chunk extends Span {
  /** A relative pronoun with nothing after it ("…, which shall"): its antecedent is the subject. */
  relative: number;
}

/** Index of the comma opening a parenthetical that closes at `close` (",  where applicable, "), or -1. */
function openingComma(toks: readonly Tok[], close: number, lower: number): number {
  for (let k = close - 1; k >= lower && close - k <= 30; k--) {
    const v = toks[k]?.value;
    if (v === ";" || v === ":" || v === ".") return -1;
    if (v === ",") return k;
  }
  return -1;
}

/**
 * True when a finite verb stands between `from` and `to` outside a relative clause: the phrase
 * before it is the subject of that verb ("Violation or violate means, as the context may
 * require"), not of the modal.
 */
function hasOwnVerb(toks: readonly Tok[], from: number, to: number): boolean {
  // A relative clause still open at the modal ("… functions that authorized users are
  // permitted to execute") holds the modal: the phrase before it is not its subject either.
  let relative = false;
  let relativeVerb = false;
  for (let k = from; k <= to; k++) {
    const t = toks[k];
    if (!t) break;
    if (RELATIVES.has(t.lower) && t.pos !== "DET") {
      relative = true;
      relativeVerb = false;
    } else if (t.value === ",") relative = false;
    else if (isFiniteVerb(toks, k)) {
      if (!relative) return true;
      relativeVerb = true;
    } else if (relative && toks[k]?.pos === "VERB") relativeVerb = true; // "which informed the lead supervisory authority"
  }
  return relative && !relativeVerb;
}

/** Where the subject of the modal at `trig` is to be looked for. */
export function subjectChunk(toks: readonly Tok[], segStart: number, trig: number, opensSentence: boolean): Chunk | null {
  let end = trig - 1;
  while (end >= segStart && (toks[end]?.pos === "ADV" || toks[end]?.lower === "also" || toks[end]?.lower === "therefore")) end--;
  if (toks[end]?.value === ",") {
    // "Financial entities, other than microenterprises, shall": skip the parenthetical.
    const open = openingComma(toks, end, segStart);
    if (open < 0) return null;
    end = open - 1;
  }
  if (end < segStart) return null;
  let first = skipListMarkers(toks, segStart, end);
  // "4 Only information that …", "Also, …"
  while (first < end && toks[first]?.pos === "ADV" && /^(?:only|also|further|moreover|however|similarly|likewise)$/i.test(toks[first]?.value ?? "")) first++;
  // A sentence that opens with its subject ("Decisions adopted by the Commission on the basis of
  // Article 26(4) …, shall remain", "A covered entity that also performs the duties of a coroner
  // may"): the first noun phrase, whatever commas and relative clauses follow it, unless a verb
  // of its own follows it ("The controller ensures that …").
  const opener = toks[first];
  const opensWithPhrase =
    opener !== undefined &&
    ["DET", "NOUN", "PROPN", "ADJ", "NUM"].includes(opener.pos) &&
    !CLAUSE_CUTS.has(opener.lower) &&
    !/ing$/.test(opener.lower) &&
    !COMPOUND_PREPOSITIONS.has(opener.lower);
  if (opensSentence && opensWithPhrase) {
    const np = nounPhraseAt(toks, first, end);
    if (np !== null && !hasOwnVerb(toks, np.to + 1, end)) return { from: first, to: end, relative: -1 };
  }
  // Otherwise the clause starts after the last comma, subordinator or verb before the modal.
  let start = segStart;
  for (let k = end; k >= segStart; k--) {
    const t = toks[k];
    if (!t) break;
    if (t.value === "," || t.value === ";" || t.value === ":") {
      start = k + 1;
      break;
    }
    const asClause = t.lower === "as" && (toks[k + 1]?.pos === "DET" || toks[k + 1]?.pos === "PRON");
    if ((CLAUSE_CUTS.has(t.lower) && t.pos !== "NOUN" && t.pos !== "DET") || asClause) {
      if (k === end && RELATIVES.has(t.lower)) return { from: k, to: end, relative: k };
      start = k + 1;
      break;
    }
    if (isFiniteVerb(toks, k)) {
      // "… the entity that is a microenterprise may": a relative clause inside the subject phrase.
      let r = k - 1;
      while (r > segStart && toks[r]?.pos === "ADV") r--;
      if (RELATIVES.has(toks[r]?.lower ?? "") && isNounLike(toks, r - 1)) {
        end = r - 1;
        k = r;
        continue;
      }
      start = k + 1;
      break;
    }
  }
  return start > end ? null : { from: start, to: end, relative: -1 };
}

/** The subject noun phrase(s) of a chunk, or a relative pronoun's position. */
export function subjectIn(toks: readonly Tok[], chunk: Chunk): { phrases: NounPhrase[]; relative: number; pronoun?: boolean } {
  if (chunk.relative >= 0) return { phrases: [], relative: chunk.relative };
  let k = skipListMarkers(toks, chunk.from, chunk.to);
  if (RELATIVES.has(toks[k]?.lower ?? "")) return { phrases: [], relative: k };
  // "…, it shall be accompanied by reasons": the previous subject.
  if (k === chunk.to && PRONOUNS.has(toks[k]?.lower ?? "")) return { phrases: [], relative: -1, pronoun: true };
  // "Observing basic cyber hygiene should …": a gerund clause is the subject, and no noun phrase.
  if (isGerund(toks[k], toks[k + 1])) return { phrases: [], relative: -1 };
  while (k <= chunk.to) {
    const t = toks[k];
    if (!t) break;
    if (CLAUSE_CUTS.has(t.lower) && t.pos !== "NOUN" && t.pos !== "DET") {
      if (RELATIVES.has(t.lower) && k === chunk.from) return { phrases: [], relative: k };
      k++;
      continue;
    }
    if (t.pos === "ADP" || t.pos === "SCONJ" || (t.pos === "PART" && t.lower === "to")) {
      // A prepositional phrase ("In such cases", "For the purposes of paragraph 1") is not the subject.
      const pp = nounPhraseAt(toks, k + 1, chunk.to);
      k = pp === null ? k + 1 : pp.to + 1;
      continue;
    }
    const np = nounPhraseAt(toks, k, chunk.to);
    if (np === null) {
      k++;
      continue;
    }
    // "Observing basic cyber hygiene should …": a gerund clause, not a noun phrase.
    if (isGerund(toks[np.from])) return { phrases: [], relative: -1 };
    return { phrases: coordinated(toks, np, chunk.to), relative: -1 };
  }
  return { phrases: [], relative: -1 };
}

/**
 * "The controller and the processor shall", "The Member States, the supervisory authorities, the
 * Board and the Commission shall": every party of a list that is the whole subject is bound. A
 * list that does not run up to the modal is not the subject ("Decisions adopted by …, shall").
 */
function coordinated(toks: readonly Tok[], np: NounPhrase, end: number): NounPhrase[] {
  const phrases = [np];
  let k = np.to + 1;
  for (let guard = 0; guard < 8; guard++) {
    const sep = toks[k];
    const final = sep?.pos === "CCONJ" || (sep?.value === "," && toks[k + 1]?.pos === "CCONJ");
    if (sep?.value !== "," && !final) break;
    const next = nounPhraseAt(toks, k + (sep?.value === "," && final ? 2 : 1), end);
    if (next === null) break;
    // "Legal and practical certainty", "Union or Member State law": one word before the
    // conjunction shares the head after it; that is one phrase, not two parties.
    if (phrases.length === 1 && np.from === np.to && next.to > next.from && final) return [{ ...np, to: next.to, head: next.head }];
    phrases.push(next);
    k = next.to + 1;
    if (final) return k > end ? phrases : [np];
  }
  return [np];
}

/** "EBA, ESMA or EIOPA, which …": the coordinated phrases ending at `end`, the antecedent of a relative. */
export function coordinatedEndingAt(toks: readonly Tok[], end: number, lower: number): NounPhrase[] {
  const last = nounPhraseEndingAt(toks, end, lower);
  if (last === null) return [];
  const out = [last];
  let sep = (last.determiner >= 0 ? last.determiner : last.from) - 1;
  let sawConjunction = false;
  for (let guard = 0; guard < 6 && sep > lower; guard++) {
    const t = toks[sep];
    if (!(t?.pos === "CCONJ" || t?.value === ",")) break;
    let k = sep - 1;
    if (toks[k]?.value === ",") k--;
    const np = nounPhraseEndingAt(toks, k, lower);
    if (np === null) break;
    const before = (np.determiner >= 0 ? np.determiner : np.from) - 1;
    // A phrase joined by a comma belongs to the list only when the list goes on before it
    // ("EBA, ESMA or EIOPA"), not after an introductory phrase ("… of this Regulation, the controller").
    const listGoesOn = before < lower || toks[before]?.value === "," || toks[before]?.pos === "CCONJ" || skipListMarkers(toks, lower, before) > before;
    // "to EBA, ESMA or EIOPA": a list of named bodies is whole even where it starts after a preposition.
    const namedBodies =
      sawConjunction && np.from === np.to && toks[np.from]?.pos === "PROPN" && out.every((p) => p.from === p.to && toks[p.from]?.pos === "PROPN");
    if (t.pos !== "CCONJ" && !listGoesOn && !namedBodies) break;
    if (t.pos === "CCONJ") sawConjunction = true;
    out.unshift(np);
    sep = before;
    if (!listGoesOn) break;
  }
  return sawConjunction ? out : [last];
}
