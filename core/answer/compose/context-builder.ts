import { citationLabel, pageAt } from "../../citations/index.ts";
import type { RankedSection } from "../../model/retrieval-types.ts";
import type { TripletRecord } from "../../model/graph-records.ts";
import type { AskCitation } from "../../model/ask-citation.ts";
import { GAP_LINE, renderFact, renderQuote, renderSourceOpen, SOURCE_CLOSE } from "./context-render.ts";
import { isHeadingLike } from "./answer-cues.ts";
import type { Candidate, SentencePool } from "./sentence-pool.ts";
import { MARKED_POINT } from "./answer-shapes.ts";

// The context: from the scored pool, the sentences that carry the question's words or the
// section's triplets, packed by score into a token budget, grouped back into one block per section
// in document order. Each block gets the key the answer cites ([S1], [S2], … by retrieval rank) and
// the citation it resolves to, with the pages of the sentences actually quoted.

export type TokenCounter = (text: string) => number;

/** Without a model's tokenizer: about four characters a token for English and Italian prose. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Keys S1…S8: more sources than this only dilute a small model's attention. */
export const MAX_BLOCKS = 8;
const MAX_FACTS_PER_BLOCK = 3;
/** Sections in the top results that match no question word still contribute their opening. */
const LEAD_RESULTS = 3;
const LEAD_SENTENCES = 2;
/** A sentence sharing only a common word with the question ("data" in the GDPR) is not context. */
const MIN_CONTEXT_COVERAGE = 0.1;
const MAX_LIST_POINTS = 5;

export interface ContextBlock {
  key: string;
  result: RankedSection;
  /** Quoted sentences, in document order. */
  units: Candidate[];
  /** Facts shown with the block: triplets whose evidence is in the quoted sentences. */
  triplets: TripletRecord[];
  citation: AskCitation;
}

export interface AnswerContext {
  blocks: ContextBlock[];
  byKey: Map<string, ContextBlock>;
  /** The blocks as the prompt shows them. */
  text: string;
  tokens: number;
}

/** The markers every unit's citable pinpoint starts with: "(3)(a)" and "(3)(b)" share "(3)". */
function sharedPinpoint(units: readonly Candidate[]): string | null {
  const lists = units.map((c) => c.unit.citable?.match(/\([^)]+\)/g) ?? []);
  if (lists.length === 0 || lists.some((l) => l.length === 0)) return null;
  const first = lists[0] ?? [];
  let n = 0;
  while (n < first.length && lists.every((l) => l[n] === first[n])) n++;
  return n === 0 ? null : first.slice(0, n).join("");
}

export function blockCitation(key: string, result: RankedSection, units: readonly Candidate[]): AskCitation {
  const { section, document } = result;
  let start: { page: number; printed: string | null } | null = null;
  let end: { page: number; printed: string | null } | null = null;
  for (const c of units) {
    const from = pageAt(section, c.unit.start);
    const to = pageAt(section, Math.max(c.unit.start, c.unit.end - 1));
    if (start === null || from.page < start.page) start = from;
    if (end === null || to.page > end.page) end = to;
  }
  const pageStart = start?.page ?? section.pageStart;
  const pageEnd = end?.page ?? section.pageEnd;
  const printedStart = start?.printed ?? null;
  const printedEnd = end?.printed ?? null;
  const paragraphs = [...new Set(units.map((c) => c.unit.paragraph).filter((p): p is string => p !== null))];
  const citation: AskCitation = {
    key,
    sectionId: section.id,
    documentId: section.documentId,
    file: document.fileName,
    label: citationLabel({ document, sectionLabel: section.label, paragraphs, pinpoint: sharedPinpoint(units), pageStart, pageEnd, printedStart, printedEnd }),
    pageStart,
    pageEnd,
  };
  if (printedStart !== null) citation.printedPages = printedEnd !== null && printedEnd !== printedStart ? `${printedStart}–${printedEnd}` : printedStart;
  if (units.length > 0) citation.spans = [...units].sort((a, b) => a.unit.start - b.unit.start).map((c) => ({ start: c.unit.start, end: c.unit.end }));
  return citation;
}

export function renderBlock(block: Pick<ContextBlock, "key" | "result" | "units" | "triplets" | "citation">): string {
  const lines = [renderSourceOpen(block.key, block.citation.label, block.result.section.heading)];
  for (const t of block.triplets) lines.push(renderFact(t));
  let previousEnd = -1;
  for (const c of block.units) {
    // A gap marker tells the reader (and the model) the quote skips part of the section.
    if (previousEnd >= 0 && /\S/.test(block.result.section.text.slice(previousEnd, c.unit.start))) lines.push(GAP_LINE);
    lines.push(renderQuote(c.unit.text));
    previousEnd = c.unit.end;
  }
  lines.push(SOURCE_CLOSE);
  return lines.join("\n");
}

function eligible(pool: SentencePool, onlyRelevant: boolean): Candidate[] {
  const out = pool.candidates.filter((c) => (onlyRelevant ? c.relevant : c.coverage >= MIN_CONTEXT_COVERAGE || c.triplets.length > 0));
  // The points of a relevant list lead-in ("… submit the following:") come with it, just after it
  // in priority: a lead-in without its points says nothing.
  const priority = new Map<Candidate, number>(out.map((c) => [c, c.score]));
  for (const leadIn of [...out]) {
    if (!leadIn.unit.text.trimEnd().endsWith(":")) continue;
    const i = pool.candidates.indexOf(leadIn);
    for (let j = i + 1; j < pool.candidates.length && j <= i + MAX_LIST_POINTS; j++) {
      const point = pool.candidates[j];
      if (point === undefined || point.resultIndex !== leadIn.resultIndex || !MARKED_POINT.test(point.unit.text)) break;
      if (!priority.has(point)) out.push(point);
      priority.set(point, Math.max(priority.get(point) ?? 0, leadIn.score - 0.001 * (j - i)));
    }
  }
  // A sentence that only names a standard ("(b) Standard: Audit controls.") comes with the one
  // saying what it requires.
  for (const named of [...out]) {
    if (!isHeadingLike(named.unit.text)) continue;
    const next = pool.candidates[pool.candidates.indexOf(named) + 1];
    if (next === undefined || next.resultIndex !== named.resultIndex) continue;
    if (!priority.has(next)) out.push(next);
    priority.set(next, Math.max(priority.get(next) ?? 0, (priority.get(named) ?? named.score) - 0.0005));
  }
  const covered = new Set(out.map((c) => c.resultIndex));
  for (let i = 0; i < Math.min(LEAD_RESULTS, pool.results.length); i++) {
    if (covered.has(i)) continue;
    out.push(...pool.candidates.filter((c) => c.resultIndex === i).slice(0, LEAD_SENTENCES));
  }
  const rank = (c: Candidate): number => priority.get(c) ?? c.score;
  return out.sort((a, b) => rank(b) - rank(a) || a.resultIndex - b.resultIndex || a.unit.start - b.unit.start);
}

export interface ContextOptions {
  /**
   * Most sentences quoted from one section, the points of a quoted list aside (default: no limit
   * but the budget). The model's context keeps each section to its best sentences: that is what
   * makes it a fraction of the sections' text at the same evidence recall (bench:answer).
   */
  maxUnitsPerBlock?: number;
  /**
   * Only sentences that answer part of the question (Candidate.relevant), the points of their lists
   * and the opening of top results that match nothing; not every sentence sharing a word with it or
   * stating an obligation.
   */
  onlyRelevant?: boolean;
}

/** The context for the question within `budgetTokens` (counted with `count`). */
export function buildContext(pool: SentencePool, budgetTokens: number, count: TokenCounter = estimateTokens, options: ContextOptions = {}): AnswerContext {
  const maxUnits = options.maxUnitsPerBlock ?? Number.POSITIVE_INFINITY;
  const chosen = new Map<number, Candidate[]>();
  const facts = new Map<number, Set<string>>();
  let used = 0;
  // Costs are counted on rendered lines with the widest key, so the real render never exceeds them.
  for (const c of eligible(pool, options.onlyRelevant === true)) {
    const open = chosen.get(c.resultIndex);
    if (open === undefined && chosen.size >= MAX_BLOCKS) continue;
    // A list point comes with its lead-in whatever the cap: the lead-in says nothing without it.
    if (
      open !== undefined &&
      open.filter((u) => !MARKED_POINT.test(u.unit.text)).length >= maxUnits &&
      !(MARKED_POINT.test(c.unit.text) && open.some((u) => u.unit.text.trimEnd().endsWith(":")))
    )
      continue;
    const shown = facts.get(c.resultIndex) ?? new Set<string>();
    const newFacts = c.triplets
      .filter((t) => !shown.has(t.id))
      .sort((a, b) => b.confidence - a.confidence)
      .slice(0, Math.max(0, MAX_FACTS_PER_BLOCK - shown.size));
    let cost = count(renderQuote(c.unit.text)) + 1 + newFacts.reduce((s, t) => s + count(renderFact(t)) + 1, 0);
    if (open === undefined) {
      const draft = blockCitation("S10", c.result, [c]);
      cost += count(renderSourceOpen("S10", draft.label, c.result.section.heading)) + count(SOURCE_CLOSE) + count(GAP_LINE) + 3;
    } else {
      cost += count(GAP_LINE) + 1;
    }
    if (used + cost > budgetTokens) continue;
    used += cost;
    chosen.set(c.resultIndex, [...(open ?? []), c]);
    for (const t of newFacts) shown.add(t.id);
    facts.set(c.resultIndex, shown);
  }
  const blocks: ContextBlock[] = [];
  for (const index of [...chosen.keys()].sort((a, b) => a - b)) {
    const units = (chosen.get(index) ?? []).sort((a, b) => a.unit.start - b.unit.start);
    const first = units[0];
    if (first === undefined) continue;
    const key = `S${blocks.length + 1}`;
    const ids = facts.get(index) ?? new Set<string>();
    const seen = new Set<string>();
    const triplets: TripletRecord[] = [];
    for (const c of units) {
      for (const t of c.triplets) {
        if (ids.has(t.id) && !seen.has(t.id)) {
          seen.add(t.id);
          triplets.push(t);
        }
      }
    }
    blocks.push({ key, result: first.result, units, triplets, citation: blockCitation(key, first.result, units) });
  }
  const text = blocks.map(renderBlock).join("\n\n");
  return { blocks, byKey: new Map(blocks.map((b) => [b.key, b])), text, tokens: text === "" ? 0 : count(text) };
}
