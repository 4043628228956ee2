import { describe, expect, it } from "vitest";
import type { LayoutLine } from "../../core/ingest/layout-types.ts";
import { removeRunningHeaders, type PageLines } from "../../core/ingest/running-headers.ts";

function line(page: number, row: number, text: string, y: number): LayoutLine {
  return { page, row, text, box: { x: 57, y, width: 200, height: 10 }, fontSize: 10, bold: false, column: 0, items: [] };
}

/** Ten pages: `top` and `bottom` give each page's first and last line, body in between. */
function pages(top: (p: number) => string, bottom: (p: number) => string): PageLines[] {
  return Array.from({ length: 10 }, (_, i) => {
    const p = i + 1;
    return {
      number: p,
      height: 800,
      lines: [line(p, 0, top(p), 40), line(p, 1, `Body text of page ${p} that is real content.`, 400), line(p, 2, bottom(p), 760)],
    };
  });
}

const kept = (result: LayoutLine[][]): string[] => result.flat().map((l) => l.text);

describe("running headers and footers", () => {
  it("drops repeated headers and page counters", () => {
    const result = removeRunningHeaders(
      pages(
        () => "Official Journal of the European Union",
        (p) => `(${p + 2})`,
      ),
    );
    const texts = kept(result);
    expect(texts.some((t) => t.includes("Official Journal"))).toBe(false);
    expect(texts.some((t) => t.startsWith("("))).toBe(false);
    expect(texts.filter((t) => t.startsWith("Body"))).toHaveLength(10);
  });

  it("keeps numbered paragraphs that open many pages at the same spot (recitals are not page numbers)", () => {
    const recitalAt = [4, 6, 7, 10, 11, 15, 16, 18, 21, 22];
    const result = removeRunningHeaders(
      pages(
        (p) => `(${recitalAt[p - 1] ?? 0})`,
        () => "5419/16 EN",
      ),
    );
    const texts = kept(result);
    expect(texts.filter((t) => /^\(\d+\)$/.test(t))).toHaveLength(10);
    expect(texts.some((t) => t.includes("5419/16"))).toBe(false);
  });

  it("keeps a heading that shares its words with the running footer of its pages", () => {
    const result = removeRunningHeaders(
      pages(
        (p) => (p === 1 ? "CHAPTER THREE" : `Running head ${p}`),
        () => "CHAPTER THREE",
      ),
    );
    const texts = kept(result);
    expect(texts.filter((t) => t === "CHAPTER THREE")).toHaveLength(1);
    expect(result[0]?.[0]?.text).toBe("CHAPTER THREE");
  });
});
