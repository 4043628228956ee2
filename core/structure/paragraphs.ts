import type { TextLine } from "../model/ingest-types.ts";
import type { TextSpan } from "../model/section-types.ts";
import type { LayoutStats } from "./layout-stats.ts";
import { columnKey } from "./layout-stats.ts";

// Joins a section's lines into text: a space within a paragraph, "\n" between paragraphs, with
// a span per line so every character can be traced back to where it is printed. Paragraphs are
// read from the page: a taller gap than the line spacing, a new list/paragraph marker, or a short
// line that ends a sentence.

export interface BodyPiece {
  /** The part of the line that belongs to the body (a run-in heading's line minus its label). */
  text: string;
  line: TextLine;
}

export interface AssembledText {
  text: string;
  spans: TextSpan[];
}

const MARKER = /^(\d{1,3}(\.\d{1,3})*[.)]|\(?[a-z]{1,4}\)|\(\d{1,3}\)|[-–•▪]|[A-Z]\.)\s/;
/**
 * Rule "a wrapped reference is not a new paragraph": "… specified in figure 10 to paragraph" then
 * "(i) of this AD correspond to …" is one sentence whose reference the print wrapped, not a point
 * (i). A line ending with the word a reference starts with, then a marker followed by the words a
 * reference goes on with.
 */
const REFERENCE_WORD_ENDS = /\b(?:paragraphs?|subparagraphs?|sections?|points?|clauses?|items?|articles?)$/i;
const REFERENCE_GOES_ON = /^(?:\([a-zA-Z0-9]{1,4}\))+,?\s+(?:of|and|or|to|through|above|below|thereof)\b/;

/**
 * Rule "a paragraph's number may lose its mark in print": "4.Il documento …" (space lost) or "4 In
 * sede …" (dot lost) after a line that ends a sentence opens a paragraph; the tracker decides
 * whether it is the next one (citations/pinpoint.ts).
 */
const LOST_MARK = /^\d{1,3}(?:\.(?=\p{Lu})|\s(?=\p{Lu}\p{Ll}))/u;

function sameRow(a: TextLine, b: TextLine): boolean {
  return a.page === b.page && Math.abs(a.box.y - b.box.y) < Math.min(a.box.height, b.box.height) * 0.5;
}

export function isParagraphBreak(prev: BodyPiece, next: BodyPiece, stats: LayoutStats): boolean {
  const a = prev.line;
  const b = next.line;
  if (a === b || sameRow(a, b)) return false;
  const endsSentence = /[.:;!?]["'’”)]?$/.test(prev.text);
  const marker =
    (MARKER.test(next.text) && !(REFERENCE_WORD_ENDS.test(prev.text) && REFERENCE_GOES_ON.test(next.text))) || (endsSentence && LOST_MARK.test(next.text));
  if (stats.plain) {
    if (a.page === b.page && b.box.y - a.box.y > stats.leading * 1.5) return true;
    return marker;
  }
  if (a.page === b.page && a.column === b.column) {
    const step = b.box.y - a.box.y;
    if (step > Math.max(stats.leading, a.fontSize * 1.1) * 1.45) return true;
  }
  if (marker) return true;
  const col = stats.columns.get(columnKey(a));
  if (col !== undefined && endsSentence) {
    const right = a.box.x + a.box.width;
    if (col.right - right > (col.right - col.left) * 0.15) return true;
  }
  return false;
}

export function assemble(pieces: readonly BodyPiece[], stats: LayoutStats): AssembledText {
  let text = "";
  const spans: TextSpan[] = [];
  let prev: BodyPiece | undefined;
  for (const piece of pieces) {
    const t = piece.text.trim();
    if (t.length === 0) continue;
    if (prev !== undefined) text += isParagraphBreak(prev, piece, stats) ? "\n" : " ";
    const start = text.length;
    text += t;
    spans.push({ start, end: text.length, page: piece.line.page, box: { ...piece.line.box } });
    prev = { text: t, line: piece.line };
  }
  return { text, spans };
}
