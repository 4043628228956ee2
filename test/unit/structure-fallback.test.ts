import { describe, expect, it } from "vitest";
import { chunkPieces } from "../../core/structure/fallback-chunker.ts";
import { splitSentences } from "../../core/structure/sentences.ts";
import { sectionDocument } from "../../core/structure/section-document.ts";
import type { TextLine } from "../../core/model/ingest-types.ts";
import { body, fixtureDoc } from "./structure-fixture.ts";

const LINE: TextLine = { page: 1, text: "", box: { x: 0, y: 0, width: 10, height: 10 }, fontSize: 10, bold: false, column: 0 };

describe("splitSentences", () => {
  it("splits at sentence ends but not after legal abbreviations or initials", () => {
    expect(splitSentences("See Art. 5 of the Code. Then read No. 12 e.g. here. R. METSOLA signed. Done!")).toEqual([
      "See Art. 5 of the Code.",
      "Then read No. 12 e.g. here.",
      "R. METSOLA signed.",
      "Done!",
    ]);
  });
});

describe("chunkPieces", () => {
  const sentence = (i: number): string => `Sentence number ${i} explains one obligation of the operator in some detail.`;
  const pieces = Array.from({ length: 60 }, (_, i) => ({ text: sentence(i), line: { ...LINE, box: { ...LINE.box, y: i * 12 } } }));

  it("keeps every chunk within the size bound and ends chunks at sentence ends", () => {
    const chunks = chunkPieces(pieces, 500);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      const text = chunk.map((p) => p.text).join(" ");
      expect(text.length).toBeLessThanOrEqual(500);
      expect(text.endsWith(".")).toBe(true);
    }
    expect(chunks.flat().map((p) => p.text)).toEqual(pieces.map((p) => p.text));
  });

  it("splits one line holding several sentences, and cuts an overlong sentence at a word", () => {
    const long = { text: `${"word ".repeat(200).trim()}. Short tail.`, line: LINE };
    const chunks = chunkPieces([long], 300);
    for (const chunk of chunks) expect(chunk.map((p) => p.text).join(" ").length).toBeLessThanOrEqual(300);
    expect(
      chunks
        .flat()
        .map((p) => p.text)
        .join(" "),
    ).toBe(long.text);
  });
});

describe("sectionDocument fallback", () => {
  it("chunks a document without structure into page-labelled chunks", () => {
    const lines = Array.from({ length: 80 }, (_, i) => body(`Row ${i} of the table lists a product, its quantity and the unit price in euro.`));
    const doc = fixtureDoc([lines.slice(0, 40), lines.slice(40)]);
    const sections = sectionDocument(doc, "table");
    expect(sections.length).toBeGreaterThan(3);
    expect(sections.every((s) => s.kind === "chunk" && s.text.length <= 1500)).toBe(true);
    expect(sections[0]?.label).toBe("p. 1 ¶1");
    expect(sections[1]?.label).toBe("p. 1 ¶2");
    expect(sections.some((s) => s.label === "p. 2 ¶1")).toBe(true);
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
  });

  it("uses bold short lines as headings when the document has a few", () => {
    const doc = fixtureDoc([
      [
        { text: "Introduction", bold: true, size: 14 },
        body("This memo explains the procedure in simple terms for every member of the staff."),
        { text: "Procedure", bold: true, size: 14, gapBefore: 1 },
        body("Requests are filed on the portal and reviewed within ten working days by the office."),
        body("The office answers in writing and keeps a record of each request and its outcome."),
      ],
    ]);
    const sections = sectionDocument(doc, "memo");
    expect(sections.map((s) => [s.kind, s.label])).toEqual([
      ["heading", "Introduction"],
      ["heading", "Procedure"],
    ]);
    expect(sections[1]?.text).toContain("ten working days");
  });

  it("returns no sections for a document without text", () => {
    expect(sectionDocument(fixtureDoc([[]]), "empty")).toEqual([]);
  });
});
