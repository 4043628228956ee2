import { isFurniture, isHeadingLike } from "./answer-cues.ts";
import { POINT, isLeadIn } from "./answer-lists.ts";
import { countWords, SHOWN_WORDS } from "./quoted-context.ts";
import type { Candidate } from "./sentence-pool.ts";

// How a quoted sentence (extractive-answer.ts) leans on the sentences around it: the one it refers
// back to, the paragraph it names, the sentences going on from it, the requirement a title opens.

/** A sentence that refers back to the one before it: its opening names it again ("That period", "Such …"). */
export const REFERS_BACK =
  /^(?:(?:That|This|Such|Those|These|The said)\s+\p{L}+|It\s+(?:shall|may|must)|(?:However|Nevertheless),|(?:Tale|Tali|Detto|Detta|Detti|Dette|Questo|Questa|Questi|Queste)\s+\p{L}+)|\b(?:for those purposes|such (?:lower )?\p{L}+ (?:is|shall|may))\b/u;

/**
 * A sentence leaning on the one before it ("That period …", "… of any such extension …"): it cannot
 * stand in for the rule (Art. 12(3)'s third sentence took the lead from its first).
 */
export const leansOnAnother = (text: string): boolean => REFERS_BACK.test(text) || /\b(?:such|tale|tali)\b/i.test(text);

/** How far into its paragraph a sentence referring back to the lead is looked for. */
const FOLLOW_ON_SENTENCES = 3;

/**
 * The sentences of the lead's paragraph up to the last one that refers back (REFERS_BACK), looking
 * at most FOLLOW_ON_SENTENCES on and stopping at a list item, a lead-in or another paragraph.
 */
export function followOn(units: readonly Candidate[], unit: Candidate): Candidate[] {
  if (isLeadIn(unit)) return [];
  const at = units.indexOf(unit);
  let last = at;
  for (let i = at + 1; i <= at + FOLLOW_ON_SENTENCES && i < units.length; i++) {
    const next = units[i];
    if (next === undefined || POINT.test(next.unit.text) || isFurniture(next.unit.text) || isLeadIn(next)) break;
    if (next.unit.paragraph !== unit.unit.paragraph || next.unit.pinpoint !== unit.unit.pinpoint) break;
    // A rule's discussion explains it; it does not go on with it.
    if (next.explanatory && !unit.explanatory) break;
    if (REFERS_BACK.test(next.unit.text)) last = i;
  }
  return units.slice(at + 1, last + 1);
}

/** The sentence before `unit` in its paragraph and point: the one a sentence referring back names. */
export function previousInParagraph(units: readonly Candidate[], unit: Candidate): Candidate | undefined {
  const before = units[units.indexOf(unit) - 1];
  return before !== undefined && before.unit.paragraph === unit.unit.paragraph && before.unit.pinpoint === unit.unit.pinpoint ? before : undefined;
}

/** The sentence a lead referring back names, when it can open the answer and both fit in what is shown first. */
export function sentenceBefore(units: readonly Candidate[], unit: Candidate): Candidate | undefined {
  const before = previousInParagraph(units, unit);
  if (before === undefined || isFurniture(before.unit.text) || isLeadIn(before) || POINT.test(before.unit.text)) return undefined;
  return countWords(before.unit.text) + countWords(unit.unit.text) <= SHOWN_WORDS ? before : undefined;
}

/** "paragraph (b)(2)(i) of this section" (CFR), "paragraph 1" or "paragraph 1 of this Article" (EU). */
const NAMED_PARAGRAPH =
  /\bparagraphs?\s+(?:((?:\([A-Za-z0-9]{1,6}\))+)\s+of this section|(\d{1,2})(?!\s*(?:\(|of\s+(?:Article|Regulation|Directive|Decision)\b)))/g;
/** A paragraph named as an exception is another case, not the rule the sentence builds on. */
const EXCEPTION_BEFORE = /\b(?:except|exception|notwithstanding|other than|without prejudice to|unless|derogation)\b[^.;:]{0,60}$/i;

/** Pinpoints of the paragraphs of its own provision a sentence names, in order, those named as exceptions left out. */
function pinpointsBuiltOn(unit: Candidate): string[] {
  return [...unit.unit.text.matchAll(NAMED_PARAGRAPH)]
    .filter((m) => !EXCEPTION_BEFORE.test(unit.unit.text.slice(0, m.index)))
    .map((m) => m[1] ?? `(${m[2] ?? ""})`);
}

/**
 * Rule "a lead naming a paragraph of its own provision is read with it": "If the covered entity is
 * unable to act … within the time required by paragraph (b)(2)(i) of this section, …" extends the
 * time limit that paragraph sets; "The communication referred to in paragraph 1 shall describe …"
 * says what paragraph 1 requires. The named paragraph's opening sentence follows the lead, when it
 * is earlier in the provision, states a rule (no lead-in, no furniture) and both fit in what is
 * shown first.
 */
export function paragraphNamedBy(units: readonly Candidate[], unit: Candidate): Candidate | undefined {
  for (const pinpoint of pinpointsBuiltOn(unit)) {
    const target = units.find((u) => u.unit.pinpoint !== null && (u.unit.pinpoint === pinpoint || u.unit.pinpoint.startsWith(pinpoint)));
    if (target === undefined || target === unit || target.unit.start >= unit.unit.start) continue;
    if (isFurniture(target.unit.text) || isLeadIn(target) || target.unit.pinpoint === unit.unit.pinpoint) return undefined;
    return countWords(target.unit.text) + countWords(unit.unit.text) <= SHOWN_WORDS ? target : undefined;
  }
  return undefined;
}

/**
 * The paragraphs of its own provision a sentence builds on ("within the time required by paragraph
 * (b)(2)(i) of this section"): their sentences, earlier in the provision, in order. Paragraphs
 * named as exceptions are left out.
 */
export function paragraphsBuiltOn(units: readonly Candidate[], unit: Candidate): Candidate[] {
  const out: Candidate[] = [];
  for (const pinpoint of pinpointsBuiltOn(unit)) {
    for (const u of units)
      if (u !== unit && u.unit.start < unit.unit.start && u.unit.pinpoint !== null && u.unit.pinpoint === pinpoint && !out.includes(u)) out.push(u);
  }
  return out;
}

/** A quoted sentence that only names a standard is read with the next one, which says what it requires. */
export function continuationOf(units: readonly Candidate[], c: Candidate): Candidate | undefined {
  if (!isHeadingLike(c.unit.text)) return undefined;
  const next = units[units.indexOf(c) + 1];
  if (next === undefined || POINT.test(next.unit.text) || isFurniture(next.unit.text)) return undefined;
  // Nor into a discussion: it explains the requirement, it is not its text.
  if (next.explanatory && !c.explanatory) return undefined;
  // Never across paragraphs: DORA Art. 19(6)(e) "other relevant public authorities under
  // national law." is not read with paragraph 7 printed after it.
  if (next.unit.paragraph !== c.unit.paragraph || next.unit.pinpoint !== c.unit.pinpoint) return undefined;
  // The requirement follows on the same line ("(b) Standard: Workstation use. Implement …"), or
  // on the next below a title alone on its line; a line such as "A.O. Mauriziano: dott.ssa …,
  // Responsabile Vigilanza …" is no title, and the paragraph after it is another matter.
  const text = c.result.section.text;
  const sameLine = text.slice(c.unit.end, next.unit.start).indexOf("\n") < 0;
  return sameLine || !/:\s*\S/.test(c.unit.text) ? next : undefined;
}
