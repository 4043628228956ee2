import type { FlowLine } from "./flow.ts";
import type { DetectContext, HeadingCandidate, HeadingDetector } from "./heading-types.ts";
import { isTocLine } from "./heading-types.ts";
import { meetsGroupStyle, prominenceThresholds } from "./heading-vote.ts";
import { isStyled } from "./layout-stats.ts";
import { followsSequence } from "./sequence-guard.ts";
import { longestChain } from "./sequence-chain.ts";
import { gatherTitle } from "./heading-title.ts";

// Turns per-line candidates into the headings the document really has, in order, with their
// nesting: candidates must be printed like their group's headings, continue their numbering and
// not belong to a phase that has ended (no recitals after Article 1).

export interface AcceptedHeading {
  /** Index in the line stream of the label line. */
  start: number;
  /** First line index after the heading (label + title lines). */
  bodyStart: number;
  candidate: HeadingCandidate;
  title: string;
  /** Index in the accepted list of the enclosing heading, -1 at top level. */
  parent: number;
  level: number;
}

export interface RawCandidate {
  line: FlowLine;
  candidate: HeadingCandidate;
}

function detectLine(line: FlowLine, detectors: readonly HeadingDetector[], ctx: DetectContext): HeadingCandidate | undefined {
  for (const detector of detectors) {
    const candidate = detector.detect(line, ctx);
    if (candidate !== undefined) return candidate;
  }
  return undefined;
}

export function detectRaw(lines: readonly FlowLine[], detectors: readonly HeadingDetector[], ctx: DetectContext): RawCandidate[] {
  const out: RawCandidate[] = [];
  for (const line of lines) {
    if (isTocLine(line.text)) continue;
    const candidate = detectLine(line, detectors, ctx);
    if (candidate === undefined) continue;
    // A contents entry that wraps has its dot leaders on the next line.
    const next = lines[line.index + 1];
    if (next !== undefined && isTocLine(next.text) && detectLine(next, detectors, ctx) === undefined) continue;
    out.push({ line, candidate });
  }
  return out;
}

/** Drops candidates that break their document-wide numbering (see longestChain). */
function keepChains(raw: readonly RawCandidate[]): RawCandidate[] {
  const byKey = new Map<string, number[]>();
  raw.forEach((r, i) => {
    const c = r.candidate;
    if (c.order === undefined || c.sequence === undefined || c.scope === "parent") return;
    const key = c.sequenceKey ?? c.group;
    const list = byKey.get(key) ?? [];
    list.push(i);
    byKey.set(key, list);
  });
  const drop = new Set<number>();
  for (const indices of byKey.values()) {
    const items = indices.map((i) => ({ order: raw[i]?.candidate.order ?? [] }));
    const rule = raw[indices[0] ?? 0]?.candidate.sequence ?? "increasing";
    const keep = new Set(longestChain(items, rule).map((k) => indices[k]));
    for (const i of indices) if (!keep.has(i)) drop.add(i);
  }
  return raw.filter((_, i) => !drop.has(i));
}

/** Ends like a sentence, allowing footnote markers after the full stop ("platforms.23"). */
export function endsLikeSentence(text: string): boolean {
  return /[.](\s?\d{1,3})*$/.test(text);
}

function sentenceTitle(title: string): boolean {
  return endsLikeSentence(title) && title.split(/\s+/).length >= 4;
}

function stripPrefix(label: string): string {
  return label.replace(/^\S+\s+(?=\d)/, "");
}

export function scanHeadings(lines: readonly FlowLine[], detectors: readonly HeadingDetector[], ctx: DetectContext): AcceptedHeading[] {
  const detected = detectRaw(lines, detectors, ctx);
  const thresholds = prominenceThresholds(detected, ctx.stats);
  const byLine = new Map<number, HeadingCandidate>(detected.map((r) => [r.line.index, r.candidate]));
  const styled = detected.filter(({ line, candidate }) => {
    if (!meetsGroupStyle(line, thresholds.get(candidate.group), ctx.stats)) return false;
    return candidate.needsStyle !== true || ctx.stats.plain || isStyled(line.line, ctx.stats);
  });
  const raw = keepChains(styled);
  const accepted: AcceptedHeading[] = [];
  const stack: number[] = [];
  const lastOrder = new Map<string, number[]>();
  const closed = new Set<string>();
  let skipUntil = -1;

  for (const { line, candidate } of raw) {
    if (line.index < skipUntil) continue;
    const c = candidate;
    if (closed.has(c.group)) continue;

    while (stack.length > 0) {
      const top = accepted[stack[stack.length - 1] ?? -1];
      if (top === undefined || top.candidate.rank < c.rank) break;
      stack.pop();
    }
    const parent = stack.length > 0 ? (stack[stack.length - 1] ?? -1) : -1;

    let seqKey = c.sequenceKey ?? c.group;
    if (c.scope === "parent") seqKey += `@${parent}`;
    if (c.order !== undefined && c.sequence !== undefined && c.scope === "parent") {
      if (!followsSequence(c.sequence, lastOrder.get(seqKey), c.order)) continue;
    }

    const { title, end } = gatherTitle(lines, line.index, c, ctx, byLine);
    let final = c;
    if (c.requirementIfSentence === true && sentenceTitle(title)) {
      final = { ...c, kind: "requirement", label: stripPrefix(c.label), titleIsBody: true };
    }
    if (c.order !== undefined) lastOrder.set(seqKey, c.order);
    for (const g of c.closes ?? []) closed.add(g);
    accepted.push({ start: line.index, bodyStart: end, candidate: final, title, parent, level: stack.length });
    stack.push(accepted.length - 1);
    skipUntil = end;
  }
  return accepted;
}
