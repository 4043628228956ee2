import winkNLP from "wink-nlp";
import type { WinkMethods } from "wink-nlp";
import model from "wink-eng-lite-web-model";
import { findItalianObligations } from "./obligations-it.ts";
import { findDeadlines } from "./deadlines.ts";
import type { Obligation, Modality } from "./obligation-types.ts";

export type { Obligation, Modality } from "./obligation-types.ts";

// English obligations from wink-nlp's sentence splitter and POS tags (UPOS). The triplet is read
// off the tag sequence around the modal: the noun phrase before it, modal + main verb (+ particle),
// and the noun phrases after the verb up to a clause boundary. Italian has no tagger here and
// uses rules (obligations-it.ts).

/** A loaded English pipeline. Loading costs ~100 ms: create one per job and pass it in. */
export interface EnglishNlp {
  wink: WinkMethods;
}

export function createEnglishNlp(): EnglishNlp {
  // Only the stages we read: sentence boundaries and POS. NER/negation/sentiment would cost time.
  return { wink: winkNLP(model, ["sbd", "pos"]) };
}

export interface ObligationOptions {
  language?: "en" | "it";
  nlp?: EnglishNlp;
  /** Keep "should" sentences as modality "should" (default true); false drops them. */
  includeShould?: boolean;
}

interface Tok {
  value: string;
  lower: string;
  pos: string;
  start: number;
  end: number;
}

const MODALS = new Set(["shall", "must", "may", "should"]);
const PREFILTER = /\b(?:shall|must|may|should|required to|prohibited from|obliged to|not permitted to|permitted to)\b/i;
const PRONOUNS = new Set(["it", "they", "he", "she"]);
const RELATIVES = new Set(["which", "who", "that"]);
const LINKING_ADP = new Set(["to", "of", "for", "on", "about", "from", "between", "regarding", "concerning", "with", "into"]);
const PARTICLES = new Set(["out", "up", "down", "off", "away", "back"]);
const PREP_VERBS = new Set(["comply with", "refrain from", "cooperate with", "rely on", "account for", "provide for", "consist of", "refer to", "respond to", "adhere to", "contribute to"]);
const SUBJECT_POS = new Set(["NOUN", "PROPN", "ADJ", "NUM", "DET", "PRON"]);
const NP_POS = new Set(["NOUN", "PROPN", "ADJ", "NUM", "DET"]);
const CLAUSE_STARTERS = new Set(["unless", "where", "when", "if", "provided", "whereby", "while", "whereas", "so", "in", "pursuant", "without", "within", "after", "before", "by", "as", "which", "that", "who"]);
const DEMONSTRATIVES = new Set(["that", "this", "these", "those"]);
const LEADING_DET = /^(?:the|a|an)\s+/i;

function tokensOf(nlp: EnglishNlp, text: string): { toks: Tok[]; sentences: Array<[number, number]> } {
  const doc = nlp.wink.readDoc(text);
  const its = nlp.wink.its;
  const values = doc.tokens().out(its.value);
  const tags = doc.tokens().out(its.pos);
  const spans = doc.sentences().out(its.span);
  const toks: Tok[] = [];
  let cursor = 0;
  values.forEach((v, i) => {
    const value = String(v);
    // wink does not expose character offsets: align each token to the source text.
    const at = text.indexOf(value, cursor);
    const start = at >= 0 && at - cursor < 64 ? at : cursor;
    const end = at >= 0 && at - cursor < 64 ? at + value.length : cursor;
    cursor = end;
    toks.push({ value, lower: value.toLowerCase(), pos: String(tags[i] ?? "X"), start, end });
  });
  const sentences: Array<[number, number]> = [];
  for (const s of spans) {
    if (Array.isArray(s) && typeof s[0] === "number" && typeof s[1] === "number") sentences.push([s[0], s[1]]);
  }
  return { toks, sentences };
}

function textOf(text: string, toks: Tok[], from: number, to: number): string {
  const a = toks[from];
  const b = toks[to];
  if (!a || !b || to < from) return "";
  return text.slice(a.start, b.end).replace(/\s+/g, " ").trim();
}

interface Trigger {
  /** Index of the first token of the modal expression and of the last one. */
  first: number;
  last: number;
  modality: Modality;
  negated: boolean;
}

/** Finds the modal expressions of one sentence: "shall", "shall not", "is required to", "are prohibited from". */
function triggers(toks: Tok[], from: number, to: number, includeShould: boolean): Trigger[] {
  const out: Trigger[] = [];
  for (let i = from; i <= to; i++) {
    const t = toks[i];
    if (!t) continue;
    const next = toks[i + 1]?.lower ?? "";
    const next2 = toks[i + 2]?.lower ?? "";
    if (MODALS.has(t.lower) && (t.pos === "AUX" || t.pos === "VERB")) {
      if (t.lower === "should" && !includeShould) continue;
      const negated = next === "not" || next === "n't";
      const base: Modality = t.lower === "may" ? "may" : t.lower === "should" ? "should" : "must";
      // "may not" forbids; "shall not"/"must not" forbid; "should not" advises against.
      const modality: Modality = negated ? (base === "should" ? "should not" : "must not") : base;
      out.push({ first: i, last: negated ? i + 1 : i, modality, negated });
      continue;
    }
    if ((t.lower === "is" || t.lower === "are") && i + 2 <= to) {
      const neg = next === "not";
      const w = neg ? next2 : next;
      const prep = toks[i + (neg ? 3 : 2)]?.lower ?? "";
      const k = i + (neg ? 3 : 2);
      if ((w === "required" || w === "obliged" || w === "obligated") && prep === "to") {
        out.push({ first: i, last: k, modality: neg ? "may" : "must", negated: neg });
      } else if (w === "prohibited" && (prep === "from" || prep === "to")) {
        out.push({ first: i, last: k, modality: neg ? "may" : "must not", negated: !neg });
      } else if (w === "permitted" && prep === "to") {
        out.push({ first: i, last: k, modality: neg ? "must not" : "may", negated: neg });
      }
    }
  }
  return out;
}

/** The noun phrase opening a clause ("Credit institutions classified as …" → "Credit institutions"). */
function leadingNounPhrase(toks: Tok[], from: number, limit: number): { from: number; to: number } | null {
  let i = from;
  // Skip list numbering ("1.", "(a)") and sentence adverbials up to the first determiner/noun.
  while (i < limit && (toks[i]?.pos === "NUM" || toks[i]?.pos === "PUNCT" || /^[a-z]$/i.test(toks[i]?.value ?? ""))) i++;
  const start = i;
  let lastNoun = -1;
  for (; i < limit; i++) {
    const t = toks[i];
    if (!t) break;
    if (t.pos === "NOUN" || t.pos === "PROPN") lastNoun = i;
    else if (!(t.pos === "DET" || t.pos === "ADJ" || t.value === "-")) break;
  }
  return lastNoun >= start ? { from: start, to: lastNoun } : null;
}

/** Noun phrase ending just before `end` (exclusive), walking left over NP-ish tags. */
function subjectBefore(toks: Tok[], sentStart: number, end: number): { from: number; to: number } | null {
  let j = end - 1;
  while (j >= sentStart && (toks[j]?.pos === "ADV" || toks[j]?.pos === "PART")) j--;
  // "Financial entities, where applicable, shall" is rare before the modal; skip one parenthetical.
  if (toks[j]?.value === "," && j > sentStart) {
    let k = j - 1;
    while (k > sentStart && toks[k]?.value !== "," && j - k < 12) k--;
    if (toks[k]?.value === ",") j = k - 1;
  }
  const to = j;
  while (j >= sentStart) {
    const t = toks[j];
    if (!t) break;
    const left = toks[j - 1];
    if (SUBJECT_POS.has(t.pos) || t.value === "-" || t.value === "'s" || t.value === "’s") {
      j--;
      continue;
    }
    // "the controller and the processor", "competent authority of the home Member State"
    if ((t.pos === "CCONJ" || t.lower === "of") && left && (left.pos === "NOUN" || left.pos === "PROPN")) {
      j--;
      continue;
    }
    break;
  }
  const from = j + 1;
  if (from > to) return null;
  // A subject needs a noun or pronoun; adjectives alone ("feasible") are not one.
  for (let k = from; k <= to; k++) {
    const p = toks[k]?.pos;
    if (p === "NOUN" || p === "PROPN" || p === "PRON") return { from, to };
  }
  return null;
}

interface Predicate {
  verbFrom: number;
  verbTo: number;
}

function mainVerb(toks: Tok[], after: number, sentEnd: number): Predicate | null {
  let commas = 0;
  for (let i = after + 1; i <= sentEnd; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    if (!t || !prev) break;
    if (t.value === ",") commas++;
    if (t.pos !== "VERB" && t.pos !== "AUX") continue;
    if (MODALS.has(t.lower)) return null;
    // "shall without undue delay notify": a verb after a noun is the main verb only when no
    // parenthetical is open; inside ", within the time limits laid down …," it is a participle.
    const okPrev =
      i === after + 1 || prev.value === "," || prev.pos === "ADV" || prev.lower === "not" || prev.lower === "also" || prev.pos === "CCONJ" ||
      (commas === 0 && prev.pos === "NOUN");
    if (!okPrev || (prev.pos === "ADP" && i !== after + 1)) continue;
    let to = i;
    // "be notified", "be responsible", "have been informed"
    if (t.lower === "be" || t.lower === "have") {
      const n = toks[i + 1];
      const n2 = toks[i + 2];
      if (n && (n.pos === "VERB" || n.pos === "ADJ")) to = i + 1;
      if (n && n.lower === "been" && n2 && n2.pos === "VERB") to = i + 2;
    }
    // "may not use or disclose": coordinated bare verbs share the modal.
    while (toks[to + 1]?.pos === "CCONJ" && toks[to + 2]?.pos === "VERB" && to + 2 <= sentEnd) to += 2;
    const part = toks[to + 1];
    const verb = toks[to];
    if (part && verb && (PARTICLES.has(part.lower) || PREP_VERBS.has(`${verb.lower} ${part.lower}`))) to += 1;
    return { verbFrom: i, verbTo: to };
  }
  return null;
}

/** Noun phrases after the predicate, joined by linking prepositions, up to a clause boundary. */
function objectAfter(toks: Tok[], from: number, sentEnd: number, passive: boolean): { from: number; to: number } | null {
  let i = from;
  const agentive = passive && (toks[i]?.lower === "by" || toks[i]?.lower === "to" || toks[i]?.lower === "with");
  if (agentive) i++;
  let lastNoun = -1;
  let start = -1;
  const limit = Math.min(sentEnd, from + 40);
  for (; i <= limit; i++) {
    const t = toks[i];
    if (!t) break;
    if (t.pos === "PUNCT" && t.value !== "-" && t.value !== "’" && t.value !== "'") break;
    if (start >= 0 && CLAUSE_STARTERS.has(t.lower) && !LINKING_ADP.has(t.lower)) break;
    const prev = toks[i - 1];
    const next = toks[i + 1];
    // wink tags plural nouns in compounds as verbs ("personal data breaches", "audit logs",
    // "ICT-related"): a VERB right after a noun/adjective/hyphen and before a boundary is a noun here.
    // "data subject": the tagger reads "subject" as the adjective of "subject to".
    const dataSubject = /^subjects?$/.test(t.lower) && prev?.lower === "data";
    const compound =
      dataSubject ||
      (t.pos === "VERB" && start >= 0 && prev !== undefined &&
      ((/s$/.test(t.lower) && (prev.pos === "NOUN" || prev.pos === "PROPN" || prev.pos === "ADJ")) || prev.value === "-") &&
      (next === undefined || next.pos === "PUNCT" || next.pos === "ADP" || next.pos === "NOUN" || next.pos === "CCONJ" || next.pos === "VERB"));
    if (NP_POS.has(t.pos) || t.value === "-" || t.pos === "PRON" || compound) {
      if (start < 0) start = i;
      if (t.pos === "NOUN" || t.pos === "PROPN" || t.pos === "NUM" || t.pos === "PRON" || compound) lastNoun = i;
      continue;
    }
    if (start >= 0 && (LINKING_ADP.has(t.lower) || t.pos === "CCONJ") && i === lastNoun + 1) continue;
    if (start < 0 && DEMONSTRATIVES.has(t.lower)) {
      start = i;
      continue;
    }
    if (start < 0 && (t.pos === "ADV" || t.pos === "PART")) continue;
    break;
  }
  if (start < 0 || lastNoun < start) return null;
  return { from: agentive ? from : start, to: lastNoun };
}

function clean(s: string): string {
  return s.replace(LEADING_DET, "").replace(/\s+/g, " ").trim();
}

/** Obligations, prohibitions, permissions (and recommendations) in `text`, in order. */
export function findObligations(text: string, options: ObligationOptions = {}): Obligation[] {
  if ((options.language ?? "en") === "it") return findItalianObligations(text);
  const nlp = options.nlp ?? createEnglishNlp();
  const includeShould = options.includeShould ?? true;
  const { toks, sentences } = tokensOf(nlp, text);
  const out: Obligation[] = [];
  let previousSubject = "";
  for (const [sFrom, sTo] of sentences) {
    const first = toks[sFrom];
    const last = toks[sTo];
    if (!first || !last) continue;
    const sentence = text.slice(first.start, last.end);
    if (!PREFILTER.test(sentence)) continue;
    const found = triggers(toks, sFrom, sTo, includeShould);
    found.forEach((trig, n) => {
      const nextStart = found[n + 1]?.first ?? sTo + 1;
      const segStart = n === 0 ? sFrom : (found[n - 1]?.last ?? sFrom) + 1;
      let subject = "";
      let subj = subjectBefore(toks, segStart, trig.first);
      // "The communication … referred to in paragraph 1 shall": the NP before the modal sits in a
      // prepositional/participial modifier; the subject is the clause's opening noun phrase.
      const before = subj ? toks[subj.from - 1] : undefined;
      if (!subj || (before && (before.pos === "ADP" || before.pos === "VERB" || before.value === ","))) {
        subj = leadingNounPhrase(toks, segStart, trig.first) ?? subj;
      }
      // "… and shall notify": a coordinated modal shares the previous subject.
      if (!subj && n > 0) subject = out[out.length - 1]?.subject ?? "";
      if (subj) {
        subject = clean(textOf(text, toks, subj.from, subj.to));
        const head = subject.toLowerCase();
        if (RELATIVES.has(head)) {
          // "…authority, which shall immediately transmit": the antecedent is the NP before "which".
          let k = subj.from - 1;
          if (toks[k]?.value === ",") k--;
          const ante = subjectBefore(toks, sFrom, k + 1);
          subject = ante ? clean(textOf(text, toks, ante.from, ante.to)) : subject;
        } else if (PRONOUNS.has(head) && previousSubject !== "") {
          subject = previousSubject;
        }
      }
      const verb = mainVerb(toks, trig.last, Math.min(sTo, nextStart - 1));
      const modalText = textOf(text, toks, trig.first, trig.last);
      const predicate = verb ? `${modalText} ${textOf(text, toks, verb.verbFrom, verb.verbTo)}` : modalText;
      const passive = verb !== null && toks[verb.verbFrom]?.lower === "be";
      const obj = verb ? objectAfter(toks, verb.verbTo + 1, Math.min(sTo, nextStart - 1), passive) : null;
      const object = obj ? clean(textOf(text, toks, obj.from, obj.to)) : "";
      // A modal without a recognisable verb ("shall at least:") introduces a list we do not split.
      if (!verb) return;
      const segEnd = toks[Math.min(sTo, nextStart - 1)]?.end ?? last.end;
      const segFrom = toks[segStart]?.start ?? first.start;
      const deadlines = findDeadlines(text.slice(segFrom, segEnd), "en");
      const o: Obligation = {
        subject,
        predicate: predicate.replace(/\s+/g, " "),
        object,
        modality: trig.modality,
        negated: trig.negated,
        span: { start: first.start, end: last.end },
        sentence: sentence.replace(/\s+/g, " ").trim(),
      };
      if (deadlines.length > 0) o.deadline = deadlines.join("; ");
      out.push(o);
      if (subject !== "") previousSubject = subject;
      subj = null;
    });
  }
  return out;
}
