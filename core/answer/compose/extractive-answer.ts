import type { AnswerRule } from "../../model/answer-rules.ts";
import type { AnswerHints } from "../../model/answer-types.ts";
import { isFurniture, verdictOf } from "./answer-cues.ts";
import type { AnswerContext } from "./context-builder.ts";
import type { DraftSentence } from "./parse-llm-output.ts";
import { chooseLead, losesThreshold, quoteLead, type LeadPlacement } from "./answer-lead.ts";
import { LIST_MIN_COVERAGE } from "./answer-lists.ts";
import { LIST_TYPES } from "./answer-shapes.ts";
import { MAX_SUPPORTING_LISTS, quoteSupports } from "./answer-supports.ts";
import { contextOf, markShown, quoteText, sectionsOf } from "./quoted-context.ts";
import { MIN_CONTENT_WORDS, rank, type Quote, type Role } from "./quoted-sentences.ts";
import { continuationOf } from "./sentence-relations.ts";
import type { Candidate, SentencePool } from "./sentence-pool.ts";

export { SHOWN_WORDS } from "./quoted-context.ts";

// Without a model the answer is quoted, answer first: the lead sentence is the one that carries
// what was asked (the time limit, the amount, the definition, the condition — answer-cues.ts),
// taken from the operative provision (articles and §§ over recitals, body text over tables of
// contents and cut table cells); then the points of the list it introduces, complete; then at most
// a few supporting sentences, grouped by section, each section's best first. The probe's answers led with a recital's "72 hours" instead of Article
// 33, and with table-of-contents lines instead of § 164.308.
//
// Sentences are chosen from the whole pool (every sentence of the sections answered from, scored
// by sentence-score.ts), not from a token-budgeted context: a list is quoted whole (the context a
// model reads kept five points, and DORA Art. 17(3)'s sixth was lost), and the citation blocks
// are built from what is quoted.
//
// The answer's rules run in order over one Quote (quoted-sentences.ts): the lead's (answer-lead.ts),
// then the supports' and contenders' (answer-supports.ts), then the order they are read in (here).

/** The lead and up to six supporting sentences (MAX_SUPPORT, answer-supports.ts), points and lists apart. */
export const DEFAULT_MAX_SENTENCES = 7;
/**
 * Supports below this share of the lead's score are cited but kept under "show more": on ObliQA
 * dev citing them raised the share of answers citing a gold passage, but shown first they read as noise ("Operators shall keep a register" under "how
 * quickly must operators notify").
 */
const SHOWN_SUPPORT_FLOOR = 0.7;
/** Coverage of the question a strongly cued sentence needs to count as answering it. */
export const CUED_MIN_COVERAGE = 0.15;
/** Sentences scoring this close to the pool's best answer with part of the question's words (CUED_MIN_COVERAGE). */
export const BEST_SCORED_ANSWERS = 0.95;

export interface ExtractiveAnswer {
  drafts: DraftSentence[];
  /** The blocks the drafts cite (keys S1, S2, … in order of first use), built from what is quoted. */
  context: AnswerContext;
  verdict?: "yes" | "no" | "conditional";
}

const EMPTY: AnswerContext = { blocks: [], byKey: new Map(), text: "", tokens: 0 };

/**
 * The quoted answer. `closest`: the library was judged to hold an answer (in-library.ts) though no
 * sentence passed the gates below, so the best-scored sentences answer whatever their coverage.
 */
export function extractiveAnswer(pool: SentencePool, maxSentences = DEFAULT_MAX_SENTENCES, hints?: AnswerHints, closest = false): ExtractiveAnswer {
  const { sections, sectionOf } = sectionsOf(pool);
  const unitsOf = (c: Candidate): Candidate[] => sectionOf.get(c)?.units ?? [c];
  const type = hints?.answerType ?? "other";
  // A question of few words ("From what date does DORA apply?") shares too little with the sentence
  // that answers it ("It shall apply from 17 January 2025.") for the pool to call it relevant; a
  // sentence that says what was asked in so many words needs only part of the question's words.
  // Nor does an auditor's question, in words of its own ("How long can we wait on a verbal
  // request?"): the sentence the pool scores best (its similarity and its section's standing
  // weigh in) answers when it shares some of the question's words.
  const bestScore = Math.max(0, ...pool.candidates.filter((c) => !isFurniture(c.unit.text)).map((c) => c.score));
  const answers = (c: Candidate): boolean =>
    c.relevant ||
    (c.coverage >= CUED_MIN_COVERAGE && c.features.cue === 1) ||
    c.features.listCoverage >= LIST_MIN_COVERAGE ||
    ((closest || c.coverage >= CUED_MIN_COVERAGE) && c.score >= BEST_SCORED_ANSWERS * bestScore);
  const relevant = pool.candidates
    .filter((c) => answers(c) && c.stems.size >= MIN_CONTENT_WORDS && !isFurniture(c.unit.text))
    .sort((a, b) => rank(b) - rank(a));
  const first = relevant[0];
  if (first === undefined) return { drafts: [], context: EMPTY };
  const reading = { type, relevant, unitsOf, asked: pool.terms.required };
  const { top, cued, lead, leadRule } = chooseLead(reading, first, hints);
  const q: Quote = { ...reading, lead, leadRule, roles: new Map(), why: new Map(), withSupport: new Map(), alwaysMore: new Set() };
  const placed = quoteLead(q, top, cued);
  const max = Math.max(1, maxSentences);
  // A caller asking for fewer sentences than the default (`maxSentences`) gets no list beside the lead's.
  quoteSupports(q, sections, max, max >= DEFAULT_MAX_SENTENCES ? MAX_SUPPORTING_LISTS : 0);
  const continuation = new Map<Candidate, Candidate>();
  for (const c of q.roles.keys()) {
    const next = continuationOf(unitsOf(c), c);
    if (next !== undefined) continuation.set(c, next);
  }
  for (const next of continuation.values()) if (q.roles.get(next) !== "lead") q.roles.delete(next);

  const chosen = readingOrder(q, placed, top, continuation);
  const { context, keyOf } = contextOf(chosen);
  const ruleOf = (c: Candidate | undefined): { rule?: AnswerRule } => {
    const rule = c === undefined ? undefined : q.why.get(c);
    return rule === undefined ? {} : { rule };
  };
  const drafts: DraftSentence[] = chosen.map(({ units, role }) => ({
    text: quoteText(units.map((u) => u.unit.text).join(" ")),
    keys: [keyOf.get(units[0]?.resultIndex ?? -1) ?? ""],
    refusal: false,
    role,
    ...ruleOf(units.includes(lead) ? lead : units[0]),
  }));
  markShown(drafts);
  // A weak support (kept for its citation) waits under "show more" whatever room there is.
  // Past the first hidden sentence everything waits under "show more" (the view opens them together).
  let hidden = false;
  drafts.forEach((d, i) => {
    hidden ||= chosen[i]?.weak === true || d.more === true;
    d.more = hidden && i > 0;
  });
  const head = placed.head;
  const verdict = ["yes-no", "permission", "prohibition"].includes(type)
    ? verdictOf(head.unit.text === lead.unit.text ? lead.unit.text : `${head.unit.text} ${lead.unit.text}`)
    : null;
  return verdict === null ? { drafts, context } : { drafts, context, verdict };
}

/** A quoted sentence (with the one it is read with) as the answer shows it; `weak` waits under "show more". */
interface Chosen {
  units: Candidate[];
  role: Role;
  weak: boolean;
}

/**
 * The lead's section first (lead, then its points and the rest of that section in document
 * order), then the supporting sections in order of their best sentence.
 * The lead and its list first, in document order; then the supporting sentences, best first,
 * each section's kept together (a section's sentences in document order).
 */
function readingOrder(q: Quote, placed: LeadPlacement, top: Candidate, continuation: ReadonlyMap<Candidate, Candidate>): Chosen[] {
  const { lead, roles, why, withSupport, alwaysMore, type } = q;
  const { head, opening, item, referredTo, namedParagraph } = placed;
  const best = rank(lead);
  const push = (c: Candidate, chosen: Chosen[]): void => {
    const next = continuation.get(c);
    const role = roles.get(c) ?? "support";
    // Nor is a time limit elsewhere not stating the question's threshold (losesThreshold) shown
    // first among the supports: it is kept, under "show more".
    const elsewhere = c.resultIndex !== lead.resultIndex && c.features.cue > 0 && losesThreshold(top, c);
    chosen.push({
      units: next === undefined ? [c] : [c, next],
      role,
      weak: role === "support" && (rank(c) < best * SHOWN_SUPPORT_FLOOR || alwaysMore.has(c) || elsewhere),
    });
  };
  const chosen: Chosen[] = [];
  const leadList = [...roles.keys()]
    .filter((c) => (roles.get(c) !== "support" && !withSupport.has(c)) || c === head)
    .sort((x, y) => x.unit.start - y.unit.start);
  // Answering item first: when one item of a list answers a question that does not ask for the
  // list, it follows the lead-in at once and its siblings come after it, so that what is shown
  // before "show more" holds it ("… shall: (b) If the statement is made orally, … no longer than
  // 30 days …", then "(a) If the statement is in writing …"). Each item keeps its own letter.
  let leadOrder = [...leadList.filter((c) => c.unit.start >= head.unit.start), ...leadList.filter((c) => c.unit.start < head.unit.start)];
  if (head !== opening && !LIST_TYPES.has(type)) {
    const answering = item.filter((u) => leadOrder.includes(u));
    leadOrder = [head, ...answering, ...leadOrder.filter((c) => c !== head && !answering.includes(c))];
  }
  if (referredTo !== undefined && why.get(referredTo) === "referred-back-to") leadOrder = [referredTo, ...leadOrder.filter((c) => c !== referredTo)];
  if (namedParagraph !== undefined && why.get(namedParagraph) === "named-paragraph") {
    const rest = leadOrder.filter((c) => c !== namedParagraph);
    const at = rest.indexOf(lead) + 1;
    leadOrder = [...rest.slice(0, at), namedParagraph, ...rest.slice(at)];
  }
  for (const c of leadOrder) push(c, chosen);
  const supports = [...roles.keys()].filter((c) => !leadList.includes(c)).sort((a, b) => rank(b) - rank(a));
  const order: number[] = [];
  for (const c of supports) if (!order.includes(c.resultIndex)) order.push(c.resultIndex);
  // Rule "the best support first": within a section, the supporting sentence that scores best comes
  // first, each with its points and the sentences going on from it (a block), so that the words shown before
  // "show more" hold it rather than its section's opening paragraphs.
  const anchorOf = (c: Candidate): Candidate => {
    let a = c;
    for (let hops = 0; hops < 4; hops++) a = withSupport.get(a) ?? a;
    return a;
  };
  // A block scores as its best sentence: a lead-in quoted for its answering point ranks as that point.
  const blockRank = new Map<Candidate, number>();
  for (const c of supports) blockRank.set(anchorOf(c), Math.max(blockRank.get(anchorOf(c)) ?? 0, rank(c)));
  const bySupport = (x: Candidate, y: Candidate): number => {
    const [ax, ay] = [anchorOf(x), anchorOf(y)];
    return (blockRank.get(ay) ?? 0) - (blockRank.get(ax) ?? 0) || ax.unit.start - ay.unit.start || x.unit.start - y.unit.start;
  };
  for (const index of order) for (const c of supports.filter((s) => s.resultIndex === index).sort(bySupport)) push(c, chosen);
  return chosen;
}
