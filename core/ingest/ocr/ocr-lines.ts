import type { LayoutLine, PositionedItem } from "../layout-types.ts";
import { assignRows, makeLine, SPLIT_GAP_EM } from "../line-builder.ts";
import type { OcrLine, OcrWord } from "./tesseract-pool.ts";

// Tesseract's words → the same line records a text PDF gives (layout-types.ts), in PDF space of
// the page (points, top-left origin): from here on columns, running headers, footnotes, sections,
// citations and the viewer's highlight treat a scanned page exactly like a typed one.
//
// Lines are Tesseract's own (it follows a line's baseline across a skewed scan, where grouping
// words by height would mix neighbouring lines: 0.6° over a 500 pt line is 5 pt, half a line),
// but cut wherever two words are a column gutter apart, and their reading order is ours
// (column-layout.ts): Tesseract's block order interleaved the corpus's three-column HIPAA page.
// Every word becomes a positioned item whose box is exactly the word's box on the page, with an
// explicit space item between words, so a line's box, a highlight, and a gutter split all fall on
// the words Tesseract saw.

/** Words below this confidence with no letter or digit are specks, rules and frame edges. */
const NOISE_CONFIDENCE = 50;
/** Confidence a word needs to count as recognisable text (see hasRecognisableText). */
const RECOGNISED_CONFIDENCE = 60;
/** Fewer recognisable characters than this on a page: an image without text. */
const MIN_RECOGNISED_CHARS = 10;
/**
 * A word whose strokes are this much thicker than the page's typical word is bold (stroke-width.ts:
 * on the HIPAA scan bold headings are well above this ratio, and single short words scatter below it).
 */
const BOLD_STROKE_RATIO = 1.3;
/** Below this many words the page's typical stroke is not known well enough to call any bold. */
const MIN_WORDS_FOR_BOLD = 20;

export interface OcrPageText {
  lines: LayoutLine[];
  /** Mean word confidence weighted by characters, 0–100 (0 when nothing was read). */
  confidence: number;
  /** Non-space characters read with at least RECOGNISED_CONFIDENCE. */
  recognisedChars: number;
}

function isNoise(word: OcrWord): boolean {
  return word.confidence < NOISE_CONFIDENCE && !/[\p{L}\p{N}]/u.test(word.text);
}

/** The baseline's height at x (it slopes on a skewed scan). */
function baselineAt(line: OcrLine, x: number): number {
  const { x0, y0, x1, y1 } = line.baseline;
  if (x1 === x0) return y1;
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

/** The stroke width of the page's body text: the median over its characters. */
function bodyStroke(lines: readonly OcrLine[]): number | null {
  const words = lines.flatMap((l) => l.words).filter((w) => w.stroke > 0 && /\p{L}/u.test(w.text));
  if (words.length < MIN_WORDS_FOR_BOLD) return null;
  const strokes = words.flatMap((w) => Array.from({ length: Math.min(inkChars(w.text), 30) }, () => w.stroke)).sort((a, b) => a - b);
  return strokes[Math.floor(strokes.length / 2)] ?? null;
}

function wordItem(word: OcrWord, line: OcrLine, scale: number, fontSize: number, boldStroke: number): PositionedItem {
  const baseline = baselineAt(line, (word.x0 + word.x1) / 2) / scale;
  const top = word.y0 / scale;
  const bottom = word.y1 / scale;
  return {
    // Tesseract glues the section sign to the word before it ("in§ 164.308"); legal text never does.
    text: word.text.replace(/(?<=[\p{L}\p{N}])§/gu, " §"),
    x: word.x0 / scale,
    baseline,
    width: Math.max(0, (word.x1 - word.x0) / scale),
    fontSize,
    // Chosen so that itemTop/itemBottom give the word's own box (a comma sits below the baseline).
    ascent: (baseline - top) / fontSize,
    descent: (bottom - baseline) / fontSize,
    bold: word.stroke >= boldStroke,
    isSpace: false,
  };
}

function spaceItem(prev: PositionedItem, next: PositionedItem): PositionedItem {
  const right = prev.x + prev.width;
  return { ...prev, text: " ", x: right, width: Math.max(0, next.x - right), isSpace: true };
}

/** One Tesseract line → one or more lines of items (cut at column-sized gaps). */
function lineItems(line: OcrLine, scale: number, boldStroke: number): PositionedItem[][] {
  // Row height covers ascenders and descenders, as a font's em roughly does.
  const fontSize = Math.max(1, line.rowHeight / scale);
  const words = [...line.words].filter((w) => !isNoise(w)).sort((a, b) => a.x0 - b.x0);
  const pieces: PositionedItem[][] = [];
  let current: PositionedItem[] = [];
  let prev: PositionedItem | undefined;
  for (const word of words) {
    const item = wordItem(word, line, scale, fontSize, boldStroke);
    if (prev !== undefined && item.x - (prev.x + prev.width) > SPLIT_GAP_EM * fontSize) {
      pieces.push(current);
      current = [];
    } else if (prev !== undefined) {
      current.push(spaceItem(prev, item));
    }
    current.push(item);
    prev = item;
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}

/**
 * Row heights of one font size vary a little from line to line (a line without descenders is
 * shorter): sizes within SIZE_TOLERANCE of the page's body size become that size, so headings
 * and titles, which are found by a size above the body's, stand out as they do in a text PDF.
 */
const SIZE_TOLERANCE = 0.2;

function snapFontSizes(lines: LayoutLine[]): LayoutLine[] {
  const weighted = lines.flatMap((l) => Array.from({ length: Math.min(l.text.length, 200) }, () => l.fontSize)).sort((a, b) => a - b);
  const body = weighted[Math.floor(weighted.length / 2)];
  if (body === undefined) return lines;
  for (const line of lines) {
    if (Math.abs(line.fontSize - body) <= SIZE_TOLERANCE * body) line.fontSize = Math.round(body * 10) / 10;
  }
  return lines;
}

/** Characters of a word counted for the confidence mean and the recognisable-text test. */
function inkChars(text: string): number {
  return text.replace(/\s/g, "").length;
}

/** A page's OCR lines (pixels of a picture at `scale` pixels per point) as layout lines of `page`. */
export function ocrPageText(lines: readonly OcrLine[], scale: number, page: number): OcrPageText {
  let weighted = 0;
  let chars = 0;
  let recognisedChars = 0;
  for (const line of lines) {
    for (const word of line.words) {
      const n = inkChars(word.text);
      weighted += word.confidence * n;
      chars += n;
      if (word.confidence >= RECOGNISED_CONFIDENCE && /[\p{L}\p{N}]/u.test(word.text)) recognisedChars += n;
    }
  }
  const body = bodyStroke(lines);
  const boldStroke = body === null ? Infinity : BOLD_STROKE_RATIO * body;
  const layout = snapFontSizes(lines.flatMap((line) => lineItems(line, scale, boldStroke).flatMap((items) => makeLine(items, page, 0) ?? [])));
  return {
    lines: recognisedChars >= MIN_RECOGNISED_CHARS ? assignRows(layout) : [],
    confidence: chars === 0 ? 0 : Math.round((weighted / chars) * 10) / 10,
    recognisedChars,
  };
}
