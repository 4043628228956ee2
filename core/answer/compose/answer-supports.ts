import { jaccard } from "../../text/index.ts";
import { isFurniture } from "./answer-cues.ts";
import { LIST_MIN_COVERAGE, POINT, isLeadIn, itemOf, leadInOf, pinpointLevels, pointsOf } from "./answer-lists.ts";
import type { SectionUnits } from "./quoted-context.ts";
import { assign, MIN_CONTENT_WORDS, otherDefinition, rank, RELATIVE_FLOOR, type Quote } from "./quoted-sentences.ts";
import { followOn } from "./sentence-relations.ts";
import type { Candidate } from "./sentence-pool.ts";

// What a quoted answer (extractive-answer.ts) cites beside its lead: the top sections' best
// sentences, the supporting sentences and lists, and the contenders further down the ranking,
// each read with the sentences going on from it.

/**
 * Sentences backing the lead, past its list. The UI shows what fits in SHOWN_WORDS and keeps the
 * rest under "show more", but they are cited: on ObliQA dev the passage that answers is often the
 * second or third retrieved section. Six rather than five cited the answering passage more often
 * on both ObliQA dev and the labelled set, and left what is shown before "show more" unchanged.
 */
const MAX_SUPPORT = 6;
/** A supporting sentence from a section the answer already quotes counts for less than one from a new section. */
const SAME_SECTION_FACTOR = 0.85;
/** Sections at the top of the answer ranking that keep their best answering sentence among the sources. */
const TOP_SECTIONS_CITED = 3;
/** A top section's best sentence is cited down to this share of the lead's score, even when the pool does not call it relevant. */
const TOP_SECTION_FLOOR = 0.7;
/** Below the top sections, a provision whose best sentence scores this share of the lead's is cited as a contender. */
const CONTENDER_FLOOR = 0.8;
const NEAR_DUPLICATE = 0.7;
/** Lists quoted whole beside the lead's own (each with its lead-in). */
export const MAX_SUPPORTING_LISTS = 1;

// Near-duplicates are dropped within a section only: the same rule printed in two provisions
// (ADGM's client-money and safe-custody rules on mandates; HIPAA's compliance dates in Parts 162
// and 164) is two provisions to cite, and the one asked about is often the second. Dropped
// across sections too, the answers on ObliQA dev questions cited a gold passage less often, even
// when only sentences differing in a word were dropped.
const nearDuplicate = (a: Candidate, b: Candidate): boolean => a.resultIndex === b.resultIndex && jaccard(a.stems, b.stems) >= NEAR_DUPLICATE;

/** What the rules citing a section's best sentence read of the sections. */
interface SectionPicks {
  /** Whether the answer already quotes a sentence of this one's section. */
  quotedSection: (c: Candidate) => boolean;
  /** A section's best sentence that can stand alone (no lead-in, no point), scoring at least `floor` of the lead unless relevant. */
  bestOwn: (index: number, floor: number, orRelevant: boolean) => Candidate | undefined;
  /** Quotes a section's best sentence when it is a lead-in, with its best point; whether it did. */
  leadInWithPoint: (index: number, floor: number) => boolean;
}

function sectionPicks(q: Quote, sections: readonly SectionUnits[]): SectionPicks {
  const { roles } = q;
  const best = rank(q.lead);
  const quotedSection = (c: Candidate): boolean => [...roles.keys()].some((r) => r.resultIndex === c.resultIndex);
  const sectionAt = new Map(sections.map((s) => [s.resultIndex, [...s.units].sort((a, b) => rank(b) - rank(a))]));
  const bestOwn = (index: number, floor: number, orRelevant: boolean): Candidate | undefined => {
    const byScore = sectionAt.get(index) ?? [];
    if (byScore[0] === undefined || quotedSection(byScore[0])) return undefined;
    const own = byScore.find(
      (c) =>
        ((orRelevant && c.relevant) || rank(c) >= floor * best) &&
        c.stems.size >= MIN_CONTENT_WORDS &&
        !isFurniture(c.unit.text) &&
        !isLeadIn(c) &&
        !POINT.test(c.unit.text) &&
        !otherDefinition(q, c),
    );
    return own === undefined || [...roles.keys()].some((p) => nearDuplicate(p, own)) ? undefined : own;
  };
  /**
   * A section whose best sentence is a lead-in ("A Recognised Body must immediately notify the
   * Regulator of the:") is cited with it and its best-matching point, under "show more": the
   * sentence that can stand alone (bestOwn) is often far weaker there. Done for the top sections
   * and the contenders; the whole list instead (up to 8 points) gained less on ObliQA dev for many
   * more words under "show more".
   */
  const leadInWithPoint = (index: number, floor: number): boolean => {
    const strongest = sectionAt.get(index)?.[0];
    if (strongest === undefined || quotedSection(strongest) || !isLeadIn(strongest) || rank(strongest) < floor * best || otherDefinition(q, strongest))
      return false;
    // A relevant list is quoted whole among the supports, below.
    if (strongest.relevant && strongest.features.listCoverage >= LIST_MIN_COVERAGE) return false;
    const point = pointsOf(q.unitsOf(strongest), strongest)
      .filter((p) => POINT.test(p.unit.text))
      .sort((a, b) => rank(b) - rank(a))[0];
    if (point === undefined || [...roles.keys()].some((p) => nearDuplicate(p, strongest))) return false;
    assign(q, strongest, "support", "lead-in-with-point");
    q.alwaysMore.add(strongest);
    for (const u of itemOf(q.unitsOf(strongest), point)) {
      assign(q, u, "point", "lead-in-with-point");
      q.withSupport.set(u, strongest);
    }
    return true;
  };
  return { quotedSection, bestOwn, leadInWithPoint };
}

/**
 * Cites what backs the lead, after it: up to `room` supporting sentences (MAX_SUPPORT at most) and
 * `listsAllowed` lists beside the lead's, then the contenders, then what goes on from each support.
 */
export function quoteSupports(q: Quote, sections: readonly SectionUnits[], max: number, listsAllowed: number): void {
  const { roles } = q;
  const room = Math.min(MAX_SUPPORT, max - 1);
  // The match a cued sentence displaced already counts as one support.
  let support = [...roles.values()].filter((r) => r === "support").length;
  // The best-ranked sections each keep their best answering sentence among the sources (cited
  // under "show more" unless strong): the provision ranked second is often the one that answers
  // (on ObliQA dev a gold passage ranked 1–3 was often retrieved but not cited).
  // A vague question ("Can the ADGM provide examples of best practices …?") shares too few words
  // with any sentence for the pool to call it relevant: a section's sentence scoring nearly as well
  // as the lead (TOP_SECTION_FLOOR) is kept all the same, near-duplicates across sections
  // included. Four or five such sections instead of three lost labelled answers' paragraphs.
  const picks = sectionPicks(q, sections);
  for (let index = 0; index < TOP_SECTIONS_CITED && support < room; index++) {
    const own = picks.bestOwn(index, TOP_SECTION_FLOOR, true);
    if (own === undefined) {
      if (picks.leadInWithPoint(index, TOP_SECTION_FLOOR)) support++;
      continue;
    }
    assign(q, own, "support", "top-section");
    if (!own.relevant) q.alwaysMore.add(own);
    support++;
  }
  supportingSentences(q, picks.quotedSection, support, room, listsAllowed);
  // Further down the ranking, a provision whose best sentence scores nearly as well as the lead
  // (CONTENDER_FLOOR) is a contender the auditor should see beside it: cited under "show more", past
  // the supports and not counted among them. A lower floor cites the gold passage a little more
  // often for more words under "show more".
  for (const index of sections
    .map((s) => s.resultIndex)
    .filter((i) => i >= TOP_SECTIONS_CITED)
    .sort((a, b) => a - b)) {
    const own = picks.bestOwn(index, CONTENDER_FLOOR, false);
    if (own === undefined) {
      picks.leadInWithPoint(index, CONTENDER_FLOOR);
      continue;
    }
    assign(q, own, "support", "contender");
    q.alwaysMore.add(own);
  }
  // A supporting sentence is read with its paragraph's sentences referring back to it, as the lead
  // is: Art. 12(3)'s "within one month" goes on "That period may be extended by two further
  // months".
  for (const c of [...roles.keys()]) {
    if (roles.get(c) !== "support" || q.withSupport.has(c)) continue;
    for (const u of followOn(q.unitsOf(c), c))
      if (!roles.has(u)) {
        assign(q, u, "point", "follow-on");
        q.withSupport.set(u, c);
      }
  }
}

/** Markers, then a capital: "(2) The covered entity must …", "(c)(1) Standard: …". */
const opensSentence = (text: string): boolean => /^(?:\(\s?[a-z0-9]{1,5}\s?\)\s*)+\p{Lu}/u.test(text.trim());
/**
 * Levels of a provision that are paragraphs, not items: the CFR's (a) and (1); its (i) and (A)
 * are items of a list, whose lead-in may end in "." ("… in the following circumstances.").
 */
const PARAGRAPH_LEVELS = 2;
/** A marked paragraph that is a rule of its own: at a paragraph's level, opening a sentence. */
const standsAlone = (c: Candidate): boolean => c.unit.pinpoint !== null && pinpointLevels(c.unit.pinpoint) <= PARAGRAPH_LEVELS && opensSentence(c.unit.text);

/** The relevant sentences backing the lead, best first, each with its list item and lead-in, until `room` supports and `listsAllowed` lists. */
function supportingSentences(q: Quote, quotedSection: (c: Candidate) => boolean, supports: number, room: number, listsAllowed: number): void {
  const { roles } = q;
  const best = rank(q.lead);
  let support = supports;
  let supportingLists = 0;
  const supportRank = (c: Candidate): number => rank(c) * (quotedSection(c) ? SAME_SECTION_FACTOR : 1);
  for (const c of [...q.relevant].sort((a, b) => supportRank(b) - supportRank(a))) {
    // With the supporting sentences chosen, a list may still follow them (DORA Art. 30(2)'s
    // contents behind five sentences of Art. 31 and 28).
    const full = support >= room;
    if (full && supportingLists >= listsAllowed) break;
    if (full && !isLeadIn(c)) continue;
    if (roles.has(c) || rank(c) < best * RELATIVE_FLOOR || otherDefinition(q, c)) continue;
    if ([...roles.keys()].some((p) => nearDuplicate(p, c))) continue;
    const units = q.unitsOf(c);
    // A supporting point comes with its item and its lead-in, a supporting lead-in with its points.
    const itsItem = itemOf(units, c);
    const itsOpening = itsItem[0] ?? c;
    const itsLeadIn = POINT.test(itsOpening.unit.text) ? leadInOf(units, itsOpening) : undefined;
    // A point with no lead-in above it is a fragment of a list, unless it opens a sentence of its
    // own: a CFR paragraph ("(2) The covered entity must provide the first accounting … without
    // charge.") is a rule, marked like any point.
    if (POINT.test(itsOpening.unit.text) && itsLeadIn === undefined && !standsAlone(itsOpening)) continue;
    if (isLeadIn(c)) {
      // A lead-in without its list says nothing: it supports with all its points, after the lead
      // ("When is an impact assessment required?": Art. 35(1)'s rule, then Art. 35(3)'s cases).
      // Counted as a support it displaced other provisions' sentences.
      const points = c.features.listCoverage >= LIST_MIN_COVERAGE ? pointsOf(units, c) : [];
      if (supportingLists >= listsAllowed || points.length === 0 || points.some((p) => roles.has(p))) continue;
      assign(q, c, "support", "supporting-list");
      for (const u of points) {
        assign(q, u, "point", "supporting-list");
        q.withSupport.set(u, c);
      }
      // Under "show more", it does not take a supporting sentence's place.
      supportingLists++;
      continue;
    }
    if (itsLeadIn !== undefined && !roles.has(itsLeadIn)) assign(q, itsLeadIn, "support", "supporting-sentence");
    if (itsLeadIn === undefined && POINT.test(itsOpening.unit.text) && itsOpening !== c) {
      // A paragraph standing alone is quoted from its opening: "… may impose a fee for each
      // subsequent request" means little without "the first accounting … without charge".
      if (!roles.has(itsOpening)) assign(q, itsOpening, "support", "supporting-sentence");
      for (const u of itsItem)
        if (!roles.has(u)) {
          assign(q, u, "point", "supporting-sentence");
          q.withSupport.set(u, itsOpening);
        }
    } else if (itsLeadIn === undefined) assign(q, c, "support", "supporting-sentence");
    else
      for (const u of itsItem)
        if (!roles.has(u)) {
          assign(q, u, "point", "supporting-sentence");
          q.withSupport.set(u, itsLeadIn);
        }
    support++;
  }
}
