// Why each sentence of a quoted answer is there: the named rules of core/answer/compose/
// (answer-lead.ts, answer-supports.ts, run in order by extractive-answer.ts), in the order they are tried. An answer's sentences carry the rule that placed them (`ask --json`,
// the answer log), so a wrong lead can be traced to the rule that chose it.

/** What chose the lead: the first rule that changes it wins, "best-match" when none does. */
export const LEAD_RULES = [
  /** The best-scored sentence that answers (the pool's score: coverage, similarity, standing, cue …). */
  "best-match",
  /** The rule itself over what follows when it is not complied with ("If the controller does not …"). */
  "rule-before-failure-case",
  /** In a follow-up ("And what about processors?"), the best answering sentence saying its own words. */
  "follow-up-subject",
  /** The sentence defining the term a definition question asks about. */
  "defines-the-term",
  /** A sentence stating the figure over the table row listing it. */
  "prose-before-table",
  /** A sentence saying what the question's type asks for (the time limit, the amount) over a better match that does not. */
  "says-what-was-asked",
  /** For a question asking for a list, a lead-in whose points cover it. */
  "list-for-a-list-question",
  /** A bare lead-in ("For the purposes of this Regulation:") gives the lead to its best point. */
  "point-of-bare-lead-in",
  /** A lead-in scoring with its points' words gives the lead to the point that answers. */
  "answering-point",
] as const;

/** What placed every other sentence. */
export const PLACEMENT_RULES = [
  // Around the lead.
  /** The lead-in introducing the lead's item. */
  "lead-in-of-lead",
  /** The rest of the lead's item, or the other items of its list. */
  "item-of-lead",
  /** The points of the list the lead introduces. */
  "list-of-lead",
  /** The better match a "says-what-was-asked" lead displaced. */
  "displaced-match",
  /** The sentence before a lead that refers back to it ("This period shall not exceed …" needs the period's sentence). */
  "referred-back-to",
  /** The paragraph a lead names and builds on ("within the time required by paragraph (b)(2)(i) of this section"), right after it. */
  "named-paragraph",
  /** A sentence of the lead's paragraph referring back to it ("That period may be extended …"). */
  "follow-on",
  // Sources beside the lead.
  /** A top-ranked section's best sentence. */
  "top-section",
  /** A section whose best sentence is a lead-in: it and its best point. */
  "lead-in-with-point",
  /** A supporting sentence that answers, best first. */
  "supporting-sentence",
  /** A supporting lead-in, with its points. */
  "supporting-list",
  /** A provision further down scoring nearly as well as the lead. */
  "contender",
] as const;

export const ANSWER_RULES = [...LEAD_RULES, ...PLACEMENT_RULES] as const;

export type AnswerRule = (typeof ANSWER_RULES)[number];

const LEAD = new Set<string>(LEAD_RULES);
/** Whether a rule chose the lead (a sentence placed by one of them is the answer's lead sentence). */
export const isLeadRule = (rule: string | undefined): boolean => rule !== undefined && LEAD.has(rule);

/** Whether the library answers the question at all, tried in this order (core/answer/compose/in-library.ts). */
export const IN_LIBRARY_RULES = [
  /** The question names a known instrument no imported document is: refused. */
  "instrument-not-imported",
  /** The question names something no imported document mentions: refused. */
  "name-not-mentioned",
  /** No document of the library is written in the question's language: refused, saying so. */
  "not-in-its-language",
  /** Retrieval found no section at all: refused. */
  "nothing-retrieved",
  /** The fitted decision puts the question outside the library: refused, saying which words no nearby section has. */
  "outside-the-library",
  /** Unsure, or no sentence passes the answer's own gates: the closest provisions are quoted, and the answer says so. */
  "closest-provisions",
  /** Answered as usual. */
  "in-the-library",
] as const;
export type InLibraryRule = (typeof IN_LIBRARY_RULES)[number];

/** The measurements the fitted decision weighs, each 0 when nothing was retrieved. */
export const IN_LIBRARY_FEATURES = [
  /** The best share of the question's words one retrieved sentence (with its list) has, IDF-weighted. */
  "coverage",
  /** How many retrieved sentences answer part of the question, as log(1 + n). */
  "answeringSentences",
] as const;
export type InLibraryFeature = (typeof IN_LIBRARY_FEATURES)[number];
