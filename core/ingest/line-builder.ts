import type { LayoutLine, PositionedItem } from "./layout-types.ts";
import { itemBottom, itemTop } from "./layout-types.ts";

// Items → lines. pdfjs gives runs of glyphs in content-stream order, which is not reading order,
// so lines are rebuilt geometrically: walking items left to right, an item extends the line that
// ends just before it (gap below a column gutter) and overlaps it vertically (so superscripts
// join their line). A line never reaches across a column gutter, and columns with different
// baseline grids cannot chain into each other. Over-splitting at wide spaces is harmless: the
// column stage re-joins pieces of one row that fall in the same column.

/** A gap wider than this many ems starts a new line (column gutters, tab stops). */
export const SPLIT_GAP_EM = 0.8;
/** A gap wider than this many ems between two items is a word space. */
const SPACE_GAP_EM = 0.15;
/** An item joins a line when their vertical extents overlap by this share of the smaller. */
const LINE_OVERLAP = 0.5;
/** Superscripts sit at most this many (smaller) ems off the line's baseline. */
const BASELINE_SHIFT = 0.8;
/** Lines sharing this share of the smaller line's height are one row. */
const ROW_OVERLAP = 0.5;

interface OpenLine {
  items: PositionedItem[];
  right: number;
  /** Extent of the line's largest item: joining is tested against it, not the growing union. */
  coreTop: number;
  coreBottom: number;
  coreSize: number;
  baseline: number;
}

function overlap(aTop: number, aBottom: number, bTop: number, bBottom: number): number {
  return Math.min(aBottom, bBottom) - Math.max(aTop, bTop);
}

/** True when `next` repeats `prev` at almost the same place: fake-bold double printing. */
function isOverprint(prev: PositionedItem, next: PositionedItem): boolean {
  return next.text === prev.text && Math.abs(next.x - prev.x) < 0.2 * prev.fontSize && Math.abs(next.baseline - prev.baseline) < 0.2 * prev.fontSize;
}

function bestLine(open: OpenLine[], item: PositionedItem): OpenLine | undefined {
  const top = itemTop(item);
  const bottom = itemBottom(item);
  const height = Math.max(bottom - top, 0.1);
  let best: OpenLine | undefined;
  let bestScore = -Infinity;
  for (const line of open) {
    const em = Math.max(item.fontSize, line.coreSize);
    if (item.x - line.right > SPLIT_GAP_EM * em) continue;
    // A drop cap spans several lines: only the line it sits on may take items of its height.
    if (Math.abs(item.baseline - line.baseline) > BASELINE_SHIFT * Math.min(item.fontSize, line.coreSize)) continue;
    const shared = overlap(top, bottom, line.coreTop, line.coreBottom);
    if (shared < LINE_OVERLAP * Math.min(height, Math.max(line.coreBottom - line.coreTop, 0.1))) continue;
    const score = shared - Math.abs(item.baseline - line.baseline);
    if (score > bestScore) {
      bestScore = score;
      best = line;
    }
  }
  return best;
}

function chainItems(items: PositionedItem[]): PositionedItem[][] {
  const sorted = [...items].sort((a, b) => a.x - b.x || a.baseline - b.baseline);
  const open: OpenLine[] = [];
  for (const item of sorted) {
    const line = bestLine(open, item);
    if (line === undefined) {
      if (item.isSpace) continue;
      open.push({
        items: [item],
        right: item.x + item.width,
        coreTop: itemTop(item),
        coreBottom: itemBottom(item),
        coreSize: item.fontSize,
        baseline: item.baseline,
      });
      continue;
    }
    if (item.isSpace) {
      line.items.push(item);
      continue;
    }
    const last = [...line.items].reverse().find((i) => !i.isSpace);
    if (last !== undefined && isOverprint(last, item)) continue;
    line.items.push(item);
    line.right = Math.max(line.right, item.x + item.width);
    if (item.fontSize > line.coreSize) {
      line.coreTop = itemTop(item);
      line.coreBottom = itemBottom(item);
      line.coreSize = item.fontSize;
      line.baseline = item.baseline;
    }
  }
  return open.map((l) => trimSpaces(l.items)).filter((l) => l.length > 0);
}

function trimSpaces(items: PositionedItem[]): PositionedItem[] {
  let end = items.length;
  while (end > 0 && items[end - 1]?.isSpace === true) end--;
  return items.slice(0, end);
}

/** Joins items (sorted by x) into text, inserting a space where the layout shows one. */
export function joinItems(items: PositionedItem[]): string {
  let text = "";
  let pendingSpace = false;
  let prev: PositionedItem | undefined;
  for (const item of items) {
    if (item.isSpace) {
      pendingSpace = true;
      continue;
    }
    if (prev !== undefined) {
      const gap = item.x - (prev.x + prev.width);
      const em = Math.min(item.fontSize, prev.fontSize);
      const needsSpace = pendingSpace || gap > SPACE_GAP_EM * em;
      if (needsSpace && !/\s$/.test(text) && !/^\s/.test(item.text)) text += " ";
    }
    text += item.text;
    pendingSpace = false;
    prev = item;
  }
  return text.replace(/\s+/g, " ").trim();
}

/** Size and boldness of the font covering most characters. */
function dominantFont(items: PositionedItem[]): { fontSize: number; bold: boolean } {
  const bySize = new Map<number, number>();
  let boldChars = 0;
  let chars = 0;
  for (const item of items) {
    if (item.isSpace) continue;
    const n = item.text.replace(/\s/g, "").length;
    const size = Math.round(item.fontSize * 10) / 10;
    bySize.set(size, (bySize.get(size) ?? 0) + n);
    chars += n;
    if (item.bold) boldChars += n;
  }
  let fontSize = 0;
  let best = -1;
  for (const [size, n] of bySize) {
    if (n > best || (n === best && size > fontSize)) {
      best = n;
      fontSize = size;
    }
  }
  return { fontSize, bold: chars > 0 && boldChars * 2 > chars };
}

/** Builds one line from items of a single row (any order). Returns undefined if it has no ink. */
export function makeLine(items: PositionedItem[], page: number, row: number): LayoutLine | undefined {
  const sorted = [...items].sort((a, b) => a.x - b.x);
  const ink = sorted.filter((i) => !i.isSpace);
  if (ink.length === 0) return undefined;
  const text = joinItems(sorted);
  if (text.length === 0) return undefined;
  let left = Infinity;
  let right = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  for (const item of ink) {
    left = Math.min(left, item.x);
    right = Math.max(right, item.x + item.width);
    top = Math.min(top, itemTop(item));
    bottom = Math.max(bottom, itemBottom(item));
  }
  const { fontSize, bold } = dominantFont(ink);
  return {
    page,
    text,
    box: { x: left, y: top, width: Math.max(right - left, 0), height: Math.max(bottom - top, 0) },
    fontSize,
    bold,
    column: 0,
    row,
    items: sorted,
  };
}

/** Upright items of one page → lines, numbered by row, top to bottom, left to right. */
export function buildLines(items: PositionedItem[], page: number): LayoutLine[] {
  return assignRows(chainItems(items).flatMap((chain) => makeLine(chain, page, 0) ?? []));
}

/** Numbers a page's lines by row (top to bottom) and sorts them by row, then left to right. */
export function assignRows(lines: LayoutLine[]): LayoutLine[] {
  lines.sort((a, b) => a.box.y + a.box.height - (b.box.y + b.box.height) || a.box.x - b.box.x);
  // Lines whose boxes overlap by half the smaller height are one row: a footnote marker printed
  // raised and small next to its text, or two columns' lines at the same height.
  let row = -1;
  let rowTop = 0;
  let rowBottom = -Infinity;
  for (const line of lines) {
    const top = line.box.y;
    const bottom = line.box.y + line.box.height;
    const shared = Math.min(bottom, rowBottom) - Math.max(top, rowTop);
    if (row < 0 || shared < ROW_OVERLAP * Math.min(line.box.height, rowBottom - rowTop)) {
      row++;
      rowTop = top;
      rowBottom = bottom;
    }
    line.row = row;
  }
  return lines.sort((a, b) => a.row - b.row || a.box.x - b.box.x);
}

/** Splits a line at x when no item straddles x (a column gutter the gap test did not catch). */
export function splitLineAt(line: LayoutLine, x: number): [LayoutLine, LayoutLine] | undefined {
  // A space only marks a word break: it falls on the side it starts on, even when it starts at x
  // (the space pdf.js puts between the last word of one column and the first of the next).
  const onLeft = (i: PositionedItem): boolean => (i.isSpace ? i.x < x : i.x + i.width <= x);
  const left = line.items.filter(onLeft);
  const right = line.items.filter((i) => !onLeft(i) && i.x >= x);
  if (left.length + right.length !== line.items.length) return undefined;
  const a = makeLine(left, line.page, line.row);
  const b = makeLine(right, line.page, line.row);
  return a !== undefined && b !== undefined ? [a, b] : undefined;
}
