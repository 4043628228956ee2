// The predicate of a modal: its main verb, and the verb group built on it (coordinated verbs,
// particles and prepositions, passives, "be responsible for", "be required to V").

import type { Tok } from "../english-tokens.ts";
import { isDeterminer, isNounLike, isParticiple, nounPhraseAt } from "../noun-phrases.ts";
import { MODALS } from "./clause-words.ts";
import type { Trigger } from "./modality.ts";
import { BE_ADJ_PREPS, BE_TO, CATENATIVES, PARTICLES, PHRASAL_OBJECTS, PREP_VERBS } from "./verb-words.ts";
import { isBaseVerb, isListedVerb } from "./word-classes.ts";

export interface Predicate {
  /** Main verb (first) and the last token of the verb group. */
  verb: number;
  to: number;
  passive: boolean;
  /** Lemma of the verb that carries the meaning ("notify", not "be"). */
  lemma: string;
  /** "make that information publicly available": the adjective that completes the verb after its object. */
  adjective?: number;
}

/** The first base-form verb after the modal, skipping adverbs, parentheticals and "without undue delay". */
export function mainVerb(toks: readonly Tok[], trig: Trigger, segEnd: number): number {
  let commas = 0;
  for (let i = trig.last + 1; i <= segEnd && i <= trig.last + 45; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    if (!t || !prev) break;
    if (t.value === ";" || t.value === ":" || t.value === ".") return -1;
    if (t.value === ",") commas++;
    if (t.lower === "inter" && toks[i + 1]?.lower === "alia") {
      i++;
      continue;
    }
    if (MODALS.has(t.lower) && (t.pos === "AUX" || t.pos === "VERB")) return -1;
    // "are prohibited from entering into": the gerund is the verb.
    if (i === trig.last + 1 && toks[trig.last]?.lower === "from" && /ing$/.test(t.lower) && t.pos === "VERB") return i;
    // Right after the modal a verb wink tagged as a noun ("may disclose/NOUN, or provide") is still
    // the verb, and so is one after a parenthetical that a coordinated verb follows ("…, issue and renew").
    if (i === trig.last + 1 && isListedVerb(t) && !isDeterminer(toks[i - 1])) return i;
    if (prev.value === "," && isListedVerb(t) && toks[i + 1]?.pos === "CCONJ" && isListedVerb(toks[i + 2])) return i;
    if (!isBaseVerb(t)) continue;
    if (t.lower === "to" || prev.pos === "ADP" || prev.lower === "to") {
      if (i !== trig.last + 1) continue;
    }
    // A verb after a noun is the main verb only when no parenthetical is open ("shall, within
    // the time limits laid down …, notify" keeps looking past "laid").
    const okPrev =
      i === trig.last + 1 ||
      prev.value === "," ||
      prev.pos === "ADV" ||
      prev.lower === "not" ||
      prev.pos === "CCONJ" ||
      prev.pos === "PART" ||
      (commas % 2 === 0 && (prev.pos === "NOUN" || prev.pos === "PROPN" || prev.pos === "NUM"));
    if (okPrev) return i;
  }
  return -1;
}

export function predicateAt(toks: readonly Tok[], verb: number, segEnd: number): Predicate {
  const t = toks[verb];
  let to = verb;
  let passive = false;
  let lemma = t?.lemma ?? "";
  const skipAdv = (k: number): number => {
    let i = k;
    while (toks[i]?.pos === "ADV" && i < segEnd) i++;
    return i;
  };
  if (t?.lower === "be") {
    const n = skipAdv(verb + 1);
    const nt = toks[n];
    if (nt && isParticiple(nt)) {
      to = n;
      passive = true;
      lemma = nt.lemma;
      // "be carried out by", "be laid down in", "be held liable", "be taken into account"
      if (toks[n + 1]?.lower === "into" && (toks[n + 2]?.lower === "account" || toks[n + 2]?.lower === "consideration")) to = n + 2;
      else if (PARTICLES.has(toks[n + 1]?.lower ?? "") || toks[n + 1]?.lower === "out") to = n + 1;
      else if (toks[n + 1]?.pos === "ADJ" && !isNounLike(toks, n + 2) && toks[n + 2]?.pos !== "ADJ") to = n + 1;
    } else if (nt && (nt.pos === "ADJ" || BE_ADJ_PREPS.has(nt.lower))) {
      to = n;
      lemma = nt.lower;
      // "be withdrawn, as applicable, by …": a participle the tagger read as an adjective.
      if (/(?:ed|wn)$/.test(nt.lower) && !BE_ADJ_PREPS.has(nt.lower)) passive = true;
      if ((BE_ADJ_PREPS.get(nt.lower)?.has(toks[n + 1]?.lower ?? "") ?? false) && !(toks[n + 1]?.lower === "to" && isBaseVerb(toks[n + 2]))) to = n + 1;
    }
    // "be required to notify", "be entitled to lodge": the infinitive carries the meaning.
    const after = toks[to + 1];
    if (BE_TO.has(toks[to]?.lower ?? "") && after?.lower === "to" && isBaseVerb(toks[to + 2])) {
      to += 2;
      passive = false;
      lemma = toks[to]?.lemma ?? lemma;
    }
  } else if (t?.lower === "have" && toks[verb + 1]?.lower === "in" && toks[verb + 2]?.lower === "place") {
    to = verb + 2;
  } else if (t?.lower === "make" && toks[verb + 1]?.lower === "use" && toks[verb + 2]?.lower === "of") {
    to = verb + 2;
  } else if (t?.lower === "make" && (toks[verb + 1]?.lower === "public" || toks[verb + 1]?.lower === "available")) {
    // "make public a list", "make available the information"
    to = verb + 1;
  } else if (t?.lower === "make") {
    // "make that information publicly available": the adjective after the object is part of the verb.
    const np = nounPhraseAt(toks, verb + 1, segEnd);
    let after = np === null ? -1 : np.to + 1;
    while (after > 0 && toks[after]?.pos === "ADV") after++;
    const adj = toks[after]?.lower;
    if (np !== null && (adj === "available" || adj === "public" || adj === "accessible"))
      return { verb, to: verb, passive: false, lemma: "make", adjective: after };
  }
  if (CATENATIVES.has(toks[to]?.lemma ?? "") && toks[to + 1]?.lower === "to" && isBaseVerb(toks[to + 2])) {
    to += 2;
    lemma = toks[to]?.lemma ?? lemma;
  }
  // "use or disclose", "establish, implement and maintain": coordinated bare verbs share the modal.
  for (;;) {
    const a = toks[to + 1];
    const b = toks[to + 2];
    const c = toks[to + 3];
    if (a?.pos === "CCONJ" && isListedVerb(b) && to + 2 <= segEnd && (b?.pos === "VERB" || !isNounLike(toks, to + 3))) to += 2;
    else if (a?.value === "," && isListedVerb(b) && (toks[to + 3]?.value === "," || toks[to + 3]?.pos === "CCONJ") && to + 2 <= segEnd) to += 2;
    else if (a?.value === "," && b?.pos === "CCONJ" && isListedVerb(c) && to + 3 <= segEnd) to += 3;
    else break;
  }
  const last = toks[to];
  const next = toks[to + 1];
  if (last && next && !passive) {
    if (PARTICLES.has(next.lower) && next.pos !== "NOUN") to += 1;
    else if (PREP_VERBS.has(`${last.lemma} ${next.lower}`)) to += 1;
    else {
      for (const phrase of PHRASAL_OBJECTS) {
        if (phrase.every((w, n) => toks[to + 1 + n]?.lower === w)) {
          to += phrase.length;
          // "put in place, maintain and periodically test appropriate … plans"
          for (;;) {
            const a = toks[to + 1];
            let b = to + 2;
            while (toks[b]?.pos === "ADV") b++;
            if ((a?.value === "," || a?.pos === "CCONJ") && isListedVerb(toks[b])) to = b;
            else if (a?.value === "," && toks[to + 2]?.pos === "CCONJ" && isListedVerb(toks[to + 3])) to += 3;
            else break;
          }
          break;
        }
      }
    }
  }
  return { verb, to, passive, lemma };
}
