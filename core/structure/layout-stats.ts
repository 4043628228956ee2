import type { ParsedDocument, TextLine } from "../model/ingest-types.ts";
import type { FlowLine } from "./flow.ts";

// Headings are recognised as much by how they are printed as by what they say. These statistics
// give the baseline ("body") a document prints most of its text in, so "bold", "larger" and
// "centred" mean something relative to that document rather than to fixed numbers.

export interface ColumnExtent {
  left: number;
  right: number;
}

export interface LayoutStats {
  /** Font size covering most characters. */
  bodySize: number;
  /** Share of characters printed bold: near 1 means bold carries no heading signal. */
  boldShare: number;
  /** Typical distance between baselines of consecutive body lines. */
  leading: number;
  /** True for plain-text sources: no typography, structure comes from words and blank lines. */
  plain: boolean;
  /** Text extent of each page column, keyed by `${page}:${column}`. */
  columns: Map<string, ColumnExtent>;
}

function mode(values: Map<number, number>, fallback: number): number {
  let best = fallback;
  let bestCount = -1;
  for (const [value, count] of values) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}

export function columnKey(line: TextLine): string {
  return `${line.page}:${line.column}`;
}

export function computeLayoutStats(doc: ParsedDocument, lines: FlowLine[]): LayoutStats {
  const sizes = new Map<number, number>();
  let boldChars = 0;
  let chars = 0;
  for (const { line, text } of lines) {
    const size = Math.round(line.fontSize * 2) / 2;
    sizes.set(size, (sizes.get(size) ?? 0) + text.length);
    chars += text.length;
    if (line.bold) boldChars += text.length;
  }
  const bodySize = mode(sizes, 10);
  const gaps = new Map<number, number>();
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1];
    const cur = lines[i];
    if (prev === undefined || cur === undefined) continue;
    if (prev.line.page !== cur.line.page || prev.line.column !== cur.line.column) continue;
    if (Math.abs(cur.line.fontSize - bodySize) > 0.6) continue;
    const gap = Math.round(cur.line.box.y - prev.line.box.y);
    if (gap > 0) gaps.set(gap, (gaps.get(gap) ?? 0) + 1);
  }
  const columns = new Map<string, ColumnExtent>();
  for (const { line } of lines) {
    const key = columnKey(line);
    const ext = columns.get(key);
    const right = line.box.x + line.box.width;
    if (ext === undefined) columns.set(key, { left: line.box.x, right });
    else {
      ext.left = Math.min(ext.left, line.box.x);
      ext.right = Math.max(ext.right, right);
    }
  }
  return {
    bodySize,
    boldShare: chars === 0 ? 0 : boldChars / chars,
    leading: mode(gaps, bodySize * 1.2),
    plain: doc.format !== "pdf",
    columns,
  };
}

/** Bold that means something: a document printed mostly in bold has no bold signal. */
export function isBold(line: TextLine, stats: LayoutStats): boolean {
  return line.bold && stats.boldShare < 0.6;
}

export function isLarger(line: TextLine, stats: LayoutStats): boolean {
  return line.fontSize > stats.bodySize * 1.08;
}

/** Centred in its column and visibly indented from both edges (OJ article numbers, titles). */
export function isCentred(line: TextLine, stats: LayoutStats): boolean {
  const col = stats.columns.get(columnKey(line));
  if (col === undefined || stats.plain) return false;
  const width = col.right - col.left;
  if (width <= 0 || line.box.width > width * 0.8) return false;
  const left = line.box.x - col.left;
  const right = col.right - (line.box.x + line.box.width);
  return left > width * 0.08 && Math.abs(left - right) < Math.max(width * 0.06, line.fontSize * 1.5);
}

/** Printed differently from running text: the visual half of "this is a heading". */
export function isStyled(line: TextLine, stats: LayoutStats): boolean {
  return isBold(line, stats) || isLarger(line, stats) || isCentred(line, stats);
}
