import { describe, expect, it } from "vitest";
import { printedNumber, printedPageLabels } from "../../core/ingest/page-labels.ts";
import type { PageLines } from "../../core/ingest/running-headers.ts";
import type { LayoutLine } from "../../core/ingest/layout-types.ts";

// The page an auditor cites is the printed one: a Council document whose cover is unnumbered
// prints "53" on PDF page 54.

function line(text: string, y: number): LayoutLine {
  return { page: 1, text, box: { x: 100, y, width: 20, height: 10 }, row: Math.round(y), fontSize: 10, bold: false, column: 0, items: [] };
}

function page(number: number, footer: string | null, header: string | null = null): PageLines {
  const lines = [line("Body text of the regulation, which is long enough to be body text.", 300)];
  if (footer !== null) lines.push(line(footer, 800));
  if (header !== null) lines.push(line(header, 20));
  return { number, height: 842, lines };
}

describe("printed page labels", () => {
  it("reads page numbers as printed", () => {
    expect(printedNumber("53")).toBe(53);
    expect(printedNumber("- 53 -")).toBe(53);
    expect(printedNumber("Page 53 of 88")).toBe(53);
    expect(printedNumber("L 333/12")).toBe(12);
    expect(printedNumber("Official Journal of the European Union")).toBeNull();
  });

  it("an unnumbered cover shifts every printed number by one", () => {
    const pages = [page(1, null), ...Array.from({ length: 6 }, (_, i) => page(i + 2, `5419/16 EN ${i + 1}`))];
    expect(printedPageLabels(pages, null)).toEqual([null, "1", "2", "3", "4", "5", "6"]);
  });

  it("numbers equal to the PDF page, or with no steady offset, give no labels", () => {
    expect(
      printedPageLabels(
        Array.from({ length: 5 }, (_, i) => page(i + 1, String(i + 1))),
        null,
      ),
    ).toEqual([null, null, null, null, null]);
    const noisy = [page(1, "7"), page(2, "3"), page(3, "12"), page(4, "1"), page(5, "9")];
    expect(printedPageLabels(noisy, null)).toEqual([null, null, null, null, null]);
  });

  it("the PDF's own page labels come first", () => {
    const pages = Array.from({ length: 3 }, (_, i) => page(i + 1, null));
    expect(printedPageLabels(pages, ["i", "ii", "1"])).toEqual(["i", "ii", "1"]);
    expect(printedPageLabels(pages, ["1", "2", "3"])).toEqual([null, null, null]);
  });
});
