import { describe, expect, it } from "vitest";
import { PinpointTracker } from "../../core/answer/pinpoint.ts";
import { sentenceUnits } from "../../core/answer/sentence-units.ts";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import { citationLabel } from "../../core/answer/citation-label.ts";

// One set of pipelines for the file, as an engine keeps one (language-resources.ts).
const resources = createLanguageResources();

// Citations pin the paragraph and point a sentence sits in, as lawyers write them.

function pinpoints(lines: string[]): Array<string | null> {
  const tracker = new PinpointTracker();
  return lines.map((l) => tracker.line(l));
}

describe("pinpoints of EU articles and CFR sections", () => {
  it("EU: numbered paragraphs and lettered points, points reset by the next paragraph", () => {
    expect(
      pinpoints([
        "3. The communication to the data subject shall not be required if any of the following conditions are met:",
        "(a) the controller has implemented appropriate technical measures;",
        "(b) the controller has taken subsequent measures;",
        "(c) it would involve disproportionate effort.",
        "4. If the controller has not already communicated the breach …",
      ]),
    ).toEqual(["(3)", "(3)(a)", "(3)(b)", "(3)(c)", "(4)"]);
  });

  it("CFR: (c) → (1) → (i) nest; a new letter closes the deeper levels", () => {
    expect(
      pinpoints([
        "(b) Standard: Facility access controls.",
        "(1) Implement policies and procedures to limit physical access.",
        "(i) Contingency operations (Addressable).",
        "(ii) Facility security plan (Addressable).",
        "(c) Standard: Workstation use. Implement policies and procedures that specify the proper functions.",
      ]),
    ).toEqual(["(b)", "(b)(1)", "(b)(1)(i)", "(b)(1)(ii)", "(c)"]);
  });

  it("CFR definitions: an unnumbered definition closes the points of the one before it", () => {
    // 45 CFR 160.103: "Covered entity means:" is not point (4)(iv) of "Business associate".
    expect(
      pinpoints([
        "(4) Business associate does not include:",
        "(iv) A covered entity participating in an organized health care arrangement.",
        "Covered entity means:",
        "(1) A health plan.",
        "Health plan means an individual or group plan that provides, or pays the cost of, medical care.",
      ]),
    ).toEqual(["(4)", "(4)(iv)", null, "(1)", null]);
  });

  it("a point run into the line above: its '(ii)' is still a numeral, and the run-in '(i)' opens where its sentence starts", () => {
    // 45 CFR 164.316 as pdf.js reads it: "(i)" sits on the line of "(b)(1)".
    const lines = [
      "(b)(1) Standard:",
      "Documentation. (i) Maintain the policies and procedures implemented to comply with this subpart in written form.",
      "(ii) If an action is required by this subpart to be documented, maintain a written record.",
      "(2) Implementation specifications:",
      "(i) Time limit (Required). Retain the documentation for 6 years from the date of its creation.",
    ];
    expect(pinpoints(lines)).toEqual(["(b)(1)", "(b)(1)", "(b)(1)(ii)", "(b)(2)", "(b)(2)(i)"]);
    const units = sentenceUnits(lines.join("\n"), resources);
    expect(units.find((u) => u.text.startsWith("(i) Maintain"))?.pinpoint).toBe("(b)(1)(i)");
    expect(units.find((u) => u.text.startsWith("Retain"))?.pinpoint).toBe("(b)(2)(i)");
  });

  it("(i) after (h) is the letter i, not a roman numeral", () => {
    expect(pinpoints(["(g) seventh;", "(h) eighth;", "(i) ninth;", "(j) tenth."])).toEqual(["(g)", "(h)", "(i)", "(j)"]);
  });

  it("sentence units carry their pinpoint, and the label shows it", () => {
    const units = sentenceUnits(
      "(a) Standard: Workstation use. Implement policies.\n(c) Standard: Workstation security. Implement physical safeguards for all workstations.",
      resources,
    );
    expect(units.map((u) => u.pinpoint)).toEqual(["(a)", "(a)", "(c)", "(c)"]);
    const doc = { title: "HIPAA Administrative Simplification", fileName: "hipaa.pdf" };
    expect(citationLabel({ document: doc, sectionLabel: "§ 164.310", paragraphs: [], pinpoint: "(c)", pageStart: 70, pageEnd: 70 })).toBe(
      "HIPAA § 164.310(c), p. 70",
    );
    expect(
      citationLabel({
        document: { title: "GDPR", fileName: "gdpr.pdf" },
        sectionLabel: "Article 34",
        paragraphs: ["3"],
        pinpoint: "(3)(a)",
        pageStart: 54,
        pageEnd: 54,
        printedStart: "53",
      }),
    ).toBe("GDPR Art. 34(3)(a), p. 53");
  });
});
