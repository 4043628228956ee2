import type { AnswerRule } from "../../model/answer-rules.ts";
import type { AnswerHints } from "../../model/answer-types.ts";
import { isFurniture } from "./answer-cues.ts";
import { contentStems, type TextLanguage } from "./lexical.ts";
import { LIST_MIN_COVERAGE, POINT, isBareLeadIn, isLeadIn, itemOf, leadInOf, pointsOf, unmarkedLineAfter } from "./answer-lists.ts";
import { assign, MIN_CONTENT_WORDS, otherDefinition, rank, RELATIVE_FLOOR, type Quote, type Reading } from "./quoted-sentences.ts";
import { followOn, leansOnAnother, paragraphNamedBy, paragraphsBuiltOn, previousInParagraph, REFERS_BACK, sentenceBefore } from "./sentence-relations.ts";
import type { Candidate } from "./sentence-pool.ts";
import { LIST_TYPES, WEAK_CUE_TYPES } from "./answer-shapes.ts";

// The lead of a quoted answer (extractive-answer.ts): the lead's rules, tried in order, choose the
// sentence that answers; then it is quoted with what it needs to be read (its list item and the
// list's lead-in, the list it introduces, the sentence it refers back to, the paragraph it names).

/** Whether a sentence sets out what follows when a rule is not (or cannot be) complied with. */
export const isFailureCase = (text: string): boolean => FAILURE_CASE.test(text);

/** Scores this close are a tie. */
const FAILURE_CASE_TIE = 0.99;
/**
 * A sentence setting out what follows when a rule is not complied with ("If the controller does
 * not take action …", "If the covered entity is unable to act … within the time required …").
 */
const FAILURE_CASE =
  /^(?:\(?[a-z0-9]{1,3}\)\s*|\d{1,3}\.\s+)?(?:If|Where|When|Qualora|Se|Ove)\b[^,;:]{0,160}?\b(?:does not|do not|did not|fails? to|failed to|has not|have not|is not|are not|is unable to|are unable to|cannot|non)\b/i;
/** A sentence saying what was asked leads over a better-matching one that does not, down to this share of its score. */
const CUE_FIRST_FLOOR = 0.6;
/** For a question asking for a list, a list leads over a better-matching sentence down to this share of its score. */
const LIST_FIRST_FLOOR = 0.9;

/**
 * A table flattened into a sentence, opening with its column headers in capitals ("OPERATORI
 * ECONOMICI RIENTRANTI PERCENTUALE PERCENTUALE … 1° Operatore Economico … 50% 100%"): it may hold
 * the figure asked for, but a sentence saying it leads before it.
 */
const tableRow = (c: Candidate): boolean => /^(?:[\p{Lu}\d°'’.,-]{2,}\s+){5,}/u.test(c.unit.text);
/** A sentence leads over a table row scoring up to this much more. */
const TABLE_FLOOR = 0.9;

/** The content stems of a follow-up's own words (none for a question that is not one). */
function subjectStems(hints: AnswerHints | undefined): string[] {
  if (hints?.subject === undefined) return [];
  return [...new Set(contentStems(hints.subject, hints.language ?? "en"))];
}

function hasAll(c: Candidate, stems: readonly string[], language: TextLanguage): boolean {
  const own = new Set(contentStems(c.unit.text, language));
  return stems.every((s) => own.has(s));
}

/**
 * A match stating the question's threshold is the case asked about: a time limit elsewhere that
 * does not state it answers another matter. For "Within what time must a covered entity notify
 * the Secretary of a breach affecting 500 or more individuals?", § 164.408(b) had given the lead
 * to § 164.526's "within the time required" for amending a record.
 */
export const losesThreshold = (top: Candidate, c: Candidate): boolean => top.features.threshold > 0 && c.features.threshold <= 0;

interface LeadChoice {
  /** The best match, past a failure case. */
  top: Candidate;
  /** The sentence saying what was asked, when it displaced the best match. */
  cued: Candidate | undefined;
  lead: Candidate;
  leadRule: AnswerRule;
}

/** The lead: the best answering sentence (`first`), unless one of the lead's rules finds a better one. */
export function chooseLead(r: Reading, first: Candidate, hints: AnswerHints | undefined): LeadChoice {
  const { relevant, type, unitsOf } = r;
  /** The best acceptable sentence saying as much as `weak` (its cue) and scoring within `floor` of it. */
  const alternativeTo = (weak: Candidate, acceptable: (c: Candidate) => boolean, floor: number): Candidate | undefined =>
    relevant.find((c) => acceptable(c) && c.features.cue >= weak.features.cue && rank(c) >= floor * rank(weak));
  // Between sentences matching alike, the rule leads, not what happens when it is not followed:
  // GDPR Art. 12(3)'s "within one month of receipt of the request" over Art. 12(4)'s "If the
  // controller does not take action on the request …", which scored exactly alike.
  // Rule "a failure case yields to the rule it names": "If the covered entity is unable to act …
  // within the time required by paragraph (b)(2)(i) …, it may extend the time …" scores with the
  // words of the rule it extends; the paragraph it names sets that rule, and leads when it says
  // as much of what was asked (its cue) and is nearly as relevant.
  // The failure case keeps the lead when the question asks about it: it says a word of the
  // question that the rule does not ("Can the covered entity extend the time …?").
  const asksFailure = (rule: Candidate): boolean => [...first.stems].some((s) => r.asked.has(s) && !rule.stems.has(s));
  const failing = isFailureCase(first.unit.text);
  const namedRule = failing
    ? paragraphsBuiltOn(unitsOf(first), first).find(
        (c) =>
          relevant.includes(c) &&
          !isFailureCase(c.unit.text) &&
          c.features.cue >= first.features.cue &&
          rank(c) >= CUE_FIRST_FLOOR * rank(first) &&
          !asksFailure(c),
      )
    : undefined;
  const top =
    namedRule ?? (failing ? (alternativeTo(first, (c) => !isFailureCase(c.unit.text) && !leansOnAnother(c.unit.text), FAILURE_CASE_TIE) ?? first) : first);
  // The best match shares the question's words but does not say what it asks for ("Operators
  // shall notify major incidents to the competent authority." for "how quickly …?"): the best
  // sentence that does (the time limit, the amount, the date) leads when it is nearly as relevant,
  // and the match follows it. A deadline question answered without a time limit is not answered.
  // The top match's own section is searched first (its next paragraph often sets the time limit:
  // "2. The notification shall be submitted within 24 hours", sharing few words with the question),
  // for a sentence sharing at least one: a tender's "20% della fornitura" on defects had taken the
  // lead of a question on the insurance's minimum cover from the sentence stating it.
  const cuedType = !WEAK_CUE_TYPES.has(type) && type !== "other";
  // A sentence stating the question's threshold on the other side ("less than 500" for "500 or
  // more") sets the other case's time limit: it never takes the lead from the case asked about.
  const otherCase = (c: Candidate): boolean => c.features.threshold < 0;
  // A sentence referring back shares the words of the one it names: "This period shall not exceed
  // five years" speaks of the publication the sentence before it keeps online.
  const coversByReference = (c: Candidate): boolean => REFERS_BACK.test(c.unit.text) && (previousInParagraph(unitsOf(c), c)?.coverage ?? 0) > 0;
  // Rule "a discussion explains the requirement, it does not replace it": a cue in a requirement's
  // discussion or an example ("… terminates all processes … except those …") never takes the lead
  // from a rule stated outright (NIST SP 800-171 3.1.11's "Terminate (automatically) a user session
  // after a defined condition.").
  const explainsInstead = (c: Candidate): boolean => c.explanatory && !top.explanatory;
  const sameSection = (): Candidate | undefined =>
    unitsOf(top)
      .filter(
        (c) =>
          c !== top &&
          c.features.cue > 0 &&
          !explainsInstead(c) &&
          (c.coverage > 0 || coversByReference(c)) &&
          c.stems.size >= MIN_CONTENT_WORDS &&
          !isFurniture(c.unit.text) &&
          !otherCase(c),
      )
      .sort((a, b) => b.features.cue - a.features.cue || rank(b) - rank(a))[0];
  // A definition question is answered by the sentence defining its term (a glossary's "Risk A
  // measure of …" has no "means" to cue it), when one is nearly as relevant as the best match.
  const defining =
    type === "definition" && top.features.definedTerm === 0
      ? relevant.find((c) => c.features.definedTerm === 1 && rank(c) >= CUE_FIRST_FLOOR * rank(top))
      : undefined;
  // A table row leads only when no sentence says the same nearly as well ("La fornitura nella misura
  // minima del 50% … verrà affidata alla ditta prima in graduatoria" over the table of quotas).
  const prose = tableRow(top) ? alternativeTo(top, (c) => !tableRow(c), TABLE_FLOOR) : undefined;
  // A cue does not cross regulations: a time limit in another document answers another matter
  // (a GDPR right to object had taken the lead of a question the NIST standard's visitor control
  // answered, for saying "may exercise").
  const sameDocument = (c: Candidate): boolean => c.result.section.documentId === top.result.section.documentId;
  const saysWhatWasAsked =
    cuedType && top.features.cue === 0
      ? (sameSection() ??
        relevant.find(
          (c) =>
            c.features.cue > 0 && sameDocument(c) && !otherCase(c) && !losesThreshold(top, c) && !explainsInstead(c) && rank(c) >= CUE_FIRST_FLOOR * rank(top),
        ))
      : undefined;
  const cued = defining ?? prose ?? saysWhatWasAsked;
  // A question asking for a list ("What must the notification contain?") is answered by a list: a
  // lead-in whose points cover the question leads over a sentence matching as well that lists
  // nothing (GDPR Art. 33(3)'s "shall at least:" over Art. 33(1)'s 72 hours). The labelled figures
  // are unchanged by it: it changes which provision leads, not what is quoted.
  const listed =
    LIST_TYPES.has(type) && cued === undefined && !isLeadIn(top)
      ? relevant.find((c) => isLeadIn(c) && c.features.listCoverage >= LIST_MIN_COVERAGE && rank(c) >= LIST_FIRST_FLOOR * rank(top))
      : undefined;
  // A follow-up ("And what about processors?") asks about its own words in the previous scope: the
  // retrieval query is both questions, so the previous answer's lead scores best again. The best
  // answering sentence that says the follow-up's words leads, when the lead does not say them.
  const subject = subjectStems(hints);
  const says = (c: Candidate): boolean => subject.length > 0 && hasAll(c, subject, hints?.language ?? "en");
  const followed = subject.length > 0 && !says(top) ? relevant.find((c) => says(c) && rank(c) >= RELATIVE_FLOOR * rank(top)) : undefined;
  // The lead's rules in order: the first that found a sentence decides (answer-rules.ts).
  const decided = (
    [
      [followed, "follow-up-subject"],
      [defining, "defines-the-term"],
      [prose, "prose-before-table"],
      [saysWhatWasAsked, "says-what-was-asked"],
      [listed, "list-for-a-list-question"],
    ] as const
  ).find(([c]) => c !== undefined);
  const lead = decided?.[0] ?? top;
  const leadRule: AnswerRule = decided?.[1] ?? (top !== first ? "rule-before-failure-case" : "best-match");
  return { top, cued, ...pointOfLeadIn(r, lead, leadRule) };
}

/** A lead that is a lead-in gives the lead to its point answering the question, when one does. */
function pointOfLeadIn(r: Reading, lead: Candidate, leadRule: AnswerRule): { lead: Candidate; leadRule: AnswerRule } {
  const { relevant, type, unitsOf } = r;
  // A bare lead-in ("For the purposes of this Regulation:") answers only a question asking for its
  // list; any other question is answered by its best point (the definition asked for).
  if (isLeadIn(lead) && isBareLeadIn(lead, type)) {
    const units = unitsOf(lead);
    const best = pointsOf(units, lead)
      .filter((p) => relevant.includes(p))
      .sort((a, b) => rank(b) - rank(a))[0];
    if (best !== undefined) return { lead: best, leadRule: "point-of-bare-lead-in" };
  } else if (isLeadIn(lead) && !LIST_TYPES.has(type)) {
    // The point that answers leads, not its lead-in: a lead-in scores with its points' words
    // (listCoverage), so for a question not asking for the list ("What if reaching each person
    // would involve disproportionate effort?") the point saying more of what was asked than the
    // lead-in itself takes the lead, under that lead-in (GDPR Art. 34(3)(c)).
    const best = pointsOf(unitsOf(lead), lead)
      .filter((p) => relevant.includes(p) && p.coverage > lead.coverage)
      .sort((a, b) => b.coverage - a.coverage || rank(b) - rank(a))[0];
    if (best !== undefined) return { lead: best, leadRule: "answering-point" };
  }
  return { lead, leadRule };
}

/** Where the lead was quoted: what the answer's order puts first. */
export interface LeadPlacement {
  /** The sentence opening the answer: the list's lead-in, or the lead's item's opening. */
  head: Candidate;
  /** The opening sentence of the lead's item (the lead itself when it is in no list). */
  opening: Candidate;
  /** The lead's list item, the lead alone when it is in none. */
  item: Candidate[];
  /** The sentence the lead refers back to, quoted before it. */
  referredTo: Candidate | undefined;
  /** The paragraph the lead names, quoted after it. */
  namedParagraph: Candidate | undefined;
}

/** Quotes the lead with what it needs to be read; `cued` displaced `top`, which then supports it. */
export function quoteLead(q: Quote, top: Candidate, cued: Candidate | undefined): LeadPlacement {
  const { lead, leadRule, roles, type, relevant } = q;
  const leadUnits = q.unitsOf(lead);
  // The best sentence inside a list item ("Implement physical safeguards for all workstations …"
  // under "(c) Standard: Workstation security.") answers with its item, introduced by the list's
  // lead-in: the point means nothing without it, and the other items answer other questions.
  const item = itemOf(leadUnits, lead);
  const opening = item[0] ?? lead;
  const leadIn = POINT.test(opening.unit.text) ? leadInOf(leadUnits, opening) : undefined;
  // A definition is one item of a list of definitions: it leads by itself, without "For the purposes of …:".
  const bareLeadIn = leadIn !== undefined && isBareLeadIn(leadIn, type);
  const head = leadIn !== undefined && !bareLeadIn ? leadIn : opening;
  assign(q, head, "lead", leadIn !== undefined && !bareLeadIn ? "lead-in-of-lead" : "item-of-lead");
  if (leadIn !== undefined && !bareLeadIn) {
    // Where the question asks for the list, or several of its items answer it, the list comes whole.
    const points = pointsOf(leadUnits, leadIn);
    const relevantItems = new Set(points.filter((p) => relevant.includes(p)).map((p) => itemOf(leadUnits, p)[0]));
    const whole = LIST_TYPES.has(type) || (relevantItems.size >= 2 && type !== "definition");
    // The lead's own item is quoted whatever the list reads as (a point below another marker).
    for (const u of whole ? [...points, ...item.filter((x) => !points.includes(x))] : item) if (!roles.has(u)) assign(q, u, "point", "item-of-lead");
  } else {
    for (const u of item) if (!roles.has(u)) assign(q, u, u === head ? "lead" : "point", "item-of-lead");
    if (head !== lead && !roles.has(lead)) assign(q, lead, "point", leadRule);
  }
  // The lead itself introduces a list (the answer to "what must …"): all of it, in order.
  // So does the lead's item when it ends in one: "(c) … Content of notification —(1) Elements. The
  // notification … shall include, to the extent possible:" and its points (A)–(E).
  const listHead = isLeadIn(head) && head === lead ? head : head === opening ? item.find((u) => u !== head && isLeadIn(u)) : undefined;
  if (listHead !== undefined) {
    const points = pointsOf(leadUnits, listHead);
    for (const p of points.length > 0 ? points : unmarkedLineAfter(leadUnits, listHead)) if (!roles.has(p)) assign(q, p, "point", "list-of-lead");
  }
  if (cued !== undefined && !roles.has(top) && !otherDefinition(q, top)) assign(q, top, "support", "displaced-match");
  // Rule "a sentence referring back is read after the one it names": a lead opening "This period
  // shall not exceed five years …" means nothing without the sentence setting the period; that
  // sentence is quoted before it when both fit in what is shown first.
  const referredTo = head === lead && REFERS_BACK.test(lead.unit.text) ? sentenceBefore(leadUnits, lead) : undefined;
  // Both open the answer: the sentence named and the one saying what was asked (not a list point).
  if (referredTo !== undefined && !roles.has(referredTo)) assign(q, referredTo, "lead", "referred-back-to");
  const namedParagraph = referredTo === undefined && head === lead && !isLeadIn(lead) ? paragraphNamedBy(leadUnits, lead) : undefined;
  if (namedParagraph !== undefined && !roles.has(namedParagraph)) assign(q, namedParagraph, "lead", "named-paragraph");
  // The lead's paragraph goes on about it ("… within one month of receipt of the request. That
  // period may be extended by two further months …"; "… a lower age for those purposes provided
  // that such lower age is not below 13 years"): the sentences up to one referring back come with it.
  for (const u of followOn(leadUnits, head)) if (!roles.has(u)) assign(q, u, "point", "follow-on");
  return { head, opening, item, referredTo, namedParagraph };
}
