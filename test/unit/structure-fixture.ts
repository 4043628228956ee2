import type { ParsedDocument, TextLine } from "../../core/model/ingest-types.ts";

// Small hand-made ParsedDocuments for sectioning tests: each line says how it is printed, the
// fixture lays lines out top-down like a real page so gaps and centring mean what they do in PDFs.

export interface FixtureLine {
  text: string;
  bold?: boolean;
  size?: number;
  centred?: boolean;
  indent?: number;
  /** Extra space above the line, in line heights. */
  gapBefore?: number;
}

const PAGE_WIDTH = 595;
const PAGE_HEIGHT = 842;
const LEFT = 70;
const RIGHT = 525;
const CHAR_WIDTH = 0.5;

export function fixtureDoc(pages: FixtureLine[][], options: { format?: "pdf" | "text"; language?: string } = {}): ParsedDocument {
  return {
    file: "/fixture.pdf",
    format: options.format ?? "pdf",
    sha256: "0".repeat(64),
    bytes: 1,
    title: "fixture",
    language: options.language ?? "en",
    pageCount: pages.length,
    warnings: [],
    pages: pages.map((lines, p) => {
      let y = 60;
      const out: TextLine[] = lines.map((l) => {
        const size = l.size ?? 10;
        y += (l.gapBefore ?? 0) * size * 1.2;
        // Body lines fill the column, as justified text does; headings are as wide as their text.
        const natural = Math.min(l.text.length * size * CHAR_WIDTH, RIGHT - LEFT);
        const width = l.centred || l.bold || l.text.length < 60 ? natural : RIGHT - LEFT - (l.indent ?? 0);
        const x = l.centred ? (LEFT + RIGHT - width) / 2 : LEFT + (l.indent ?? 0);
        const line: TextLine = {
          page: p + 1,
          text: l.text,
          box: { x, y, width, height: size },
          fontSize: size,
          bold: l.bold ?? false,
          column: 0,
        };
        y += size * 1.2;
        return line;
      });
      // A full-width line anchors the column's extent, as running text does on a real page.
      return { number: p + 1, width: PAGE_WIDTH, height: PAGE_HEIGHT, lines: out, footnotes: [] };
    }),
  };
}

/** A body line long enough to look like justified running text. */
export function body(text: string, extra: Partial<FixtureLine> = {}): FixtureLine {
  return { text: text.padEnd(70, " ").trimEnd(), ...extra };
}
