import { isFurniture } from "./answer-cues.ts";
import { countWords } from "./quoted-context.ts";
import type { Candidate } from "./sentence-pool.ts";
import { LIST_TYPES, MARKED_POINT } from "./answer-shapes.ts";

// A quoted answer's lists (extractive-answer.ts): a lead-in ending in ":" and the points it
// introduces, each point with the sentences continuing it, quoted whole.

/** Coverage of the question a list (lead-in and points together) needs to count as answering it. */
export const LIST_MIN_COVERAGE = 0.3;
/** Points of a list quoted with its lead-in (all of DORA's and the GDPR's lists; CFR runs longer). */
const MAX_POINTS = 16;
/**
 * A lead-in that says nothing of its own ("For the purposes of this Regulation:", "In this
 * subpart:", "(ii) Implementation specifications:") leads only a question asking for the list.
 */
const BARE_LEAD_IN_WORDS = 8;
/**
 * Lead-ins that say nothing themselves ("For the purposes of this Regulation:", "Definitions:",
 * "(ii) Implementation specifications:").
 * A short one that does ("This Regulation does not apply to:") stays with its point: without it,
 * "(e) insurance intermediaries … which are microenterprises" answered "Does DORA apply to …?"
 * the wrong way round.
 */
const EMPTY_LEAD_IN =
  /^(?:\(?[\divxlc]{0,6}[.)]?\s*)*(?:implementation specifications?|(?:for the purposes? of|as used in|in) (?:this|the present) [\w-]+(?:,? the following (?:definitions|terms)(?: shall)? apply)?|(?:the following )?definitions(?: shall)? apply|definitions|ai fini d\S* presente \S+(?:,? si intende per)?)\s*:?\s*$/i;
export function isBareLeadIn(c: Candidate, type: string): boolean {
  if (LIST_TYPES.has(type)) return false;
  // "Covered entity means:" is no bare lead-in for "Which entities are covered entities?": its points are the definition.
  return EMPTY_LEAD_IN.test(c.unit.text.trim()) || (type === "definition" && countWords(c.unit.text) <= BARE_LEAD_IN_WORDS && c.features.definedTerm === 0);
}

const NUMBERED_ITEM = /^\d{1,2}\.\s+\p{Ll}/u;
/**
 * A list point: "(a) …", "b) …", "(a)(1) …", "• …", and "1. la descrizione del prodotto;" — a
 * number opening a lower-case line is an item (an article's paragraphs open with a capital).
 */
export const POINT = { test: (text: string): boolean => MARKED_POINT.test(text) || NUMBERED_ITEM.test(text) };

export const isLeadIn = (c: Candidate): boolean => c.unit.text.trimEnd().endsWith(":");

/**
 * Whether a sentence belongs to a list item: it opens one ("(c) Standard: …") or continues the
 * item above it on the same marked line ("Implement physical safeguards …" after "(c) …": CFR
 * points run several sentences).
 */
function inItem(unit: Candidate, previous: Candidate | undefined): boolean {
  if (POINT.test(unit.unit.text)) return true;
  return previous !== undefined && unit.unit.pinpoint !== null && unit.unit.pinpoint === previous.unit.pinpoint;
}

/** The item a sentence sits in: its opening sentence and the ones continuing it. */
export function itemOf(units: readonly Candidate[], unit: Candidate): Candidate[] {
  let at = units.indexOf(unit);
  while (at > 0 && !POINT.test(units[at]?.unit.text ?? "") && units[at]?.unit.pinpoint !== null && units[at - 1]?.unit.pinpoint === units[at]?.unit.pinpoint)
    at--;
  const opening = units[at];
  if (opening === undefined || !POINT.test(opening.unit.text)) return [unit];
  const out = [opening];
  for (let i = at + 1; i < units.length; i++) {
    const u = units[i];
    if (u === undefined || POINT.test(u.unit.text) || u.unit.pinpoint === null || u.unit.pinpoint !== opening.unit.pinpoint) break;
    if (!isFurniture(u.unit.text)) out.push(u);
  }
  return out;
}

/**
 * The list's lead-in: the nearest earlier sentence ending in ":" with only list items between.
 * Rule "a list's lead-in is its points' parent": where both carry a pinpoint, the lead-in's is the
 * point's or above it. In a CFR section every paragraph opens with a marker, so without it HIPAA
 * § 164.504(e)(2) had been quoted under (a)'s "Summary health information means …, and:".
 */
export function leadInOf(units: readonly Candidate[], point: Candidate): Candidate | undefined {
  const own = point.unit.pinpoint;
  for (let i = units.indexOf(point) - 1; i >= 0; i--) {
    const u = units[i];
    if (u === undefined) return undefined;
    if (isLeadIn(u)) return own === null || u.unit.pinpoint === null || own.startsWith(u.unit.pinpoint) ? u : undefined;
    if (!inItem(u, units[i - 1])) return undefined;
  }
  return undefined;
}

/** Levels of a pinpoint: "(a)(1)(ii)" has three. */
export const pinpointLevels = (pinpoint: string): number => pinpoint.match(/\(/g)?.length ?? 0;

/**
 * The items right after a lead-in (each with its continuing sentences and the points below it), up
 * to MAX_POINTS items. Where pinpoints say which level a point is at, only the lead-in's own items
 * count: HIPAA § 164.308(a) lists eight standards, each with points (A)–(D) of its own, and counting
 * every point cut the list after its fourth standard.
 */
export function pointsOf(units: readonly Candidate[], leadIn: Candidate): Candidate[] {
  const out: Candidate[] = [];
  let items = 0;
  // Items sit below the lead-in's own marker: "(3) Business associate includes:" ends at "(4)".
  const own = leadIn.unit.pinpoint;
  let itemLevel: number | null = null;
  for (let i = units.indexOf(leadIn) + 1; i < units.length; i++) {
    const u = units[i];
    if (u === undefined || !inItem(u, units[i - 1])) break;
    const pinpoint = u.unit.pinpoint;
    if (own !== null && !(pinpoint ?? "").startsWith(own)) break;
    if (POINT.test(u.unit.text)) {
      // The first point's level is the items' level; a point below it is part of an item.
      const level = pinpoint === null ? null : pinpointLevels(pinpoint);
      itemLevel ??= level;
      if ((level === null || itemLevel === null || level <= itemLevel) && ++items > MAX_POINTS) break;
    }
    if (!isFurniture(u.unit.text)) out.push(u);
  }
  return out;
}

/** Sentences of one unmarked line a lead-in introduces, when no points follow it. */
const MAX_LINE_UNITS = 4;

/**
 * What a lead-in followed by no marked points introduces: the line after it ("… il fornitore è
 * tenuto ad avvertire tempestivamente:" / "A.O. Mauriziano: dott.ssa …, Responsabile Vigilanza
 * Dispositivi Medici …", the tender's Art. 5), its sentences up to MAX_LINE_UNITS.
 */
export function unmarkedLineAfter(units: readonly Candidate[], leadIn: Candidate): Candidate[] {
  const at = units.indexOf(leadIn);
  const first = units[at + 1];
  if (first === undefined || POINT.test(first.unit.text) || isLeadIn(first)) return [];
  const text = first.result.section.text;
  const line = text.lastIndexOf("\n", first.unit.start);
  if (line < leadIn.unit.end - 1 || text.slice(leadIn.unit.end, line).trim() !== "") return [];
  const out: Candidate[] = [];
  for (let i = at + 1; i < units.length && out.length < MAX_LINE_UNITS; i++) {
    const u = units[i];
    if (u === undefined || text.lastIndexOf("\n", u.unit.start) !== line || isFurniture(u.unit.text)) break;
    out.push(u);
  }
  return out;
}
