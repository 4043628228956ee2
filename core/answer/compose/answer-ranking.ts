import type { RankedSection } from "../../model/retrieval-types.ts";
import { contentStems } from "./lexical.ts";
import { provisionRole, rolePrior } from "./provision-role.ts";
import type { QuestionAnalysis } from "../../model/question-analysis-types.ts";

// Search ranks sections by how well their words match; an answer needs the provision that says
// what was asked. The engine retrieves more sections than it quotes from (ANSWER_CANDIDATES) and
// re-ranks them here: by role (an article over the recital that explains it, any provision over a
// glossary, a reference list or a crosswalk table: provision-role.ts), by how much of the question
// the section's own heading carries ("Scope" for "which entities fall within the scope of DORA?",
// "Definitions" for a definition) and by the provision the question names ("… under Article 33").
// Before this re-ranking, the answering section was often not first, and often beyond the
// sections quoted from (bench:answer, labelled auditor questions).

/** Sections retrieved for an answer before re-ranking; the answer quotes from the first k of them. */
export const ANSWER_CANDIDATES = 24;

/** Heading words of the provisions that answer each type of question, whatever the question's own words. */
const TYPE_HEADINGS: Partial<Record<string, string>> = {
  scope: "scope subject matter ambito applicazione oggetto",
  "application-date": "entry into force application final provisions compliance dates effective date entrata vigore applicazione decorrenza",
  definition: "definitions definition glossary definizioni glossario",
  amount: "penalties fines sanctions amounts amount penalty importo importi sanzioni penali",
  // "Limitations" heads the time within which an action must be brought (HIPAA § 160.414's six years;
  // "prescrizione" in Italian law).
  deadline: "time limits deadlines limitations termini scadenze prescrizione",
  frequency: "review testing",
};

/** Weight of the question's words in a section heading, over the retrieval score (scaled to the best = 1). */
const W_HEADING = 0.35;
/** Weight of the type's own heading words ("Scope", "Definitions", "Entry into force"). */
const W_TYPE_HEADING = 0.3;
/** The provision the question names is the one to quote. */
const W_NAMED = 0.6;
/**
 * A section of the document outside the part the question names ("the Security Rule": Subpart C
 * of Part 164) counts this much: HIPAA's Parts 162 and 164 print the same compliance-date
 * sentence for different rules.
 */
const OUTSIDE_PART = 0.6;
/**
 * Rule "the answer type's headings stay in the question's documents": a document is the
 * question's when one of its sections scores at least this share of the best match. A "Scope" or
 * "Definitions" heading elsewhere answers another instrument's question (a directive's "which
 * chapters does it fall under?" had been led by the GDPR's material scope).
 */
const QUESTION_DOCUMENT_FLOOR = 0.75;

const normalLabel = (label: string): string =>
  label
    .toLowerCase()
    .replace(/\s*\(part \d+\)$/, "")
    .replace(/^art(?:icle|icolo|\.)?\s*/, "art ")
    .replace(/\s+/g, " ")
    .trim();

/** Whether a section is the provision a question names ("Article 33" names "Article 33 (part 2)", "Art. 19(4)" names "Article 19"). */
export function namesSection(provisionLabels: readonly string[], sectionLabel: string): boolean {
  const label = normalLabel(sectionLabel);
  return provisionLabels.some((p) => {
    const named = normalLabel(p).replace(/\(.*$/, "").trim();
    return named !== "" && (label === named || label.startsWith(`${named} `));
  });
}

function share(wanted: ReadonlySet<string>, have: ReadonlySet<string>): number {
  if (wanted.size === 0) return 0;
  let n = 0;
  for (const s of wanted) if (have.has(s)) n++;
  return n / wanted.size;
}

export interface AnswerRanking {
  section: RankedSection;
  score: number;
}

/** The retrieved sections in the order an answer should draw on them. */
export function rankForAnswer(
  results: readonly RankedSection[],
  analysis: Pick<QuestionAnalysis, "answerType" | "focusTerms" | "provisionLabels" | "scope">,
): RankedSection[] {
  if (results.length === 0) return [];
  const top = Math.max(...results.map((r) => r.score), Number.EPSILON);
  const focus = new Set(contentStems(analysis.focusTerms.join(" ")));
  const typeWords = new Set(contentStems(TYPE_HEADINGS[analysis.answerType] ?? ""));
  const questionDocuments = new Set(results.filter((r) => Math.max(0, r.score) >= QUESTION_DOCUMENT_FLOOR * top).map((r) => r.section.documentId));
  const ranked: AnswerRanking[] = results.map((r) => {
    const heading = new Set(contentStems(r.section.heading));
    const base = Math.max(0, r.score) / top;
    let score = base * rolePrior(provisionRole(r.section), analysis.answerType);
    const parts = analysis.scope.parts.filter((p) => p.documentId === r.section.documentId);
    if (parts.length > 0 && !parts.some((p) => p.path.every((label) => r.section.path.includes(label)))) score *= OUTSIDE_PART;
    score += W_HEADING * share(focus, heading);
    if (typeWords.size > 0 && questionDocuments.has(r.section.documentId) && [...heading].some((s) => typeWords.has(s))) score += W_TYPE_HEADING;
    if (namesSection(analysis.provisionLabels, r.section.label)) score += W_NAMED;
    return { section: r, score };
  });
  // Stable: equal scores keep the retrieval's order.
  const best = Math.max(...ranked.map((r) => r.score), Number.EPSILON);
  return ranked
    .map((r, i) => ({ ...r, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((r) => ({ ...r.section, standing: Math.max(0, r.score) / best }));
}
