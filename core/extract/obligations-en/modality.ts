// What makes a sentence a requirement: a modal ("shall", "must not", "is required to") and the
// modality it gives, or an imperative verb opening a list item or requirement.

import { textOf, type Tok } from "../english-tokens.ts";
import type { Modality } from "../obligation-types.ts";
import { LIST_MARKER, MODALS } from "./clause-words.ts";
import { IMPERATIVE_VERBS } from "./verb-words.ts";
import { isBaseVerb, isMarkerToken } from "./word-classes.ts";

export interface Trigger {
  first: number;
  last: number;
  modality: Modality;
  negated: boolean;
  /** The modal as the predicate shows it ("shall", "must not", "is required to"). */
  text: string;
}

export function triggers(toks: readonly Tok[], from: number, to: number, includeShould: boolean, text: string): Trigger[] {
  const out: Trigger[] = [];
  for (let i = from; i <= to; i++) {
    const t = toks[i];
    if (!t) continue;
    const next = toks[i + 1]?.lower ?? "";
    if (MODALS.has(t.lower) && (t.pos === "AUX" || t.pos === "VERB")) {
      if (t.lower === "should" && !includeShould) continue;
      // "as the case may be": an idiom, not a permission.
      if (t.lower === "may" && next === "be" && toks[i - 1]?.lower === "case") continue;
      const negated = next === "not" || next === "n't";
      const base: Modality = t.lower === "may" ? "may" : t.lower === "should" ? "should" : "must";
      // "may not" forbids; "shall not"/"must not" forbid; "should not" advises against.
      const modality: Modality = negated ? (base === "should" ? "should not" : "must not") : base;
      const last = negated ? i + 1 : i;
      out.push({ first: i, last, modality, negated, text: textOf(text, toks, i, last).toLowerCase() });
      continue;
    }
    if ((t.lower === "is" || t.lower === "are") && i + 2 <= to) {
      const neg = next === "not";
      const w = neg ? (toks[i + 2]?.lower ?? "") : next;
      const k = i + (neg ? 3 : 2);
      const prep = toks[k]?.lower ?? "";
      let found: Omit<Trigger, "text"> | null = null;
      if ((w === "required" || w === "obliged" || w === "obligated") && prep === "to")
        found = { first: i, last: k, modality: neg ? "may" : "must", negated: neg };
      else if (w === "prohibited" && (prep === "from" || prep === "to")) found = { first: i, last: k, modality: neg ? "may" : "must not", negated: !neg };
      else if (w === "permitted" && prep === "to") found = { first: i, last: k, modality: neg ? "must not" : "may", negated: neg };
      if (found !== null) out.push({ ...found, text: textOf(text, toks, found.first, found.last).toLowerCase() });
    }
  }
  return out;
}

/** A list item or requirement that opens with an imperative verb ("Limit system access …", "(A) … Conduct an assessment"). */
export function imperativeStart(toks: readonly Tok[], from: number, to: number): number {
  let i = from;
  // Markers and labels before the verb: "(1)(i)", "Standard:", "Implementation specification:", "(A) Risk analysis (Required)."
  for (let guard = 0; guard < 40 && i <= to; guard++) {
    const t = toks[i];
    if (!t) return -1;
    if (!LIST_MARKER.test(t.value) && !isMarkerToken(toks, i)) break;
    i++;
  }
  const t = toks[i];
  if (!t || !/^[A-Z]/.test(t.value)) return -1;
  if (!IMPERATIVE_VERBS.has(t.lower)) return -1;
  // "Report incidents" is imperative; "Report of the Secretary" is a title.
  const next = toks[i + 1];
  if (next === undefined || next.lower === "of" || next.pos === "AUX" || MODALS.has(next.lower)) return -1;
  if (next.pos === "VERB" && !isBaseVerb(next) && next.value !== ",") return -1;
  return i;
}
