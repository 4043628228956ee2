import type { AnswerContext, ContextBlock } from "./context-builder.ts";
import type { DraftSentence } from "./parse-llm-output.ts";
import { neutralizeKeys } from "./neutralize.ts";
import type { Candidate } from "./sentence-pool.ts";

// Without a model the answer is quoted: the best-supported sentences of the context, grouped by
// the section they come from (best section first) and in document order within it, so a
// paragraph reads the way the regulation wrote it.

export const DEFAULT_MAX_SENTENCES = 6;
const MIN_SENTENCES = 3;
/** Past the minimum, a sentence scoring below this share of the best one adds noise, not support. */
const RELATIVE_FLOOR = 0.55;
const MIN_CONTENT_WORDS = 2;
const NEAR_DUPLICATE = 0.7;

const POINT = /^\(?(?:[a-z]{1,2}|[ivx]{1,5}|\d{1,2})\)\s/i;

/** The list's lead-in: the nearest earlier quoted sentence ending in ":" with only points between. */
function leadInOf(block: ContextBlock, point: Candidate): Candidate | undefined {
  const before = block.units.filter((u) => u.unit.start < point.unit.start).sort((a, b) => b.unit.start - a.unit.start);
  for (const u of before) {
    if (u.unit.text.trimEnd().endsWith(":")) return u;
    if (!POINT.test(u.unit.text)) return undefined;
  }
  return undefined;
}

/** Most points quoted under one lead-in: a longer list is for the reader to open. */
const MAX_POINTS = 5;

/** The quoted points right after a lead-in, up to the first sentence that is not one. */
function pointsOf(block: ContextBlock, leadIn: Candidate): Candidate[] {
  const after = block.units.filter((u) => u.unit.start > leadIn.unit.start).sort((a, b) => a.unit.start - b.unit.start);
  const out: Candidate[] = [];
  for (const u of after) {
    if (!POINT.test(u.unit.text) || out.length >= MAX_POINTS) break;
    out.push(u);
  }
  return out;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let both = 0;
  for (const s of a) if (b.has(s)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 0 : both / union;
}

/** A quoted sentence as answer text: inert keys, one line, without the paragraph number. */
function quoteText(text: string): string {
  return neutralizeKeys(text).replace(/\s+/g, " ").replace(/^\d{1,3}\.\s+/, "").trim();
}

export function extractiveDrafts(context: AnswerContext, maxSentences = DEFAULT_MAX_SENTENCES): DraftSentence[] {
  const keyOf = new Map<Candidate, ContextBlock>();
  for (const b of context.blocks) for (const c of b.units) keyOf.set(c, b);
  const relevant = [...keyOf.keys()]
    .filter((c) => c.relevant && c.stems.size >= MIN_CONTENT_WORDS)
    .sort((a, b) => b.score - a.score);
  const best = relevant[0]?.score ?? 0;
  const picked: Candidate[] = [];
  const max = Math.max(1, maxSentences);
  /** Lead-ins quoted only to introduce a picked point: they do not bring the rest of their list. */
  const forPoint = new Set<Candidate>();
  for (const c of relevant) {
    if (picked.length >= max) break;
    if (picked.length >= MIN_SENTENCES && c.score < best * RELATIVE_FLOOR) break;
    if (picked.includes(c) || picked.some((p) => jaccard(p.stems, c.stems) >= NEAR_DUPLICATE)) continue;
    // A point ("(b) an intermediate report …") means nothing without the sentence introducing the list.
    const block = keyOf.get(c);
    const leadIn = POINT.test(c.unit.text) && block !== undefined ? leadInOf(block, c) : undefined;
    const extra = leadIn !== undefined && !picked.includes(leadIn) ? [leadIn] : [];
    if (picked.length + 1 + extra.length > max) continue;
    picked.push(c, ...extra);
    for (const e of extra) forPoint.add(e);
  }
  // A lead-in ("… submit the following to the competent authority:") is quoted with its points, or not at all.
  for (const c of [...picked]) {
    const block = keyOf.get(c);
    if (block === undefined || forPoint.has(c) || !c.unit.text.trimEnd().endsWith(":")) continue;
    const points = pointsOf(block, c);
    if (points.length === 0) picked.splice(picked.indexOf(c), 1);
    for (const p of points) if (!picked.includes(p)) picked.push(p);
  }
  const order: ContextBlock[] = [];
  for (const c of picked) {
    const b = keyOf.get(c);
    if (b && !order.includes(b)) order.push(b);
  }
  const out: DraftSentence[] = [];
  for (const b of order) {
    for (const c of picked.filter((p) => keyOf.get(p) === b).sort((x, y) => x.unit.start - y.unit.start)) {
      out.push({ text: quoteText(c.unit.text), keys: [b.key], refusal: false });
    }
  }
  return out;
}
