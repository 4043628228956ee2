// The English obligation grammar put together, sentence by sentence: the modals of a sentence
// (modality.ts), the subject each one takes (subject.ts, and from the sentences before it), its
// predicate (predicate.ts) and complements (complements.ts), assembled into obligations.
import { findDeadlines } from "../deadlines.ts";
import { matchInstrumentAt } from "../instruments.ts";
import { textOf, tokenize, type EnglishNlp, type Tok } from "../english-tokens.ts";
import { isDeterminer, isNounLike, nounPhraseAt } from "../noun-phrases.ts";
import type { Obligation } from "../obligation-types.ts";
import { PREFILTER, PRONOUNS, RELATIVES } from "./clause-words.ts";
import { clauseEnd, complementsOf } from "./complements.ts";
import { imperativeStart, triggers, type Trigger } from "./modality.ts";
import { mainVerb, predicateAt } from "./predicate.ts";
import { coordinatedEndingAt, subjectChunk, subjectIn } from "./subject.ts";
import { nounPhraseSpan, skipListMarkers, type Span } from "./word-classes.ts";

export interface EnglishObligationOptions {
  includeShould?: boolean;
  /** Subject of imperative requirements ("Limit system access …"): the party the document addresses. */
  addressee?: string;
}

function clean(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

interface Lead {
  subjects: string[];
  trigger: Trigger;
}

/** One text being read: its tokens, the obligations found so far, and what carries from one sentence to the next. */
interface Reading {
  text: string;
  toks: Tok[];
  out: Obligation[];
  /** The subjects of the last obligation, taken by "it"/"they" and a coordinated "… and shall". */
  previousSubjects: string[];
  /** The subject and modal a "must:" list hands to the imperative items that follow. */
  lead: Lead | null;
}

/** The text of a phrase as an obligation names it. */
function phraseText(text: string, toks: readonly Tok[], s: Span): string {
  // "Regulation (EU) 2016/1011" cut to "Regulation" by the chunker is a citation, not a thing.
  let from = s.from;
  while (from < s.to && isDeterminer(toks[from])) from++;
  const at = toks[from];
  if (at !== undefined && matchInstrumentAt(text, at.start) !== null) return "";
  // Articles go; "this"/"such" stay for naming to see ("this Regulation" is the document itself).
  return clean(textOf(text, toks, s.from, s.to)).replace(/^(?:the|a|an)\s+/iu, "");
}

/** Adds one obligation per subject for the verb at `verbIndex` under the modal `trig`. */
function emit(
  r: Reading,
  subjects: string[],
  trig: Trigger,
  sFrom: number,
  sTo: number,
  segStart: number,
  segEnd: number,
  verbIndex: number,
  implicitModal: boolean,
): void {
  const { text, toks, out } = r;
  const spanText = (s: Span): string => phraseText(text, toks, s);
  const first = toks[sFrom];
  const last = toks[sTo];
  if (!first || !last) return;
  const pred = predicateAt(toks, verbIndex, segEnd);
  const comp = complementsOf(text, toks, pred, segEnd);
  // An imperative list header ("Implement: (A) Security reminders") names its objects in the list.
  if (implicitModal && comp.object === null) return;
  const verbText = clean(`${textOf(text, toks, pred.verb, pred.to)}${pred.adjective === undefined ? "" : ` ${toks[pred.adjective]?.value ?? ""}`}`);
  const predicate = clean(`${trig.text} ${verbText}${comp.preposition === "" ? "" : ` ${comp.preposition}`}`).toLowerCase();
  const segFrom = toks[segStart]?.start ?? first.start;
  // A time limit printed in the list a colon opens after the verb belongs to an item, not to this duty.
  const colon = toks.slice(pred.to + 1, segEnd + 1).findIndex((t) => t.value === ":");
  const segTo = toks[colon < 0 ? segEnd : pred.to + colon]?.end ?? last.end;
  const deadlines = findDeadlines(text.slice(segFrom, segTo), "en");
  const sentence = clean(text.slice(first.start, last.end));
  for (const subject of subjects) {
    const o: Obligation = {
      subject,
      predicate,
      object: comp.object === null ? "" : spanText(comp.object),
      modality: trig.modality,
      negated: trig.negated,
      span: { start: first.start, end: last.end },
      sentence,
    };
    if (comp.recipient !== null) o.recipient = spanText(comp.recipient);
    if (deadlines.length > 0) o.deadline = deadlines.join("; ");
    if (implicitModal) o.implicit = true;
    const trigFrom = toks[implicitModal ? verbIndex : trig.first];
    const trigTo = toks[implicitModal ? verbIndex : trig.last];
    if (trigFrom && trigTo) o.trigger = { start: trigFrom.start, end: trigTo.end };
    out.push(o);
  }
}

/** English obligations, prohibitions, permissions and recommendations in `text`, in order. */
export function findEnglishObligations(nlp: EnglishNlp, text: string, options: EnglishObligationOptions = {}): Obligation[] {
  const includeShould = options.includeShould ?? true;
  const { toks, sentences } = tokenize(nlp, text);
  const r: Reading = { text, toks, out: [], previousSubjects: [], lead: null };
  for (const [sFrom, sTo] of sentences) {
    const first = toks[sFrom];
    const last = toks[sTo];
    if (!first || !last) continue;
    const sentence = text.slice(first.start, last.end);
    if (!PREFILTER.test(sentence)) {
      // An item of a "must:" list, or an imperative requirement of a document that addresses a party.
      const verbAt = imperativeStart(toks, sFrom, sTo);
      if (verbAt < 0) continue;
      // The addressee binds the requirement's statement, the section's first sentence, not its discussion.
      const statement = options.addressee !== undefined && sFrom === sentences[0]?.[0];
      const implied: Lead | null =
        r.lead ??
        (statement && options.addressee !== undefined
          ? { subjects: [options.addressee], trigger: { first: verbAt, last: verbAt, modality: "must", negated: false, text: "must" } }
          : null);
      if (implied !== null) emit(r, implied.subjects, implied.trigger, sFrom, sTo, verbAt, clauseEnd(toks, verbAt, sTo), verbAt, true);
      continue;
    }
    modalSentence(r, sFrom, sTo, includeShould);
  }
  return r.out;
}

/** The obligations of a sentence with modals: each modal with its subject, verb and complements. */
function modalSentence(r: Reading, sFrom: number, sTo: number, includeShould: boolean): void {
  const { text, toks } = r;
  const found = triggers(toks, sFrom, sTo, includeShould, text);
  let sentenceSubjects: string[] = [];
  found.forEach((trig, n) => {
    const segStart = n === 0 ? sFrom : (found[n - 1]?.last ?? sFrom) + 1;
    const segEnd = Math.min(sTo, (found[n + 1]?.first ?? sTo + 1) - 1);
    const subjects = subjectsOf(r, sFrom, segStart, trig, n, sentenceSubjects);
    let verb = mainVerb(toks, trig, segEnd);
    // "Personal data shall be: (a) processed lawfully …": the verb opens a list the rules do not split.
    if (verb >= 0 && toks[predicateAt(toks, verb, segEnd).to + 1]?.value === ":") verb = -1;
    if (verb < 0) {
      // "A covered entity must, in accordance with § 164.306:" introduces a list of imperatives.
      const colon = toks.slice(trig.last + 1, segEnd + 2).findIndex((t) => t.value === ":");
      if (colon >= 0 && subjects.length > 0) r.lead = { subjects, trigger: trig };
      return;
    }
    if (subjects.length === 0) return;
    emit(r, subjects, trig, sFrom, sTo, segStart, segEnd, verb, false);
    r.previousSubjects = subjects;
    if (n === 0) sentenceSubjects = subjects;
  });
}

/** The subjects of the `n`th modal of a sentence, from its clause or from the sentences before it. */
function subjectsOf(r: Reading, sFrom: number, segStart: number, trig: Trigger, n: number, sentenceSubjects: string[]): string[] {
  const { text, toks, previousSubjects } = r;
  const spanText = (s: Span): string => phraseText(text, toks, s);
  let subjects: string[] = [];
  const chunk = subjectChunk(toks, segStart, trig.first, n === 0);
  let beforeModal = trig.first - 1;
  while (beforeModal > segStart && toks[beforeModal]?.pos === "ADV") beforeModal--;
  const coordinated = n > 0 && toks[beforeModal]?.pos === "CCONJ";
  const found2 = chunk === null || coordinated ? { phrases: [], relative: -1 } : subjectIn(toks, chunk);
  const openingSentence = n === 0 && toks[beforeModal]?.pos === "CCONJ" ? nounPhraseAt(toks, skipListMarkers(toks, sFrom, trig.first), trig.first) : null;
  if (openingSentence !== null && ["DET", "NOUN", "PROPN", "ADJ"].includes(toks[skipListMarkers(toks, sFrom, trig.first)]?.pos ?? "")) {
    // "Commercial telecommunications services are commonly based on … and may also include": the
    // modal shares the subject of the sentence's first verb.
    subjects = [spanText(nounPhraseSpan(openingSentence))];
  } else if (coordinated) {
    // "… and shall notify", "… or refuse …, and must give": a coordinated modal shares the
    // subject of the sentence's main clause (not of a relative clause in between).
    subjects = sentenceSubjects.length > 0 ? sentenceSubjects : previousSubjects;
  } else if (found2.phrases.length > 0) {
    // "EBA, ESMA or EIOPA shall" after an introductory phrase: the whole list, not its tail.
    const list = chunk !== null && found2.phrases.length >= 2 ? coordinatedEndingAt(toks, chunk.to, segStart) : [];
    const phrases = list.length > found2.phrases.length && (list[0]?.from ?? chunk?.from ?? 0) < (chunk?.from ?? 0) ? list : found2.phrases;
    subjects = phrases.map((p) => {
      // "the solutions organizations may use": two plural nouns before the modal are a phrase and
      // the subject of a relative clause without its pronoun; the subject is the second.
      const a = toks[p.to - 1];
      const b = toks[p.to];
      const direct = beforeModal === p.to;
      if (
        direct &&
        phrases.length === 1 &&
        a !== undefined &&
        b !== undefined &&
        p.to > p.from &&
        isNounLike(toks, p.to - 1) &&
        /[^s]s$/.test(a.lower) &&
        /[^s]s$/.test(b.lower)
      )
        return spanText({ from: p.to, to: p.to });
      return spanText(nounPhraseSpan(p));
    });
    const headWord = toks[found2.phrases[0]?.from ?? -1]?.lower ?? "";
    if (found2.phrases.length === 1 && PRONOUNS.has(headWord) && previousSubjects.length > 0) subjects = previousSubjects;
  } else if ("pronoun" in found2 && found2.pronoun === true) {
    subjects = previousSubjects;
  } else if (found2.relative >= 0) {
    // "… to the competent authority, which shall immediately transmit": the antecedent acts.
    let k = found2.relative - 1;
    if (toks[k]?.value === ",") k--;
    subjects = coordinatedEndingAt(toks, k, sFrom).map((p) => spanText(nounPhraseSpan(p)));
  } else if (n > 0 && (chunk === null || toks.slice(chunk.from, chunk.to + 1).every((t) => t.pos === "CCONJ" || t.pos === "PUNCT" || t.pos === "ADV"))) {
    subjects = previousSubjects;
  }
  return subjects.filter((s) => !PRONOUNS.has(s.toLowerCase()) && !RELATIVES.has(s.toLowerCase()));
}
