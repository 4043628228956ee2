import type { LayoutLine } from "./layout-types.ts";
import { lineBottom, lineRight } from "./layout-types.ts";
import { splitLineAt } from "./line-builder.ts";

// Reading order for 1–4 column pages. A gutter is an x-interval that (almost) no column-width line
// crosses while both sides hold many lines over a shared vertical range. Lines wider than a column
// (titles, tables spanning the page) cut the page into horizontal bands; inside a band we read
// column by column. This handles the Federal Register / CFR 3-column layout, EU 2-column layouts
// and full-width headings between column blocks, without a general XY-cut.

export interface Gutter {
  start: number;
  end: number;
}

const MIN_LINES_FOR_COLUMNS = 8;
/** Lines wider than this share of the text width are "wide": they cannot be in one column. */
const WIDE_SHARE = 0.55;
/** Share of column-width lines allowed to cross a gutter (centred captions, stray numbers). */
const CROSSING_TOLERANCE = 0.04;
const MIN_COLUMN_LINES = 3;
/** Narrowest/widest column: real multi-column text has similar columns, tables do not. */
const MIN_WIDTH_RATIO = 0.5;
/** Prose fills its column; sparse table cells do not. */
const MIN_FILL = 0.45;
const MAX_COLUMNS = 4;
/** In running text the median gap between lines is below this share of a line's height. */
const MAX_LINE_GAP = 0.75;
/** Share of a page's lines that may cross the gutters (titles, tables) on a multi-column page. */
const MAX_CROSSING_SHARE = 0.25;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function findGapRuns(lines: LayoutLine[], left: number, width: number, minGap: number): Gutter[] {
  const bins = Math.ceil(width) + 1;
  const coverage = new Int32Array(bins);
  const narrow = lines.filter((l) => l.box.width <= WIDE_SHARE * width);
  for (const line of narrow) {
    const from = Math.max(0, Math.floor(line.box.x - left));
    const to = Math.min(bins, Math.ceil(lineRight(line) - left));
    for (let i = from; i < to; i++) coverage[i] = (coverage[i] ?? 0) + 1;
  }
  const tolerance = Math.floor(CROSSING_TOLERANCE * narrow.length);
  const runs: Gutter[] = [];
  let runStart = -1;
  for (let i = 0; i <= bins; i++) {
    const open = i < bins && (coverage[i] ?? 0) <= tolerance;
    if (open && runStart < 0) runStart = i;
    if (!open && runStart >= 0) {
      // Runs touching the page's text edges are margins, not gutters.
      if (runStart > 0 && i < bins && i - runStart >= minGap) {
        runs.push({ start: left + runStart, end: left + i });
      }
      runStart = -1;
    }
  }
  return runs;
}

function columnIndex(line: LayoutLine, gutters: Gutter[]): number | undefined {
  let index = 0;
  for (const g of gutters) {
    const mid = (g.start + g.end) / 2;
    // A line may end inside the gutter (a last letter printed into it): it is still the left column's.
    if (lineRight(line) <= mid || (line.box.x < g.start && lineRight(line) <= g.end)) return index;
    if (line.box.x < mid) return undefined;
    index++;
  }
  return index;
}

function plausibleColumns(lines: LayoutLine[], gutters: Gutter[], left: number, right: number): boolean {
  const bounds = [left, ...gutters.flatMap((g) => [g.start, g.end]), right];
  const ranges: Array<{ width: number; lines: LayoutLine[] }> = [];
  for (let i = 0; i + 1 < bounds.length; i += 2) {
    ranges.push({ width: (bounds[i + 1] ?? 0) - (bounds[i] ?? 0), lines: [] });
  }
  let crossing = 0;
  for (const line of lines) {
    const c = columnIndex(line, gutters);
    if (c === undefined) crossing++;
    else ranges[c]?.lines.push(line);
  }
  // Mostly full-width lines with a few short ones (paragraph numbers, centred headings) is a
  // single-column page that happens to leave a vertical gap somewhere.
  if (crossing > MAX_CROSSING_SHARE * lines.length) return false;
  const widths = ranges.map((r) => r.width);
  if (Math.min(...widths) / Math.max(...widths) < MIN_WIDTH_RATIO) return false;
  if (ranges.some((r) => r.lines.length === 0)) return false;
  // The last column of a page may hold only a line or two; the others must look like prose.
  const full = ranges.filter((r) => r.lines.length >= MIN_COLUMN_LINES);
  if (ranges.slice(0, -1).some((r) => r.lines.length < MIN_COLUMN_LINES)) return false;
  for (const r of full) {
    if (median(r.lines.map((l) => l.box.width)) < MIN_FILL * r.width) return false;
    if (!isDense(r.lines)) return false;
  }
  const extents = full.map((r) => ({
    top: Math.min(...r.lines.map((l) => l.box.y)),
    bottom: Math.max(...r.lines.map((l) => l.box.y + l.box.height)),
  }));
  for (let i = 1; i < extents.length; i++) {
    const a = extents[i - 1];
    const b = extents[i];
    if (a === undefined || b === undefined) return false;
    const shared = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (shared < 0.3 * Math.min(a.bottom - a.top, b.bottom - b.top)) return false;
  }
  return true;
}

/**
 * Running text is set line under line: the typical gap between a column's consecutive lines is
 * a fraction of a line. The term column of a glossary or the label column of a table has wide
 * gaps between entries and reads better by rows. Medians ignore the odd figure or heading gap.
 */
function isDense(lines: LayoutLine[]): boolean {
  const sorted = [...lines].sort((a, b) => a.box.y - b.box.y);
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1] as LayoutLine;
    const line = sorted[i] as LayoutLine;
    if (line.row !== prev.row) gaps.push(line.box.y - (prev.box.y + prev.box.height));
  }
  if (gaps.length === 0) return true;
  return median(gaps) <= MAX_LINE_GAP * median(lines.map((l) => l.box.height));
}

/** Column gutters of a page, left to right; empty for single-column pages. */
export function detectGutters(lines: LayoutLine[], bodyFontSize: number): Gutter[] {
  if (lines.length < MIN_LINES_FOR_COLUMNS) return [];
  const left = Math.min(...lines.map((l) => l.box.x));
  const right = Math.max(...lines.map((l) => lineRight(l)));
  const width = right - left;
  if (width < 100) return [];
  const minGap = Math.max(3, 0.5 * bodyFontSize);
  const runs = findGapRuns(lines, left, width, minGap);
  if (runs.length === 0 || runs.length > MAX_COLUMNS - 1) return [];
  return plausibleColumns(lines, runs, left, right) ? runs : [];
}

/**
 * Where a line crossing a gutter breaks: the middle of the widest gap between its words that
 * overlaps the gutter. A gutter's middle can fall inside a word's box when a column's last letter
 * runs into the gutter ("office" + "s" ending a point past it, then "set." opening the next column).
 */
function gapNear(line: LayoutLine, g: Gutter): number | undefined {
  const words = line.items.filter((i) => !i.isSpace && i.text.trim() !== "").sort((a, b) => a.x - b.x);
  let best: { at: number; width: number } | undefined;
  for (let i = 1; i < words.length; i++) {
    const before = words[i - 1];
    const after = words[i];
    if (before === undefined || after === undefined) continue;
    const from = before.x + before.width;
    const to = after.x;
    if (to <= from || to < g.start || from > g.end) continue;
    if (best === undefined || to - from > best.width) best = { at: (from + to) / 2, width: to - from };
  }
  return best?.at;
}

/** Lines crossing a gutter only because the gap test missed it are cut there. */
function splitAtGutters(lines: LayoutLine[], gutters: Gutter[]): LayoutLine[] {
  const out: LayoutLine[] = [];
  for (const line of lines) {
    let rest: LayoutLine | undefined = line;
    for (const g of gutters) {
      if (rest === undefined) break;
      const mid = (g.start + g.end) / 2;
      if (rest.box.x < mid && lineRight(rest) > mid) {
        const parts = splitLineAt(rest, gapNear(rest, g) ?? mid);
        if (parts === undefined) break;
        out.push(parts[0]);
        rest = parts[1];
      }
    }
    if (rest !== undefined) out.push(rest);
  }
  return out;
}

function byPosition(a: LayoutLine, b: LayoutLine): number {
  return a.row - b.row || a.box.x - b.box.x;
}

/** Joins pieces of one row that ended up in the same column (wide word spaces, tab stops). */
function mergeRowPieces(lines: LayoutLine[]): LayoutLine[] {
  const out: LayoutLine[] = [];
  for (const line of [...lines].sort(byPosition)) {
    const prev = out[out.length - 1];
    if (prev !== undefined && prev.row === line.row && prev.column === line.column) {
      const right = Math.max(lineRight(prev), lineRight(line));
      const top = Math.min(prev.box.y, line.box.y);
      const bottom = Math.max(prev.box.y + prev.box.height, line.box.y + line.box.height);
      const chars = prev.text.length + line.text.length;
      out[out.length - 1] = {
        ...prev,
        text: `${prev.text} ${line.text}`,
        box: { x: prev.box.x, y: top, width: right - prev.box.x, height: bottom - top },
        fontSize: prev.text.length >= line.text.length ? prev.fontSize : line.fontSize,
        bold: (prev.bold ? prev.text.length : 0) + (line.bold ? line.text.length : 0) > chars / 2,
        items: [...prev.items, ...line.items],
      };
    } else {
      out.push(line);
    }
  }
  return out;
}

/** Orders a page's lines for reading and sets their column index. */
export function orderLines(lines: LayoutLine[], gutters: Gutter[]): LayoutLine[] {
  if (gutters.length === 0) {
    return mergeRowPieces(lines.map((l) => ({ ...l, column: 0 })));
  }
  const pieces = splitAtGutters(lines, gutters).sort(byPosition);
  const ordered: LayoutLine[] = [];
  let band: LayoutLine[] = [];
  const flushBand = (): void => {
    const merged = mergeRowPieces(band);
    merged.sort((a, b) => a.column - b.column || byPosition(a, b));
    ordered.push(...merged);
    band = [];
  };
  for (const line of pieces) {
    const column = columnIndex(line, gutters);
    if (column === undefined) {
      // A line across the gutters closes the band above it: everything above is read first.
      flushBand();
      ordered.push({ ...line, column: 0 });
    } else {
      band.push({ ...line, column });
    }
  }
  flushBand();
  return ordered;
}

/**
 * Reading order for a page read with OCR: gutters found band by band.
 * A scanned leaflet often sets a two-column block between full-width paragraphs (the corpus's
 * two-column brochure: 20 full-width lines, 36 in two columns, 15 full-width): for the page as a
 * whole half its lines cross the gutter and detectGutters rightly calls it one column, so its
 * columns were read across. Here lines wider than a column cut the page into bands, and each band
 * of enough lines is tested for columns on its own, with the same tests (a band too short for
 * that keeps the page's gutters); a heading just above or below a band's columns is read before or
 * after them. Text PDFs keep the page-level rule: it has been measured on the whole corpus, this
 * only on scans.
 */
export function orderLinesInBands(lines: LayoutLine[], bodyFontSize: number): LayoutLine[] {
  const pageGutters = detectGutters(lines, bodyFontSize);
  if (lines.length < MIN_LINES_FOR_COLUMNS) return orderLines(lines, pageGutters);
  const left = Math.min(...lines.map((l) => l.box.x));
  const width = Math.max(...lines.map((l) => lineRight(l))) - left;
  const sorted = [...lines].sort(byPosition);
  const ordered: LayoutLine[] = [];
  let band: LayoutLine[] = [];
  const flush = (): void => {
    // A band too short to show columns of its own keeps the page's (a caption across them).
    const own = detectGutters(band, bodyFontSize);
    const inColumns = orderLines(band, own.length > 0 ? own : pageGutters);
    // A heading just above or below the columns lies in the first column's x-range: it is read
    // before or after the columns, not as part of the first one.
    const others = inColumns.filter((l) => l.column > 0);
    if (others.length === 0) {
      ordered.push(...inColumns);
      band = [];
      return;
    }
    const top = Math.min(...others.map((l) => l.box.y));
    const bottom = Math.max(...others.map((l) => lineBottom(l)));
    const above = inColumns.filter((l) => l.column === 0 && lineBottom(l) < top);
    const below = inColumns.filter((l) => l.column === 0 && l.box.y > bottom);
    ordered.push(...above, ...inColumns.filter((l) => !above.includes(l) && !below.includes(l)), ...below);
    band = [];
  };
  for (const line of sorted) {
    if (line.box.width > WIDE_SHARE * width) {
      flush();
      ordered.push({ ...line, column: 0 });
    } else {
      band.push(line);
    }
  }
  flush();
  return ordered;
}
