import type { Box, TextLine } from "../model/ingest-types.ts";

// Intermediate shapes of the PDF layout pipeline. They carry what the later stages need
// (baseline rows, the items behind a line) and are stripped before leaving core/ingest.

/** One pdfjs text item in top-left page coordinates. */
export interface PositionedItem {
  text: string;
  x: number;
  /** Baseline, top-left origin (y grows downwards). */
  baseline: number;
  width: number;
  fontSize: number;
  /** Ascent/descent as positive fractions of the font size. */
  ascent: number;
  descent: number;
  bold: boolean;
  /** pdfjs emits explicit space items; they only tell us where a word break is. */
  isSpace: boolean;
}

/** A run of items on one baseline with no column-sized gap: the unit columns are built from. */
export interface LayoutLine extends TextLine {
  /** Index of the baseline row on the page; lines of one row share it. */
  row: number;
  items: PositionedItem[];
}

export function itemTop(item: PositionedItem): number {
  return item.baseline - item.ascent * item.fontSize;
}

export function itemBottom(item: PositionedItem): number {
  return item.baseline + item.descent * item.fontSize;
}

export function lineRight(line: { box: Box }): number {
  return line.box.x + line.box.width;
}

export function lineBottom(line: { box: Box }): number {
  return line.box.y + line.box.height;
}

export function toTextLine(line: TextLine): TextLine {
  return {
    page: line.page,
    text: line.text,
    box: { ...line.box },
    fontSize: line.fontSize,
    bold: line.bold,
    column: line.column,
  };
}
