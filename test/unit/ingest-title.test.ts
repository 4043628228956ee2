import { describe, expect, it } from "vitest";
import { chooseTitle } from "../../core/ingest/document-title.ts";
import type { ParsedPage, TextLine } from "../../core/model/ingest-types.ts";

function page(lines: Array<[text: string, fontSize: number, bold?: boolean]>): ParsedPage {
  const out: TextLine[] = lines.map(([text, fontSize, bold], i) => ({
    page: 1,
    text,
    box: { x: 50, y: 60 + i * 20, width: 300, height: fontSize },
    fontSize,
    bold: bold ?? false,
    column: 0,
  }));
  return { number: 1, width: 595, height: 842, lines: out, footnotes: [] };
}

describe("document title", () => {
  it("prefers the most prominent printed heading over junk metadata", () => {
    const pages = [
      page([
        ["Digital Operational Resilience Act", 16, true],
        ["Body text of the regulation.", 10],
      ]),
    ];
    expect(chooseTitle("Microsoft Word - draft3.docx", pages, 10, "/x/dora.pdf")).toBe("Digital Operational Resilience Act");
  });

  it("uses meaningful metadata that is printed on the first pages", () => {
    const pages = [
      page([
        ["Guide to Risk Assessments", 16, true],
        ["Body.", 10],
      ]),
    ];
    expect(chooseTitle("Guide to Risk Assessments", pages, 10, "/x/a.pdf")).toBe("Guide to Risk Assessments");
  });

  it("does not take a bold row of figures (a table total) for a title", () => {
    const pages = [
      page([
        ["TOTALE COMPLESSIVO € 756.064,24 € 756.064,24 € 189.016,06", 14, true],
        ["Lotto 1 fornitura 12.000", 10],
      ]),
    ];
    expect(chooseTitle(undefined, pages, 10, "/x/allegato_E_tabella_lotti.pdf")).toBe("allegato_E_tabella_lotti");
  });
});
