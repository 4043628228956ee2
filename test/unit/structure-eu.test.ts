import { describe, expect, it } from "vitest";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { body, fixtureDoc } from "./structure-fixture.ts";

const LONG = "This is running text of the regulation that fills the whole column width here.";

function euDoc() {
  return fixtureDoc([
    [
      { text: "REGULATION (EU) 2099/1 OF THE EUROPEAN PARLIAMENT", bold: true, centred: true },
      body(LONG),
      body("Whereas:"),
      body("(1) Digital operational resilience matters for the financial sector as a whole."),
      body("It keeps the economy running in key sectors.", { indent: 26 }),
      body("(2) Cyber threats are increasing in the Union and require a common response.", { gapBefore: 1 }),
      body("HAVE ADOPTED THIS REGULATION:", { gapBefore: 1 }),
      { text: "CHAPTER I", centred: true, gapBefore: 1 },
      { text: "General provisions", bold: true, centred: true },
      { text: "Article 1", centred: true, gapBefore: 1 },
      { text: "Subject matter", bold: true, centred: true, gapBefore: 1 },
      body("1. This Regulation lays down uniform requirements on the security of network and"),
      body("information systems as referred to in"),
      body("Article 6 and in Article 7 of Directive (EU) 2016/1148 of the Council."),
      body("2. It applies to financial entities.", { gapBefore: 0 }),
    ],
    [
      { text: "CHAPTER II", centred: true },
      { text: "ICT risk management", bold: true, centred: true },
      { text: "SECTION 1", centred: true, gapBefore: 1 },
      { text: "Article 2", centred: true, gapBefore: 1 },
      { text: "Governance", bold: true, centred: true, gapBefore: 1 },
      body(LONG),
      { text: "Article 3", centred: true, gapBefore: 1 },
      { text: "Reporting of major ICT-related incidents", bold: true, centred: true, gapBefore: 1 },
      body(LONG),
      { text: "ANNEX", centred: true, gapBefore: 2 },
      { text: "List of entities", bold: true, centred: true },
      body(LONG),
    ],
  ]);
}

describe("sectionDocument on an EU regulation layout", () => {
  const sections = sectionDocument(euDoc(), "reg");
  const byLabel = new Map(sections.map((s) => [s.label, s]));

  it("finds preamble, recitals, chapters, sections, articles and the annex in order", () => {
    expect(sections.map((s) => s.label)).toEqual([
      "Preamble",
      "Recital 1",
      "Recital 2",
      "Chapter I",
      "Article 1",
      "Chapter II",
      "Section 1",
      "Article 2",
      "Article 3",
      "Annex",
    ]);
    expect(sections.map((s) => s.ordinal)).toEqual(sections.map((_, i) => i));
    expect(byLabel.get("Recital 1")?.kind).toBe("recital");
    expect(byLabel.get("Annex")?.kind).toBe("annex");
  });

  it("takes the heading from the line after the article number and keeps it out of the text", () => {
    const art1 = byLabel.get("Article 1");
    expect(art1?.heading).toBe("Subject matter");
    expect(art1?.text.startsWith("1. This Regulation")).toBe(true);
    expect(art1?.text).not.toContain("Subject matter");
    expect(byLabel.get("Article 3")?.heading).toBe("Reporting of major ICT-related incidents");
  });

  it("does not start a section at a cross-reference that begins a line", () => {
    expect(sections.filter((s) => s.label === "Article 6")).toHaveLength(0);
    expect(byLabel.get("Article 1")?.text).toContain("Article 6 and in Article 7");
  });

  it("nests Chapter > Section > Article with paths, parents, levels and path-derived ids", () => {
    const art2 = byLabel.get("Article 2");
    expect(art2?.path).toEqual(["Chapter II", "Section 1", "Article 2"]);
    expect(art2?.level).toBe(2);
    expect(art2?.parentId).toBe(byLabel.get("Section 1")?.id);
    expect(art2?.id).toBe("reg:chapter-ii/section-1/article-2");
    expect(byLabel.get("Article 1")?.parentId).toBe(byLabel.get("Chapter I")?.id);
    expect(byLabel.get("Recital 2")?.parentId).toBeNull();
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
  });

  it("drops the recital number from the recital text and records pages", () => {
    const r1 = byLabel.get("Recital 1");
    expect(r1?.text.startsWith("Digital operational resilience")).toBe(true);
    expect(r1?.text).toContain("key sectors");
    expect(byLabel.get("Article 2")?.pageStart).toBe(2);
    expect(byLabel.get("Article 1")?.pageStart).toBe(1);
  });

  it("separates paragraphs with newlines and maps every line to a span", () => {
    const art1 = byLabel.get("Article 1");
    expect(art1?.text.split("\n")).toHaveLength(2);
    for (const s of sections) {
      for (const span of s.spans) {
        expect(span.start).toBeGreaterThanOrEqual(0);
        expect(span.end).toBeLessThanOrEqual(s.text.length);
        expect(span.end).toBeGreaterThan(span.start);
      }
    }
    const span = art1?.spans[1];
    expect(art1?.text.slice(span?.start, span?.end)).toBe("information systems as referred to in");
  });
});

describe("sectionDocument on EU plain text", () => {
  it("reads labels and headings from bare lines separated by blank lines", () => {
    const doc = fixtureDoc(
      [
        [
          { text: "CHAPTER I" },
          { text: "General provisions", gapBefore: 1 },
          { text: "Article 1", gapBefore: 1 },
          { text: "Subject-matter and objectives", gapBefore: 1 },
          { text: "1. This Regulation lays down rules.", gapBefore: 1 },
          { text: "2. It protects fundamental rights.", gapBefore: 1 },
          { text: "Article 2", gapBefore: 1 },
          { text: "Material scope", gapBefore: 1 },
          { text: "1. This Regulation applies to processing.", gapBefore: 1 },
          { text: "Article 3", gapBefore: 1 },
          { text: "Territorial scope", gapBefore: 1 },
          { text: "It applies in the Union.", gapBefore: 1 },
        ],
      ],
      { format: "text" },
    );
    const sections = sectionDocument(doc, "gdpr");
    expect(sections.map((s) => [s.label, s.heading])).toEqual([
      ["Chapter I", "General provisions"],
      ["Article 1", "Subject-matter and objectives"],
      ["Article 2", "Material scope"],
      ["Article 3", "Territorial scope"],
    ]);
    expect(sections[1]?.text).toBe("1. This Regulation lays down rules.\n2. It protects fundamental rights.");
  });
});

describe("EU sectioning of a short act", () => {
  it("recognises a two-article act whose numbering starts at 1", () => {
    const doc = fixtureDoc([
      [
        { text: "Article 1", bold: true, gapBefore: 1 },
        { text: "Scope", bold: true },
        body("This act applies to operators of archives."),
        { text: "Article 2", bold: true, gapBefore: 1 },
        { text: "Definitions", bold: true },
        body("For the purposes of this act the following definitions apply."),
      ],
    ]);
    const sections = sectionDocument(doc, "short");
    expect(sections.map((s) => [s.label, s.heading])).toEqual([
      ["Article 1", "Scope"],
      ["Article 2", "Definitions"],
    ]);
  });

  it("does not take two stray citations for structure", () => {
    const doc = fixtureDoc([[body("Operators shall comply with"), { text: "Article 5", bold: true }, body("and with"), { text: "Article 9", bold: true }]]);
    expect(sectionDocument(doc, "stray").some((s) => s.kind === "article")).toBe(false);
  });
});
