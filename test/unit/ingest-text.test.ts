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

  it("breaks pages at a printed page's running header and drops it; headings and list markers stay", async () => {
    const header = (n: number) => `—  ${n}  —Supplemento ordinario n. 12/L  alla GAZZETTA UFFICIALE Serie generale - n. 77 31-3-2023`;
    const sentence = "Le stazioni appaltanti applicano le disposizioni del presente codice nel rispetto dei principi.";
    // Articles are as long as their content (in sentences); each printed page holds 20 sentences.
    const articleLengths = [3, 31, 7, 2, 45, 12, 5, 60, 9, 4, 28];
    const starts = new Set(articleLengths.map((_, i) => articleLengths.slice(0, i).reduce((a, b) => a + b, 0)));
    let article = 0;
    const printed: string[] = ["GAZZETTA UFFICIALE DELLA REPUBBLICA ITALIANA"];
    for (let page = 1; page <= 12; page++) {
      printed.push(header(page));
      for (let i = 0; i < 20; i++) {
        if (starts.has((page - 1) * 20 + i)) printed.push(`Articolo ${++article}.`, "(a)");
        printed.push(sentence);
      }
    }
    const doc = await parseDocument(fixtures.file("gazzetta.txt", printed.join("\n")));
    const texts = doc.pages.flatMap((p) => p.lines.map((l) => l.text));
    expect(texts.filter((t) => t.includes("Supplemento ordinario"))).toEqual([]);
    expect(texts.filter((t) => /^Articolo \d+\.$/.test(t))).toHaveLength(article);
    expect(texts.filter((t) => t === "(a)")).toHaveLength(article);
    // The cover, then one pseudo-page per printed page.
    expect(doc.pageCount).toBe(13);
    expect(doc.pages[0]?.lines.map((l) => l.text)).toEqual(["GAZZETTA UFFICIALE DELLA REPUBBLICA ITALIANA"]);
    expect(doc.pages.slice(1).every((p) => p.lines.length >= 20 && p.lines[0]?.box.y === 0)).toBe(true);
  });

  it("keeps a numbered line that repeats on every page when its number does not count pages", async () => {
    const body = Array.from({ length: 25 }, () => "A sentence of ordinary body text that fills the printed page.").join("\n");
    const recitals = [4, 6, 7, 10, 11, 15, 16, 18, 21, 22];
    const text = recitals.map((n) => `(${n})\n${body}`).join("\n");
    const doc = await parseDocument(fixtures.file("recitals.txt", text));
    expect(doc.pages.flatMap((p) => p.lines.map((l) => l.text)).filter((t) => /^\(\d+\)$/.test(t))).toHaveLength(10);
    // Equally long articles: their headings come back at a page-like rhythm, yet are labels.
    const articles = Array.from({ length: 10 }, (_, i) => `Article ${i + 1}\n${body}`).join("\n");
    const doc2 = await parseDocument(fixtures.file("articles.txt", articles));
    expect(doc2.pages.flatMap((p) => p.lines.map((l) => l.text)).filter((t) => t.startsWith("Article "))).toHaveLength(10);
  });

  it("drops bare page numbers that count up once per printed page", async () => {
    const body = Array.from({ length: 25 }, () => "A sentence of ordinary body text that fills the printed page.").join("\n");
    const text = Array.from({ length: 10 }, (_, i) => `${body}\n- ${i + 1} -`).join("\n");
    const doc = await parseDocument(fixtures.file("numbers.txt", text));
    expect(doc.pageCount).toBe(10);
    expect(doc.pages.flatMap((p) => p.lines.map((l) => l.text)).filter((t) => /\d/.test(t))).toEqual([]);
  });

  it("does not break pages at a form feed inside undecodable glyph codes", async () => {
    const doc = await parseDocument(fixtures.file("glyphs.txt", "Articolo 1.\nD\f\u0003VHUYL]L\u0003VRFLDOL\nfine"));
    expect(doc.pageCount).toBe(1);
    expect(doc.pages[0]?.lines.map((l) => l.text)).toEqual(["Articolo 1.", "D  VHUYL]L VRFLDOL", "fine"]);
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
