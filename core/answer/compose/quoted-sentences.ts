import type { AnswerRule } from "../../model/answer-rules.ts";
import type { AnswerType } from "../../model/question-analysis-types.ts";
import { provisionRole } from "./provision-role.ts";
import type { Candidate } from "./sentence-pool.ts";

// What the rules of a quoted answer (extractive-answer.ts) share as they run in order: the
// sentences that answer, and the sentences quoted so far, each with its role and the named rule
// that placed it.

export type Role = "lead" | "point" | "support";

/**
 * The pool scored every sentence for this question (sentence-score.ts): relevance, what the
 * question's type asks for, the section's role and rank, the provision it names.
 */
export const rank = (c: Candidate): number => c.score;

export const MIN_CONTENT_WORDS = 2;
/** A supporting sentence scoring below this share of the lead adds noise, not support. */
export const RELATIVE_FLOOR = 0.45;

/** What the lead is chosen from. */
export interface Reading {
  /** The question's answer type, "other" when it asks for nothing in particular. */
  type: AnswerType;
  /** The sentences that answer, best first. */
  relevant: Candidate[];
  /** The sentences of a sentence's section, in document order. */
  unitsOf: (c: Candidate) => Candidate[];
  /** The question's own content stems. */
  asked: ReadonlySet<string>;
}

/** The answer as its rules build it, once the lead is chosen. */
export interface Quote extends Reading {
  lead: Candidate;
  /** The named rule that chose the lead (answer-rules.ts). */
  leadRule: AnswerRule;
  roles: Map<Candidate, Role>;
  /** The named rule that placed each quoted sentence (answer-rules.ts). */
  why: Map<Candidate, AnswerRule>;
  /** Points quoted with a supporting sentence (the lead-in they complete, the sentence they go on from): they follow it among the supports, not the lead. */
  withSupport: Map<Candidate, Candidate>;
  /** Cited under "show more", never shown first: kept for their provision, not because they match the question's words. */
  alwaysMore: Set<Candidate>;
}

/** Quotes a sentence in a role, naming the rule that placed it (the lead keeps the rule that chose it). */
export function assign(q: Quote, c: Candidate, role: Role, rule: AnswerRule): void {
  q.roles.set(c, role);
  q.why.set(c, c === q.lead ? q.leadRule : rule);
}

/** Beside a definition of the term asked about, a glossary's other lines define other terms. */
export const otherDefinition = (q: Quote, c: Candidate): boolean =>
  q.type === "definition" && q.lead.features.definedTerm === 1 && c.features.definedTerm === 0 && provisionRole(c.result.section) === "definitions";
