import type { Section } from "../../model/section-types.ts";

// What part a section plays in its document, as an auditor reads it: the operative provisions
// (articles, §§, numbered requirements) oblige; recitals and a guide's front matter explain; a
// definitions article or a glossary defines; references, acronym lists, mapping tables and tables
// of contents only point elsewhere. Search ranks by words alone and cannot tell them apart (the
// labelled questions' answering article often sat behind recitals, glossaries and crosswalk
// tables), so the answer weighs each section by its role (answer-ranking.ts).

export type ProvisionRole = "operative" | "definitions" | "explanatory" | "pointer" | "annex" | "amending";

/** Headings of sections that only point elsewhere: bibliographies, acronym lists, crosswalks, indexes. */
const POINTER_HEADING =
  /\b(?:references?|bibliography|acronyms?|abbreviations?|mapping tables?|crosswalks?|cross-?references? tables?|table of contents|contents|index|riferimenti normativi|indice|sommario|acronimi|abbreviazioni)\b/i;
const GLOSSARY_HEADING = /\b(?:glossary|definitions?|terms and definitions|definizioni|glossario)\b/i;
/** The preamble of a proposed rule or a guide: explains why, not what must be done. */
const EXPLANATORY_HEADING = /\b(?:supplementary information|background|discussion|purpose|introduction|executive summary|foreword|premessa|introduzione)\b/i;

/**
 * A caption that is the whole heading, or the whole label of a section with no heading: a Federal
 * Register preamble's "Summary" and "Supplementary information (part 2)" tell what a proposed rule
 * would require, while its § 39.13 paragraphs require it (the FAA proposed AD's preamble led five
 * labelled answers over § 39.13(c), (g), (m) and (p)). Whole captions only: "8.Introduction.Guidance.1."
 * (ADGM rulebooks) and NIST SP 800-30's "SUMMARY OF TASKS" are not, and ObliQA dev lost answers
 * when ADGM's chapter introductions counted as explanatory.
 */
const EXPLANATORY_CAPTION =
  /^(?:summary|supplementary information|background|discussion|purpose|introduction|executive summary|foreword|premessa|introduzione):?$/i;

/**
 * An article that rewrites another act ("Amendments to Regulation (EU) No 909/2014", "Repeal of
 * Directive 95/46/EC", "Modifiche al decreto …"): its text is the other act's, quoted ("paragraph 1
 * is replaced by the following:"), and shares the words of any question on the same subject.
 */
const AMENDING_HEADING =
  /^(?:amendments? (?:to|of)|repeal of|modifiche? (?:al|alla|allo|all'|del|della|dell')|abrogazione (?:del|della|dell'))\s*(?:the\s+)?(?:regulation|directive|decision|act|decreto|legge|regolamento|direttiva|codice|d\.\s?lgs)\b/i;

/** The role of a section, from its kind and the headings on its path. */
export function provisionRole(section: Pick<Section, "kind" | "heading" | "label">): ProvisionRole {
  const heading = section.heading;
  if (section.kind === "recital" || section.kind === "preamble") return "explanatory";
  if (POINTER_HEADING.test(heading) && !GLOSSARY_HEADING.test(heading)) return "pointer";
  if (GLOSSARY_HEADING.test(heading)) return "definitions";
  const caption = heading.trim() === "" ? section.label.replace(/\s*\(part \d+\)$/, "").trim() : heading.trim();
  if (EXPLANATORY_HEADING.test(heading) || EXPLANATORY_CAPTION.test(caption)) return "explanatory";
  if (AMENDING_HEADING.test(caption)) return "amending";
  if (section.kind === "annex" || section.kind === "appendix") return "annex";
  return "operative";
}

/** An amending article answers only a question about the act it amends: it counts half. */
const AMENDING_PRIOR = 0.5;

/**
 * How much a section of each role counts toward answering a question of the given type. A
 * definition question is answered by a definitions article or a glossary as well as by an
 * operative provision; every other question by the operative text first.
 */
export function rolePrior(role: ProvisionRole, answerType: string): number {
  switch (role) {
    case "operative":
      return 1;
    case "definitions":
      return answerType === "definition" ? 1 : 0.7;
    case "annex":
      return 0.85;
    case "explanatory":
      return 0.6;
    case "pointer":
      return 0.3;
    case "amending":
      return AMENDING_PRIOR;
  }
}
