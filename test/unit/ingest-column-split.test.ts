import { describe, expect, it } from "vitest";
import { detectGutters, orderLines } from "../../core/ingest/column-layout.ts";
import type { PositionedItem } from "../../core/ingest/layout-types.ts";
import { buildLines } from "../../core/ingest/line-builder.ts";

// A three-column page (the HIPAA regulation text's layout) whose narrow gutters a row can bridge:
// pdf.js gives the last letter of one column's line as its own item running a point into the
// gutter, then a space item reaching the next column's first word. The row must still be read as
// two lines, one per column, each in its own column's text.

const item = (text: string, x: number, baseline: number, width: number, isSpace = false): PositionedItem => ({
  text,
  x,
  baseline,
  width,
  fontSize: 10,
  ascent: 0.8,
  descent: 0.2,
  bold: false,
  isSpace,
});

const COLUMNS = [72, 230, 389];

function page(): PositionedItem[] {
  const items: PositionedItem[] = [];
  for (let row = 0; row < 24; row++) {
    const baseline = 81 + row * 11.5;
    COLUMNS.forEach((x, c) => {
      // The first row of the second and third columns is the bridged one.
      if (row === 0 && c > 0) return;
      items.push(item(`column ${c + 1} line ${row + 1} of running text here`, x, baseline, 140 + (row % 3)));
    });
  }
  items.push(item("(2) The titles of the persons or office", 230, 81, 147));
  items.push(item("s", 377, 81, 4.3));
  items.push(item(" ", 381.3, 81, 7.7, true));
  items.push(item("set. The covered entity may require", 389, 81, 141));
  return items;
}

describe("a row bridging a narrow gutter", () => {
  it("is cut between the columns, each part read in its own column", () => {
    const lines = buildLines(page(), 1);
    const ordered = orderLines(lines, detectGutters(lines, 10));
    const texts = ordered.map((l) => l.text);
    expect(texts).toContain("(2) The titles of the persons or offices");
    expect(texts).toContain("set. The covered entity may require");
    expect(texts.some((t) => t.includes("offices set."))).toBe(false);
    const column = (text: string): number | undefined => ordered.find((l) => l.text === text)?.column;
    expect(column("(2) The titles of the persons or offices")).toBe(1);
    expect(column("set. The covered entity may require")).toBe(2);
    // Read in order: the second column's first line opens it, the third column's first line opens that one.
    expect(texts.indexOf("(2) The titles of the persons or offices")).toBeLessThan(texts.indexOf("column 2 line 2 of running text here"));
    expect(texts.indexOf("set. The covered entity may require")).toBeLessThan(texts.indexOf("column 3 line 2 of running text here"));
    expect(texts.indexOf("column 2 line 24 of running text here")).toBeLessThan(texts.indexOf("set. The covered entity may require"));
  });
});
