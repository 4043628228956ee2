import { beforeAll, expect, it } from "vitest";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import { sectionDocument } from "../../core/structure/section-document.ts";
import type { Section } from "../../core/model/section-types.ts";
import type { ParsedDocument } from "../../core/model/ingest-types.ts";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";
import { expectWellFormed, labelsOf } from "./structure-invariants.ts";

const range = (from: number, to: number, f: (n: number) => string): string[] => Array.from({ length: to - from + 1 }, (_, i) => f(from + i));
const ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI"];

describeCorpus("structure: DORA (OJ layout)", () => {
  let doc: ParsedDocument;
  let sections: Section[];
  beforeAll(async () => {
    doc = await parseDocument(corpusPath("regulatory/eu_dora_2022-2554_OJ_L333.pdf"));
    sections = sectionDocument(doc, "dora");
  });

  it("is well formed", () => expectWellFormed(sections, doc.pageCount));

  it("yields Articles 1–64 exactly once each, in order", () => {
    expect(labelsOf(sections, "article")).toEqual(range(1, 64, (n) => `Article ${n}`));
  });

  it("starts each article on the page that prints its heading", () => {
    const page = (label: string) => sections.find((s) => s.label === label)?.pageStart;
    // Verified against the PDF: "Article 1" on p. 23, "Article 19" on p. 41, "Article 64" on p. 79.
    expect(page("Article 1")).toBe(23);
    expect(page("Article 19")).toBe(41);
    expect(page("Article 64")).toBe(79);
    for (const s of sections.filter((x) => x.kind === "article" && !x.label.includes("(part"))) {
      const printed = doc.pages[s.pageStart - 1]?.lines.some((l) => l.text.trim() === s.label);
      expect(printed, s.label).toBe(true);
    }
  });

  it("reads article headings and keeps them out of the text", () => {
    const a19 = sections.find((s) => s.label === "Article 19");
    expect(a19?.heading).toBe("Reporting of major ICT-related incidents and voluntary notification of significant cyber threats");
    expect(a19?.text.startsWith("1. Financial entities shall report major ICT-related incidents")).toBe(true);
  });

  it("has recitals 1–106 before the enacting terms", () => {
    expect(labelsOf(sections, "recital")).toEqual(range(1, 106, (n) => `Recital ${n}`));
  });

  it("nests articles under chapters I–IX", () => {
    expect(labelsOf(sections, "chapter")).toEqual(ROMAN.slice(0, 9).map((r) => `Chapter ${r}`));
    const a19 = sections.find((s) => s.label === "Article 19");
    expect(a19?.path).toEqual(["Chapter III", "Article 19"]);
    const a5 = sections.find((s) => s.label === "Article 5");
    expect(a5?.path).toEqual(["Chapter II", "Section I", "Article 5"]);
    for (const a of sections.filter((s) => s.kind === "article")) expect(a.path[0]?.startsWith("Chapter ")).toBe(true);
  });

  it("keeps running headers out of section text", () => {
    for (const s of sections) expect(s.text, s.label).not.toMatch(/L 333\/\d+\s+EN/);
  });
});

describeCorpus("structure: GDPR (Council first-reading layout)", () => {
  let doc: ParsedDocument;
  let sections: Section[];
  beforeAll(async () => {
    doc = await parseDocument(corpusPath("regulatory/eu_gdpr_2016-679_council_first_reading_position_5419-16.pdf"));
    sections = sectionDocument(doc, "gdpr");
  });

  it("is well formed", () => expectWellFormed(sections, doc.pageCount));

  it("yields Articles 1–99 exactly once each", () => {
    expect(labelsOf(sections, "article")).toEqual(range(1, 99, (n) => `Article ${n}`));
    expect(sections.find((s) => s.label === "Article 1")?.heading).toBe("Subject-matter and objectives");
    // A centred title that wraps onto a second line stays whole, out of the article's text.
    const a19 = sections.find((s) => s.label === "Article 19");
    expect(a19?.heading).toBe("Notification obligation regarding rectification or erasure of personal data or restriction of processing");
    expect(a19?.text.startsWith("The controller shall communicate")).toBe(true);
  });

  // Recital numbers often open a page at the same spot ("(10)" top-left): ingest must keep them,
  // they are not page furniture.
  it("yields recitals 1–173 exactly once each, in order", () => {
    expect(labelsOf(sections, "recital")).toEqual(range(1, 173, (n) => `Recital ${n}`));
  });

  it("keeps the Council running header out of section text", () => {
    for (const s of sections.filter((x) => x.kind !== "preamble")) expect(s.text, s.label).not.toContain("5419/16");
  });
});

describeCorpus("structure: GDPR (EUR-Lex plain text)", () => {
  it("yields chapters, sections and Articles 1–99 with their headings", async () => {
    const doc = await parseDocument(corpusPath("text/eu_gdpr_2016-679_plaintext.txt"));
    const sections = sectionDocument(doc, "gdpr-txt");
    expectWellFormed(sections, doc.pageCount);
    expect(labelsOf(sections, "article")).toEqual(range(1, 99, (n) => `Article ${n}`));
    expect(labelsOf(sections, "chapter")).toEqual(ROMAN.map((r) => `Chapter ${r}`));
    const a32 = sections.find((s) => s.label === "Article 32");
    expect(a32?.heading).toBe("Security of processing");
    expect(a32?.path).toEqual(["Chapter IV", "Section 2", "Article 32"]);
  });
});
