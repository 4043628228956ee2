import type { TextLine } from "../model/ingest-types.ts";
import type { FlowLine } from "./flow.ts";
import type { DetectContext, HeadingCandidate } from "./heading-types.ts";
import { isBold, isCentred, isLarger } from "./layout-stats.ts";

// A heading's title is printed on the label line ("§ 164.308 Administrative safeguards."), on the
// lines after it ("Article 19" / "Reporting of major ICT-related incidents"), or both when a long
// title wraps. Title lines look like the heading and sit close to it; the body starts where the
// print changes or a gap opens.

const MAX_TITLE_LINES = 4;
const LIST_MARKER = /^(\d{1,3}[.)]|\(?[a-z]{1,4}\)|\(\d{1,3}\)|[-–•▪])\s/;

function gap(prev: TextLine, next: TextLine): number {
  return next.box.y - (prev.box.y + prev.box.height);
}

function sameSize(a: TextLine, b: TextLine): boolean {
  return Math.abs(a.fontSize - b.fontSize) <= 0.6;
}

function plainTitle(
  lines: readonly FlowLine[],
  index: number,
  c: HeadingCandidate,
  byLine: ReadonlyMap<number, HeadingCandidate>,
): { title: string; end: number } {
  const next = lines[index + 1];
  const inline = c.inlineTitle;
  if (inline.length > 0 || next === undefined || byLine.has(next.index)) return { title: inline, end: index + 1 };
  if (next.text.length > 150 || LIST_MARKER.test(next.text)) return { title: "", end: index + 1 };
  return { title: next.text, end: index + 2 };
}

/** Whether `next` continues the title started by `label` (and continued up to `prev`). */
function continuesTitle(label: TextLine, prev: TextLine, next: TextLine, hasInline: boolean, ctx: DetectContext): boolean {
  const { stats } = ctx;
  if (next.page !== prev.page || next.column !== prev.column) return false;
  const g = gap(prev, next);
  if (g < -prev.box.height * 0.5) return false;
  const first = prev === label;
  // The gap between a bare label and its title is often a blank line; a wrapped title is tight.
  const limit = (first && !hasInline ? 4 : 1.0) * Math.max(prev.fontSize, next.fontSize);
  if (g > limit) return false;
  if (isBold(next, stats)) return isBold(label, stats) || !hasInline;
  if (!hasInline && isCentred(next, stats) && isCentred(label, stats)) return true;
  return isLarger(next, stats) && sameSize(next, label);
}

export function gatherTitle(
  lines: readonly FlowLine[],
  index: number,
  c: HeadingCandidate,
  ctx: DetectContext,
  byLine: ReadonlyMap<number, HeadingCandidate>,
): { title: string; end: number } {
  if (c.titleMode === "run-in") return { title: "", end: index };
  const label = lines[index];
  if (label === undefined) return { title: c.inlineTitle, end: index + 1 };
  if (ctx.stats.plain) return c.titleMode === "next-lines" ? plainTitle(lines, index, c, byLine) : { title: c.inlineTitle, end: index + 1 };
  const parts = c.inlineTitle.length > 0 ? [c.inlineTitle] : [];
  let end = index + 1;
  if (c.titleMode === "next-lines") {
    let prev = label.line;
    for (let j = index + 1; j < lines.length && j <= index + MAX_TITLE_LINES; j++) {
      const next = lines[j];
      if (next === undefined || byLine.has(next.index)) break;
      if (next.text.length > 220 || LIST_MARKER.test(next.text)) break;
      // Whether the title began on the label line, not whether it has lines yet: a centred title
      // that wraps (GDPR Council "Article 19") continues centred on the next line.
      if (!continuesTitle(label.line, prev, next.line, c.inlineTitle.length > 0, ctx)) break;
      parts.push(next.text);
      prev = next.line;
      end = j + 1;
      // A title that reads as a complete sentence is complete.
      if (/[.](\s?\d{1,3})*$/.test(next.text) && parts.join(" ").split(/\s+/).length >= 4) break;
    }
  }
  return { title: stripFootnoteMarks(parts.join(" ").replace(/\s+/g, " ").trim()), end };
}

/** "Workforce Security (§ 164.308(a)(3))27" → without the footnote call glued to the end. */
export function stripFootnoteMarks(title: string): string {
  return title.replace(/([.)\]])\d{1,3}(\s\d{1,3})*$/, "$1");
}
