import { afterAll, describe, expect, it } from "vitest";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import { TEXT_LINE_HEIGHT } from "../../core/ingest/text-reader.ts";
import { FixtureDir } from "./ingest-pdf-fixtures.ts";

const fixtures = new FixtureDir();
afterAll(() => fixtures.remove());

describe("parseDocument on plain text and Markdown", () => {
  it("makes one line per text line with synthetic boxes; blank lines leave gaps", async () => {
    const doc = await parseDocument(fixtures.file("rules.txt", "Rules for testing\n\nArticle 1\nThe rule applies.\n"));
    expect(doc.format).toBe("text");
    expect(doc.pageCount).toBe(1);
    const lines = doc.pages[0]?.lines ?? [];
    expect(lines.map((l) => l.text)).toEqual(["Rules for testing", "Article 1", "The rule applies."]);
    expect(lines.map((l) => l.box.y)).toEqual([0, 2 * TEXT_LINE_HEIGHT, 3 * TEXT_LINE_HEIGHT]);
    expect(lines.every((l) => l.fontSize === 10 && l.column === 0 && !l.bold && l.page === 1)).toBe(true);
    expect(doc.title).toBe("Rules for testing");
    expect(doc.warnings).toEqual([]);
  });

  it("splits pages at form feeds", async () => {
    const doc = await parseDocument(fixtures.file("ff.txt", "page one\fpage two\npage two again\fpage three"));
    expect(doc.pages.map((p) => p.lines.map((l) => l.text))).toEqual([["page one"], ["page two", "page two again"], ["page three"]]);
    expect(doc.pages.map((p) => p.number)).toEqual([1, 2, 3]);
  });

  it("cuts long text without form feeds into ~3000-character pages on line boundaries", async () => {
    const line = "This sentence is part of a long text without page breaks.";
    const text = Array.from({ length: 200 }, (_, i) => `${i + 1}. ${line}`).join("\n");
    const doc = await parseDocument(fixtures.file("long.txt", text));
    expect(doc.pageCount).toBeGreaterThan(3);
    const all = doc.pages.flatMap((p) => p.lines.map((l) => l.text));
    expect(all).toHaveLength(200);
    expect(all[199]).toBe(`200. ${line}`);
    for (const page of doc.pages.slice(0, -1)) {
      const chars = page.lines.reduce((n, l) => n + l.text.length + 1, 0);
      expect(chars).toBeGreaterThanOrEqual(3000);
      expect(chars).toBeLessThan(3200);
      expect(page.lines[0]?.box.y).toBe(0);
    }
  });

  it("decodes Latin-1 bytes with a warning when the file is not UTF-8", async () => {
    const bytes = Buffer.from("Perché la società è già qui: l'attività di verifica è obbligatoria.\n", "latin1");
    const doc = await parseDocument(fixtures.file("latin1.txt", bytes));
    expect(doc.pages[0]?.lines[0]?.text).toBe("Perché la società è già qui: l'attività di verifica è obbligatoria.");
    expect(doc.warnings.join(" ")).toMatch(/UTF-8/);
  });

  it("decodes UTF-8 (with or without BOM) without warnings", async () => {
    const doc = await parseDocument(fixtures.file("utf8.txt", "\uFEFFCittà e libertà\n"));
    expect(doc.pages[0]?.lines[0]?.text).toBe("Città e libertà");
    expect(doc.warnings).toEqual([]);
  });

  it("marks Markdown headings bold and larger, keeping the raw line", async () => {
    const md = "# Data Protection Act\n\nIntro paragraph.\n\n## Article 2\nText of article two.\n";
    const doc = await parseDocument(fixtures.file("act.md", md));
    expect(doc.format).toBe("markdown");
    const lines = doc.pages[0]?.lines ?? [];
    expect(lines.map((l) => l.text)).toEqual(["# Data Protection Act", "Intro paragraph.", "## Article 2", "Text of article two."]);
    expect(lines[0]?.bold).toBe(true);
    expect(lines[2]?.bold).toBe(true);
    expect(lines[1]?.bold).toBe(false);
    expect(lines[0]?.fontSize).toBeGreaterThan(lines[2]?.fontSize ?? 0);
    expect(lines[2]?.fontSize).toBeGreaterThan(lines[1]?.fontSize ?? 0);
    expect(doc.title).toBe("Data Protection Act");
    expect(doc.language).toBe("und");
  });

  it("refuses a text file with only whitespace as EMPTY", async () => {
    await expect(parseDocument(fixtures.file("blank.txt", "\n\n   \n"))).rejects.toMatchObject({ code: "EMPTY" });
  });
});
