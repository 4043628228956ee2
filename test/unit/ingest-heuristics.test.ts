import { describe, expect, it } from "vitest";
import { buildVocabulary, dehyphenate, joinSplitWord } from "../../core/ingest/dehyphenate.ts";
import { isMeaningfulTitle } from "../../core/ingest/document-title.ts";
import { detectFormat } from "../../core/ingest/file-type.ts";
import { guessLanguage } from "../../core/ingest/language-guess.ts";
import { exactKey, maskedKey } from "../../core/ingest/running-headers.ts";

describe("ingest heuristics", () => {
  it("joins typesetting splits and keeps compounds", () => {
    const vocab = buildVocabulary(["risk-based approach", "the oversight framework", "post office and financial rules"]);
    expect(joinSplitWord("regu", "lation", vocab, false)).toBe("regulation");
    expect(joinSplitWord("ICT", "related", vocab, false)).toBe("ICT-related");
    expect(joinSplitWord("risk", "based", vocab, false)).toBe("risk-based");
    expect(joinSplitWord("over", "sight", vocab, false)).toBe("oversight");
    expect(joinSplitWord("post", "financial", vocab, false)).toBe("post-financial");
    expect(joinSplitWord("Member", "States", vocab, false)).toBe("Member-States");
    expect(joinSplitWord("infor", "mation", vocab, true)).toBe("information");
  });

  it("moves the second half of a split word up, across pages, and drops emptied lines", () => {
    const pages = [[{ text: "the regu-" }], [{ text: "lation." }, { text: "Next line" }]];
    expect(dehyphenate(pages, new Set()).map((p) => p.map((l) => l.text))).toEqual([["the regulation."], ["Next line"]]);
    // Dashes and list markers are left alone.
    const dash = [[{ text: "items -" }, { text: "more" }]];
    expect(dehyphenate(dash, new Set())[0]?.map((l) => l.text)).toEqual(["items -", "more"]);
  });

  it("masks page-varying parts of running headers", () => {
    expect(maskedKey("L 333/12")).toBe(maskedKey("L 333/48"));
    expect(maskedKey("APPENDIX B PAGE B-7")).toBe(maskedKey("APPENDIX B PAGE B-12"));
    expect(maskedKey("PAGE iv")).toBe(maskedKey("PAGE xii"));
    expect(exactKey("  Official  Journal ")).toBe("official journal");
  });

  it("guesses en / it / und from function words", () => {
    expect(guessLanguage(["The controller shall be responsible for the processing of the data and shall ensure that it is lawful."])).toBe("en");
    expect(guessLanguage(["Il titolare del trattamento è responsabile della conformità e delle misure per la protezione dei dati."])).toBe("it");
    expect(guessLanguage(["平成 年 月 日"])).toBe("und");
  });

  it("rejects junk metadata titles", () => {
    expect(isMeaningfulTitle("Digital Operational Resilience Act")).toBe(true);
    for (const junk of ["Untitled", "Microsoft Word - draft.docx", "doc1", "report.pdf", "", "  ", "123"]) {
      expect(isMeaningfulTitle(junk)).toBe(false);
    }
  });

  it("decides formats by magic bytes first, then extension", () => {
    expect(detectFormat("a.txt", Buffer.from("%PDF-1.7\n"))).toBe("pdf");
    expect(detectFormat("a.md", Buffer.from("# Title"))).toBe("markdown");
    expect(detectFormat("a.TXT", Buffer.from("text"))).toBe("text");
    expect(() => detectFormat("a.pdf", Buffer.from([0x50, 0x4b, 0x03, 0x04, 0]))).toThrow(/ZIP/);
    expect(() => detectFormat("a.pdf", Buffer.from("hello"))).toThrow(/not a valid PDF/);
  });
});
