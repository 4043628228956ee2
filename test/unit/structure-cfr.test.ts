import { describe, expect, it } from "vitest";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { body, fixtureDoc } from "./structure-fixture.ts";

const LONG = "The requirements of this subchapter implement sections of the Social Security Act.";

describe("sectionDocument on a CFR layout", () => {
  const doc = fixtureDoc([
    [
      { text: "Table of Contents", bold: true, size: 20 },
      { text: "PART 164—SECURITY AND PRIVACY..........................59", bold: true, size: 14 },
      { text: "§ 164.302 Applicability. ......................................60", bold: true },
      { text: "§ 164.306 Security standards: General rules. ...................61", bold: true },
      { text: "§ 164.308 Administrative safeguards and a very long contents entry that", bold: true },
      { text: "wraps. ..........................................................62", bold: true, indent: 40 },
      body(LONG),
    ],
    [
      { text: "PART 164—SECURITY AND PRIVACY", bold: true },
      { text: "Subpart C—Security Standards for the", bold: true, gapBefore: 1 },
      { text: "Protection of Electronic Health Information", bold: true },
      { text: "§ 164.302 Applicability.", bold: true, gapBefore: 1 },
      body(LONG),
      body("See § 164.306 for the general rules and § 164.308(a)(1) for safeguards."),
      { text: "§ 164.306 Security standards: General", bold: true, gapBefore: 1 },
      { text: "rules.", bold: true },
      body(LONG),
      { text: "§ 164.308 Administrative safeguards.", bold: true, gapBefore: 1 },
      body("(a) A covered entity or business associate must, in accordance with § 164.306:"),
    ],
  ]);
  const sections = sectionDocument(doc, "hipaa");

  it("skips dotted and wrapped table-of-contents entries and finds the real headings", () => {
    expect(sections.map((s) => s.label)).toEqual(["Preamble", "Part 164", "Subpart C", "§ 164.302", "§ 164.306", "§ 164.308"]);
  });

  it("splits the section sign label from its title, joining wrapped titles", () => {
    const s308 = sections.find((s) => s.label === "§ 164.308");
    expect(s308?.heading).toBe("Administrative safeguards.");
    expect(s308?.kind).toBe("section");
    expect(s308?.path).toEqual(["Part 164", "Subpart C", "§ 164.308"]);
    expect(sections.find((s) => s.label === "§ 164.306")?.heading).toBe("Security standards: General rules.");
    expect(sections.find((s) => s.label === "Subpart C")?.heading).toBe("Security Standards for the Protection of Electronic Health Information");
    expect(sections.find((s) => s.label === "§ 164.302")?.text).toContain("See § 164.306");
  });

  it("gives ids readable slugs for the section sign", () => {
    expect(sections.find((s) => s.label === "§ 164.308")?.id).toBe("hipaa:part-164/subpart-c/sec-164-308");
  });
});
