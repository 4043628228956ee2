// What the predicate governs: its object (with "of" phrases and coordinated nouns), the agent or
// addressee of a passive, and for verbs of telling the party told; adverbials in between are skipped.

import type { Tok } from "../english-tokens.ts";
import { nounPhraseAt } from "../noun-phrases.ts";
import { ADVERBIAL_PHRASES, MODALS, RELATIVES } from "./clause-words.ts";
import type { Predicate } from "./predicate.ts";
import { TELL, TELL_PARTY_FIRST } from "./verb-words.ts";
import { isBaseVerb, isFiniteVerb, isGerund, isListedVerb, isPartyPhrase, nounPhraseSpan, type Span } from "./word-classes.ts";

/** True when tokens from..to are only an adverbial: adverbs, a listed phrase, or one prepositional phrase. */
function isAdverbial(toks: readonly Tok[], from: number, to: number): boolean {
  let i = from;
  while (i <= to && toks[i]?.pos === "ADV") i++;
  if (i > to) return true;
  const phrase = ADVERBIAL_PHRASES.find((p) => p.every((w, n) => toks[i + n]?.lower === w));
  if (phrase !== undefined) return isAdverbial(toks, i + phrase.length, to);
  // A chain of prepositional phrases: ", in accordance with Union and national sectoral law,".
  let k = i;
  for (let guard = 0; guard < 6 && (toks[k]?.pos === "ADP" || toks[k]?.pos === "SCONJ" || (k > i && toks[k]?.pos === "CCONJ")); guard++) {
    const np = nounPhraseAt(toks, k + 1, to);
    if (np === null) return false;
    if (np.to === to) return true;
    k = np.to + 1;
  }
  return false;
}

/** Skips adverbs and adverbial parentheticals (", where appropriate,", ", upon their request,") after `k`. */
function skipAdverbials(toks: readonly Tok[], k: number, end: number): number {
  let i = k;
  for (let guard = 0; guard < 6 && i <= end; guard++) {
    while (i <= end && (toks[i]?.pos === "ADV" || toks[i]?.lower === "not")) i++;
    const phrase = ADVERBIAL_PHRASES.find((p) => p.every((w, n) => toks[i + n]?.lower === w));
    if (phrase !== undefined) {
      i += phrase.length;
      continue;
    }
    if (toks[i]?.value === ",") {
      let j = i + 1;
      while (j <= end && j - i < 20 && toks[j]?.value !== "," && toks[j]?.value !== ";") j++;
      if (toks[j]?.value === "," && isAdverbial(toks, i + 1, j - 1)) {
        i = j + 1;
        continue;
      }
    }
    break;
  }
  return i;
}

export interface Complements {
  object: Span | null;
  recipient: Span | null;
  /** A preposition to add to the predicate ("be submitted to", "comply with"). */
  preposition: string;
}

/** The end of the clause an object may run to: ";", ".", a relative or subordinate start. */
export function clauseEnd(toks: readonly Tok[], from: number, segEnd: number): number {
  for (let i = from; i <= segEnd; i++) {
    const v = toks[i]?.lower ?? "";
    if (v === ";" || v === "." || v === ":") return i - 1;
    if (v === "where" || v === "unless" || v === "if" || v === "when" || v === "provided" || v === "whereby") return i - 1;
  }
  return segEnd;
}

/** Object (with "of" phrases and coordinated nouns) and, for verbs of telling, the party told. */
export function complementsOf(text: string, toks: readonly Tok[], pred: Predicate, segEnd: number): Complements {
  const end = clauseEnd(toks, pred.to + 1, segEnd);
  const lastOfPredicate = toks[pred.to];
  // The predicate already ends with its preposition ("comply with", "be responsible for").
  const prepInPredicate = lastOfPredicate !== undefined && (lastOfPredicate.pos === "ADP" || (lastOfPredicate.lower === "to" && pred.to > pred.verb));
  let k = skipAdverbials(toks, pred.to + 1, end);
  if (pred.passive && !prepInPredicate) {
    // The agent or addressee follows the participle ("be submitted to", "be withdrawn, as
    // applicable, by"); "be implemented prior to the date" says when, not to whom.
    k = toks[pred.to + 1]?.value === "," ? skipAdverbials(toks, pred.to + 1, end) : pred.to + 1;
    const prep = toks[k]?.lower ?? "";
    if (prep === "to" || prep === "by" || prep === "with") {
      // "be facilitated by, on the one hand, close cooperation …"
      const np = nounPhraseAt(toks, skipAdverbials(toks, k + 1, end), end);
      if (np === null) return { object: null, recipient: null, preposition: "" };
      const span = nounPhraseSpan(np);
      return { object: span, recipient: prep === "to" && TELL.has(pred.lemma) && isPartyPhrase(text, toks, span) ? span : null, preposition: prep };
    }
    return { object: null, recipient: null, preposition: "" };
  }
  if (pred.adjective !== undefined) {
    // "make that information publicly available to the public authorities"
    const np = nounPhraseAt(toks, pred.verb + 1, end);
    return { object: np === null ? null : nounPhraseSpan(np), recipient: toRecipientAfter(text, toks, pred.adjective + 1, end), preposition: "" };
  }
  // Prepositional phrases before the object ("submit to the Commission a report", "notify without undue delay the …").
  const before: Array<{ prep: string; span: Span }> = [];
  for (let guard = 0; guard < 3 && k <= end; guard++) {
    const t = toks[k];
    if (!t || t.pos !== "ADP" || prepInPredicate) break;
    const np = nounPhraseAt(toks, k + 1, end);
    if (np === null) break;
    const after = skipAdverbials(toks, np.to + 1, end);
    // Only a phrase followed directly by another noun phrase is a fronted adverbial; otherwise the clause's object is absent.
    if (nounPhraseAt(toks, after, end) === null) break;
    before.push({ prep: t.lower, span: nounPhraseSpan(np) });
    k = after;
  }
  // "that …", "whether …": a clause; "as regards …", "such as …": no object either.
  if (toks[k]?.lower === "that" || toks[k]?.lower === "whether" || toks[k]?.lower === "as") return { object: null, recipient: null, preposition: "" };
  // "may include implementing automated mechanisms", "contribute to reinforcing …": a gerund clause.
  const np = isGerund(toks[k], toks[k + 1]) ? null : nounPhraseAt(toks, k, end);
  let object: Span | null = np === null ? null : nounPhraseSpan(np);
  if (np !== null && object !== null) {
    // "policies and procedures", "the laws, regulations and administrative provisions": a
    // coordination of nouns is one object.
    let k2 = object.to + 1;
    for (let guard = 0; guard < 8; guard++) {
      const sep = toks[k2];
      const isFinal = sep?.pos === "CCONJ" || (sep?.value === "," && toks[k2 + 1]?.pos === "CCONJ");
      if (sep?.value !== "," && !isFinal) break;
      const at = k2 + (sep?.value === "," && isFinal ? 2 : 1);
      if (isBaseVerb(toks[at]) || MODALS.has(toks[at]?.lower ?? "")) break;
      const next = nounPhraseAt(toks, at, end);
      if (next === null || (next.determiner >= 0 && np.determiner < 0)) break;
      // "… the penalty, and the penalty is final": the start of a clause, not a listed thing.
      if (isFiniteVerb(toks, next.to + 1) || MODALS.has(toks[next.to + 1]?.lower ?? "")) break;
      // "delay or reject a transaction, or attempt to adversely affect": a verb, not a listed thing.
      if (
        next.from === next.to &&
        isListedVerb(toks[next.from]) &&
        toks[next.to + 1]?.lower === "to" &&
        (isBaseVerb(toks[next.to + 2]) || toks[next.to + 2]?.pos === "ADV")
      )
        break;
      k2 = next.to + 1;
      if (isFinal) {
        object = { from: object.from, to: next.to };
        break;
      }
    }
  }
  let recipient: Span | null = null;
  if (TELL.has(pred.lemma) || prepInPredicate) {
    const party = np === null ? null : { from: np.determiner >= 0 ? np.determiner : np.from, to: np.head };
    if (party !== null && TELL_PARTY_FIRST.has(pred.lemma) && isPartyPhrase(text, toks, party)) {
      // "notify the supervisory authority of the breach": the party is told, the breach is what;
      // "inform the competent authorities of the financial entities": one party.
      // "inform their clients that are potentially affected of any appropriate protection measures"
      let at = skipAdverbials(toks, party.to + 1, end);
      if (RELATIVES.has(toks[at]?.lower ?? "")) {
        let k = at + 1;
        while (k <= end && k - at < 8 && !["of", "about"].includes(toks[k]?.lower ?? "") && toks[k]?.value !== ",") k++;
        if (toks[k]?.lower === "of" || toks[k]?.lower === "about") at = k;
      }
      const prep = toks[at]?.lower ?? "";
      const what = prep === "of" || prep === "about" || prep === "on" ? nounPhraseAt(toks, at + 1, end) : null;
      if (what !== null && prep === "of" && at === party.to + 1 && isPartyPhrase(text, toks, nounPhraseSpan(what)) && np !== null && np.to > np.head) {
        recipient = object;
        object = null;
      } else {
        recipient = party;
        object = what === null ? null : nounPhraseSpan(what);
      }
    } else if (object !== null && pred.lemma === "provide" && toks[object.to + 1]?.lower === "with" && isPartyPhrase(text, toks, object)) {
      // "provide the data subject with the information"
      recipient = object;
      const what = nounPhraseAt(toks, object.to + 2, end);
      object = what === null ? null : nounPhraseSpan(what);
    } else if (TELL.has(pred.lemma)) {
      const fronted = before.find((b) => b.prep === "to" && isPartyPhrase(text, toks, b.span));
      recipient = fronted?.span ?? toRecipientAfter(text, toks, object === null ? k : object.to + 1, end);
    }
  }
  return { object, recipient, preposition: "" };
}

/** The first "to <party>" after the object, within the clause ("report incidents to the competent authority"). */
function toRecipientAfter(text: string, toks: readonly Tok[], from: number, end: number): Span | null {
  for (let i = from; i <= end && i - from < 30; i++) {
    const t = toks[i];
    if (!t) break;
    if (t.value === "," && RELATIVES.has(toks[i + 1]?.lower ?? "")) return null;
    if (t.lower !== "to") continue;
    const np = nounPhraseAt(toks, i + 1, end);
    if (np !== null && isPartyPhrase(text, toks, nounPhraseSpan(np))) return nounPhraseSpan(np);
  }
  return null;
}
