import type { LayoutLine } from "./layout-types.ts";

// Footnotes interrupt sentences when read inline ("…the supervisory authority (1) OJ L 119…").
// A footnote block is the bottom run of a column's lines, in the lower part of the page, below
// some body text, and recognisable by either
//  (a) a font smaller than the body with a marker line in it ("1 ", "(12)", "*", "†"), as in the
//      Official Journal, the Federal Register and NIST, or
//  (b) a line that starts with a small marker printed next to body-size text (Word-style
//      footnotes: a superscript "1" then "OJ C 229, …" at body size), as in Council documents.
// Position alone never decides: pages of small print or tables stay body.

/** A footnote's font is at most this share of the body font size. */
const SMALL_FONT = 0.9;
/** A marker is at most this share of the text it introduces. */
const MARKER_FONT = 0.8;
/** The footnote block must start below this share of the page height. */
const LOWER_PART = 0.4;
/** Lines in a (b)-style block may not be bigger than body text (that would be a heading). */
const MAX_NOTE_FONT = 1.05;
/** Notes below small print of the same size start after a gap this many times its line pitch. */
const NOTE_GAP = 1.6;
const MARKER = /^(\(\d{1,3}\)|\[\d{1,3}\]|\d{1,3}(?=[\s\p{L}(])|\*{1,3}|[†‡§¹²³⁴⁵⁶⁷⁸⁹])/u;
const MARKER_ONLY = /^(\(?\d{1,3}\)?|\*{1,3}|[†‡§])$/u;

export function startsWithFootnoteMarker(text: string): boolean {
  return MARKER.test(text.trim());
}

/** The line's first glyph run is a bare, smaller marker ("1", "*") followed by text. */
export function startsWithSmallMarker(line: LayoutLine): boolean {
  const ink = line.items.filter((i) => !i.isSpace).sort((a, b) => a.x - b.x);
  const first = ink[0];
  const next = ink[1];
  if (first === undefined || next === undefined) return false;
  return MARKER_ONLY.test(first.text.trim()) && first.fontSize <= MARKER_FONT * next.fontSize;
}

export interface SplitFootnotes {
  body: LayoutLine[];
  footnotes: LayoutLine[];
}

function smallFontBlockStart(lines: LayoutLine[], bodyFontSize: number): number | undefined {
  let start = lines.length;
  while (start > 0) {
    const line = lines[start - 1] as LayoutLine;
    if (!(line.fontSize > 0 && line.fontSize <= SMALL_FONT * bodyFontSize)) break;
    start--;
  }
  if (start === lines.length) return undefined;
  // A footnote block begins with a note's marker: small print above the first marker (the rows of
  // a table set in the notes' size, NIST SP 800-66 Section 4.19) is body.
  const small = lines.slice(start);
  const marked = small.flatMap((l, i) => (startsWithFootnoteMarker(l.text) ? [i] : []));
  if (marked.length === 0) return undefined;
  // A column of small print throughout has no body above its notes (a table page): left as it is.
  if (start === 0) return 0;
  // The notes are set apart by a gap wider than the small print's own line pitch; a table's
  // wrapped number ("800-" then "60 for more …") is not.
  const steps = small
    .slice(1)
    .map((l, i) => l.box.y - (small[i]?.box.y ?? 0))
    .sort((a, b) => a - b);
  const pitch = steps[Math.floor(steps.length / 2)] ?? 0;
  const apart = marked.find((i) => i > 0 && (small[i]?.box.y ?? 0) - (small[i - 1]?.box.y ?? 0) > NOTE_GAP * pitch);
  return start + (apart ?? marked[0] ?? 0);
}

function markerBlockStart(lines: LayoutLine[], bodyFontSize: number, pageHeight: number): number | undefined {
  let start: number | undefined;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as LayoutLine;
    if (line.fontSize > MAX_NOTE_FONT * bodyFontSize || line.box.y < LOWER_PART * pageHeight) break;
    if (startsWithSmallMarker(line)) start = i;
  }
  return start;
}

/** Separates footnote blocks from body lines; both keep reading order. */
export function splitFootnotes(ordered: LayoutLine[], bodyFontSize: number, pageHeight: number): SplitFootnotes {
  if (bodyFontSize <= 0 || ordered.length === 0) return { body: ordered, footnotes: [] };
  const isFootnote = new Set<LayoutLine>();
  for (const column of new Set(ordered.map((l) => l.column))) {
    const lines = ordered.filter((l) => l.column === column).sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
    const starts = [smallFontBlockStart(lines, bodyFontSize), markerBlockStart(lines, bodyFontSize, pageHeight)];
    const valid = starts.filter((s): s is number => s !== undefined && s > 0 && (lines[s]?.box.y ?? 0) >= LOWER_PART * pageHeight);
    if (valid.length === 0) continue;
    for (const line of lines.slice(Math.min(...valid))) isFootnote.add(line);
  }
  if (isFootnote.size === 0) return { body: ordered, footnotes: [] };
  return {
    body: ordered.filter((l) => !isFootnote.has(l)),
    footnotes: ordered.filter((l) => isFootnote.has(l)),
  };
}
