import { afterAll, describe, expect, it } from "vitest";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import type { ParsedDocument } from "../../core/model/ingest-types.ts";
import { column, FixtureDir } from "./ingest-pdf-fixtures.ts";
import type { FixtureText } from "./ingest-pdf-fixtures.ts";

const fixtures = new FixtureDir();
afterAll(() => fixtures.remove());

/** A column of body text in 11 pt at the top of the page: "Body sentence 1 …", "Body sentence 2 …". */
function bodyColumn(count: number, rest: string): FixtureText[] {
  return column(
    Array.from({ length: count }, (_, i) => `Body sentence ${i + 1} ${rest}`),
    50,
    100,
    11,
    15,
  );
}

function bodyText(doc: ParsedDocument): string {
  return doc.pages.flatMap((p) => p.lines.map((l) => l.text)).join(" ");
}

const LEFT = [
  "Article 1 of this test regulation sets out the rules",
  "for reading a page printed in two columns, which",
  "is how many official journals print their acts and",
  "how auditors receive them. A reader goes down the",
  "left column first and only then moves to the right",
  "one; a parser that reads straight across the page",
  "mixes the two columns into nonsense. The rule in",
  "this paragraph continues at the top of the right",
];
const RIGHT = [
  "column without a break in the sentence, and the",
  "test checks exactly that continuity of the text.",
  "Article 2 adds that full-width titles above the",
  "columns are read before both of them, in place.",
  "Article 3 says that lines must not be interleaved",
  "across the gutter between the two printed columns",
  "even though their baselines are exactly aligned.",
  "Article 4 closes the test text of this fixture.",
];

describe("parseDocument on generated PDFs: layout", () => {
  it("reads a two-column page column by column, with the spanning title first", async () => {
    const title: FixtureText = { text: "Regulation on the Reading Order of Columns", x: 150, y: 60, size: 16, bold: true };
    const file = await fixtures.pdf("two-columns.pdf", [[title, ...column(LEFT, 50, 100), ...column(RIGHT, 320, 100)]]);
    const doc = await parseDocument(file);
    const lines = doc.pages[0]?.lines ?? [];
    expect(lines.map((l) => l.text)).toEqual([title.text, ...LEFT, ...RIGHT]);
    expect(lines.slice(1, 1 + LEFT.length).every((l) => l.column === 0)).toBe(true);
    expect(lines.slice(1 + LEFT.length).every((l) => l.column === 1)).toBe(true);
    expect(bodyText(doc)).toContain("continues at the top of the right column without a break in the sentence");
    expect(lines[0]?.bold).toBe(true);
    expect(lines[0]?.fontSize).toBeCloseTo(16, 1);
    expect(doc.title).toBe(title.text);
  });

  it("reads columns above a full-width line before it, and a short last column as a column", async () => {
    const wide: FixtureText = { text: "A full-width line across both columns in the middle of the page, read in place.", x: 50, y: 240 };
    const page = [
      ...column(LEFT.slice(0, 5), 50, 100),
      ...column(RIGHT.slice(0, 5), 320, 100),
      wide,
      ...column(LEFT.slice(5), 50, 280),
      ...column(RIGHT.slice(5, 7), 320, 280),
    ];
    const doc = await parseDocument(await fixtures.pdf("bands.pdf", [page]));
    expect(doc.pages[0]?.lines.map((l) => l.text)).toEqual([...LEFT.slice(0, 5), ...RIGHT.slice(0, 5), wide.text, ...LEFT.slice(5), ...RIGHT.slice(5, 7)]);
  });

  it("gives line boxes in top-left page coordinates", async () => {
    const file = await fixtures.pdf("box.pdf", [[{ text: "A single line of text at a known place", x: 72, y: 200, size: 12 }]]);
    const doc = await parseDocument(file);
    const line = doc.pages[0]?.lines[0];
    expect(doc.pages[0]?.width).toBe(612);
    expect(doc.pages[0]?.height).toBe(792);
    expect(line?.box.x).toBeCloseTo(72, 0);
    // The box spans the baseline at y=200: its top is above it, its bottom just below.
    expect(line?.box.y).toBeLessThan(200);
    expect(line?.box.y).toBeGreaterThan(185);
    expect((line?.box.y ?? 0) + (line?.box.height ?? 0)).toBeGreaterThan(200);
    expect(line?.box.width).toBeGreaterThan(150);
    expect(line?.page).toBe(1);
  });

  it("removes a running header and page numbers repeated on every page, keeping body text", async () => {
    const pages = [1, 2, 3, 4, 5].map((n) => [
      { text: "Official Bulletin of Testing", x: 220, y: 36, size: 9 },
      { text: `L 12/${40 + n}`, x: 50, y: 36, size: 9 },
      { text: `Body text of page ${n} starts right under the header line.`, x: 50, y: 80 },
      ...column([`Page ${n} has its own second sentence here.`, "A sentence repeated on every page in the body."], 50, 300),
      { text: String(n), x: 300, y: 770, size: 9 },
    ]);
    const doc = await parseDocument(await fixtures.pdf("headers.pdf", pages));
    expect(doc.pageCount).toBe(5);
    for (const page of doc.pages) {
      const texts = page.lines.map((l) => l.text);
      expect(texts).toEqual([
        `Body text of page ${page.number} starts right under the header line.`,
        `Page ${page.number} has its own second sentence here.`,
        "A sentence repeated on every page in the body.",
      ]);
    }
  });

  it("joins a word hyphenated at a line break but keeps real hyphens", async () => {
    const lines = column(
      [
        "The controller shall apply this regu-",
        "lation to all processing of personal data and to ICT-",
        "related services, including the non-binding guide-",
        "lines and the risk-based approach of risk-",
        "based supervision.",
      ],
      50,
      100,
    );
    const doc = await parseDocument(await fixtures.pdf("hyphen.pdf", [lines]));
    const text = bodyText(doc);
    expect(text).toContain("apply this regulation to all processing");
    expect(text).toContain("to ICT-related services");
    expect(text).toContain("non-binding guidelines and");
    expect(text).toContain("approach of risk-based supervision.");
    expect(doc.pages[0]?.lines[1]?.text.startsWith("to all processing")).toBe(true);
  });

  it("keeps a small-font footnote at the bottom of the page apart from the body", async () => {
    const body = bodyColumn(12, "of the article refers to a footnote.");
    const notes: FixtureText[] = [
      { text: "1 The term controller is defined in Article 4 of the Regulation.", x: 50, y: 700, size: 8 },
      { text: "which continues on a second footnote line.", x: 50, y: 710, size: 8 },
    ];
    const doc = await parseDocument(await fixtures.pdf("footnote.pdf", [[...body, ...notes]]));
    const page = doc.pages[0];
    expect(page?.lines).toHaveLength(12);
    expect(page?.footnotes.map((l) => l.text)).toEqual(notes.map((n) => n.text));
    expect(bodyText(doc)).not.toContain("controller is defined");
  });

  it("keeps a table set in the notes' size above the notes as body, wrapped numbers and all", async () => {
    const body = bodyColumn(8, "of the standard introduces its table.");
    // Rows of a key-activity table in 8 pt, one wrapping "SP 800-" onto "60 for more …", then the notes after a gap.
    const rows = column(
      [
        "Key Activities Description",
        "1. Identify Relevant Information in all systems",
        "that hold it (See FIPS 199 and SP 800-",
        "60 for more on categorization.)",
        "2. Conduct a Risk Assessment of the systems",
      ],
      50,
      420,
      8,
      10,
    );
    const notes: FixtureText[] = [
      { text: "9 The risks that must be assessed are those of noncompliance.", x: 50, y: 700, size: 8 },
      { text: "10 See Section 164.306 of the Security Rule.", x: 50, y: 710, size: 8 },
    ];
    const doc = await parseDocument(await fixtures.pdf("table-notes.pdf", [[...body, ...rows, ...notes]]));
    expect(doc.pages[0]?.footnotes.map((l) => l.text)).toEqual(notes.map((n) => n.text));
    expect(bodyText(doc)).toContain("2. Conduct a Risk Assessment");
    expect(bodyText(doc)).toContain("60 for more on categorization");
  });

  it("does not mistake a page printed entirely in small type for footnotes", async () => {
    const lines = column(
      Array.from({ length: 12 }, (_, i) => `${i + 1} Small print line number ${i + 1} of a schedule.`),
      50,
      400,
      8,
      10,
    );
    const doc = await parseDocument(await fixtures.pdf("small-print.pdf", [lines]));
    expect(doc.pages[0]?.lines).toHaveLength(12);
    expect(doc.pages[0]?.footnotes).toHaveLength(0);
  });

  it("prefers a meaningful metadata title and guesses the language", async () => {
    const italian = column(
      [
        "Il presente regolamento stabilisce le norme relative alla protezione delle persone",
        "fisiche con riguardo al trattamento dei dati personali e le norme relative alla",
        "libera circolazione di tali dati, che sono la base della disciplina del mercato.",
      ],
      50,
      100,
    );
    const withTitle = await parseDocument(await fixtures.pdf("it.pdf", [italian], { title: "Regolamento di prova" }));
    expect(withTitle.title).toBe("Regolamento di prova");
    expect(withTitle.language).toBe("it");
    const junkTitle = await parseDocument(await fixtures.pdf("untitled-doc.pdf", [italian], { title: "Microsoft Word - bozza3.docx" }));
    expect(junkTitle.title).toBe("untitled-doc");
  });

  it("reports progress per page and stops with CANCELLED when aborted", async () => {
    const pages = [1, 2, 3].map((n) => column([`Page ${n} text line.`], 50, 100));
    const file = await fixtures.pdf("progress.pdf", pages);
    const seen: Array<[number, number]> = [];
    await parseDocument(file, { onPage: (page, total) => seen.push([page, total]) });
    // "Page 0 of 3" first: the parsing child's watchdog learns the page count before page 1.
    expect(seen).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const controller = new AbortController();
    const run = parseDocument(file, {
      signal: controller.signal,
      onPage: () => controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ name: "ClauseGraphError", code: "CANCELLED", file });
  });
});
