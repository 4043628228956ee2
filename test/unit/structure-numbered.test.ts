import { describe, expect, it } from "vitest";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { body, fixtureDoc } from "./structure-fixture.ts";

const LONG = "Organizations use this guidance to protect controlled unclassified information.";

describe("sectionDocument on NIST-style numbered headings", () => {
  const doc = fixtureDoc([
    [
      { text: "CHAPTER THREE", bold: true, size: 13 },
      { text: "THE REQUIREMENTS", bold: true, size: 16 },
      body(LONG),
      { text: "3.1 ACCESS CONTROL", bold: true, size: 14, gapBefore: 1 },
      { text: "3.1.1 Limit system access to authorized users, processes acting on behalf of", bold: true },
      { text: "authorized users, and devices.", bold: true, indent: 36 },
      { text: "DISCUSSION", bold: true, indent: 36, gapBefore: 1 },
      body(LONG, { indent: 36 }),
      body("addressed in requirement", { indent: 36 }),
      body("3.1.2. This line is a cross-reference that happens to start a line.", { indent: 36 }),
      { text: "3.1.2 Limit system access to the types of transactions users may execute.", bold: true, gapBefore: 1 },
      body(LONG, { indent: 36 }),
      { text: "3.2 AWARENESS AND TRAINING", bold: true, size: 14, gapBefore: 1 },
      { text: "3.2.1 Ensure that managers are made aware of security risks.", bold: true },
      body(LONG),
      { text: "APPENDIX A", bold: true, size: 13, gapBefore: 2 },
      { text: "REFERENCES", bold: true, size: 16 },
      body("3.1.1 Limit system access AC-2 Account Management (mapping table row)", { size: 9 }),
      body(LONG),
    ],
  ]);
  const sections = sectionDocument(doc, "nist");

  it("finds chapters, sections, requirements and appendices, ignoring look-alikes", () => {
    expect(sections.map((s) => s.label)).toEqual(["Chapter 3", "Section 3.1", "3.1.1", "3.1.2", "Section 3.2", "3.2.1", "Appendix A"]);
    expect(sections.find((s) => s.label === "Chapter 3")?.heading).toBe("THE REQUIREMENTS");
    expect(sections.find((s) => s.label === "Appendix A")?.heading).toBe("REFERENCES");
  });

  it("makes sentence headings requirements whose statement stays in the text", () => {
    const r = sections.find((s) => s.label === "3.1.1");
    expect(r?.kind).toBe("requirement");
    expect(r?.heading).toBe("Limit system access to authorized users, processes acting on behalf of authorized users, and devices.");
    expect(r?.text.startsWith("Limit system access")).toBe(true);
    expect(r?.text).toContain("DISCUSSION");
    expect(r?.path).toEqual(["Chapter 3", "Section 3.1", "3.1.1"]);
  });
});

describe("sectionDocument on Italian numbered sections", () => {
  it("keeps the outline and rejects numbered list items", () => {
    const doc = fixtureDoc(
      [
        [
          { text: "1. PIATTAFORMA TELEMATICA", bold: true, size: 12 },
          { text: "1.1. LA PIATTAFORMA DI NEGOZIAZIONE", bold: true, size: 12 },
          body("La presente procedura aperta è svolta interamente tramite la piattaforma telematica."),
          { text: "2. DOCUMENTAZIONE DI GARA", bold: true, size: 12 },
          { text: "2.1. DOCUMENTI DI GARA", bold: true, size: 11 },
          { text: "1. Bando di gara;", bold: true, indent: 20 },
          { text: "3. Capitolato tecnico e prestazionale;", bold: true, indent: 20 },
          { text: "3. OGGETTO DELL’APPALTO", bold: true, size: 12 },
          body("L’appalto è suddiviso in lotti funzionali come indicato nel prospetto allegato."),
        ],
      ],
      { language: "it" },
    );
    const sections = sectionDocument(doc, "disc");
    expect(sections.map((s) => s.label)).toEqual(["Par. 1", "Par. 1.1", "Par. 2", "Par. 2.1", "Par. 3"]);
    expect(sections.find((s) => s.label === "Par. 2.1")?.text).toContain("1. Bando di gara;");
    expect(sections.find((s) => s.label === "Par. 3")?.heading).toBe("OGGETTO DELL’APPALTO");
  });
});
