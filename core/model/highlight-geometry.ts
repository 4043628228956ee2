import type { Box } from "./ingest-types.ts";
import type { TextSpan } from "./section-types.ts";

// Where the viewer draws a cited sentence: on every line of it, the part of the line's box that
// holds its characters, by the share of the line's characters before and within them. Browser-safe
// (the renderer's pdf-page.tsx draws with it, through the contract); tests check with it that a
// highlight lies on the printed words, on text pages and on scans alike.

/** The part of a line's box that holds characters [from, to) of its span (a sentence starting mid-line starts mid-box). */
export function partOfLine(span: TextSpan, from: number, to: number): { x: number; width: number } {
  const length = Math.max(1, span.end - span.start);
  const a = Math.max(0, Math.min(1, (from - span.start) / length));
  const b = Math.max(a, Math.min(1, (to - span.start) / length));
  return { x: span.box.x + a * span.box.width, width: (b - a) * span.box.width };
}

/** The boxes drawn strongly for characters [start, end) of a section's text, in page space. */
export function highlightBoxes(spans: readonly TextSpan[], start: number, end: number): Array<{ page: number; box: Box }> {
  return spans
    .filter((s) => s.start < end && s.end > start)
    .map((s) => {
      const part = partOfLine(s, Math.max(s.start, start), Math.min(s.end, end));
      return { page: s.page, box: { x: part.x, y: s.box.y, width: part.width, height: s.box.height } };
    });
}
