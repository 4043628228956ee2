import { describe, expect, it } from "vitest";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { body, fixtureDoc, type FixtureLine } from "./structure-fixture.ts";

// Rule "a Federal Register notice ends at its filing line": the text after "[FR Doc. … Filed …]"
// on a notice's last page is the next notice, not part of this one.

const notice = (agency: string, summary: string): FixtureLine[] => [
  body(`AGENCY: ${agency}.`),
  body("ACTION: Notice of proposed rulemaking (NPRM)."),
  body(`SUMMARY: ${summary}`),
  body("DATES: Comments must be received by October 5, 2020."),
];

const nextNotice = (agency: string): FixtureLine[] => [
  { text: "BILLING CODE 4910–13–P" },
  body("DEPARTMENT OF TRANSPORTATION"),
  body(`AGENCY: ${agency}.`),
  body("ACTION: Notice of proposed rulemaking (NPRM)."),
  body("SUMMARY: The agency proposes a rule for another product entirely, with another docket."),
  body("DATES: Comments must be received by September 21, 2020."),
];

function allText(sections: ReturnType<typeof sectionDocument>): string {
  return sections.map((s) => `${s.label} ${s.heading}\n${s.text}`).join("\n");
}

describe("a Federal Register notice ends at its filing line", () => {
  it("leaves out the next notice printed on an airworthiness directive's last page", () => {
    const doc = fixtureDoc([
      notice("Federal Aviation Administration (FAA), DOT", "The FAA proposes to supersede an airworthiness directive for certain airplanes."),
      [
        body("Issued on July 31, 2020. Lance T. Gant, Director, Compliance & Airworthiness Division."),
        { text: "[FR Doc. 2020–17221 Filed 8–5–20; 8:45 am]" },
        ...nextNotice("Federal Aviation Administration (FAA), DOT"),
      ],
    ]);
    const sections = sectionDocument(doc, "doc1");
    const text = allText(sections);
    expect(text).toContain("October 5, 2020");
    expect(text).toContain("Issued on July 31, 2020");
    expect(text).not.toContain("September 21, 2020");
    expect(text).not.toContain("FR Doc.");
    expect(text).not.toContain("BILLING CODE");
    expect(sections.filter((s) => s.label === "Dates")).toHaveLength(1);
  });

  it("does the same for another agency's notice", () => {
    const doc = fixtureDoc([
      notice("Office for Civil Rights, Department of Health and Human Services", "HHS proposes to modify the standards for the privacy of health information."),
      [
        body("Dated: January 5, 2021. Xavier Becerra, Secretary, Department of Health and Human Services."),
        { text: "[FR Doc. E1-00123 Filed 1–6–21; 8:45 am]" },
        ...nextNotice("Food and Drug Administration, HHS"),
      ],
    ]);
    const text = allText(sectionDocument(doc, "doc2"));
    expect(text).toContain("privacy of health information");
    expect(text).not.toContain("another product entirely");
  });

  it("keeps the notices of a PDF holding several whole ones", () => {
    const doc = fixtureDoc([
      [...notice("Federal Aviation Administration (FAA), DOT", "The FAA proposes a first directive."), { text: "[FR Doc. 2020–17000 Filed 8–5–20; 8:45 am]" }],
      notice("Federal Aviation Administration (FAA), DOT", "The FAA proposes a second directive."),
    ]);
    const text = allText(sectionDocument(doc, "doc3"));
    expect(text).toContain("a first directive");
    expect(text).toContain("a second directive");
  });

  it("changes nothing in a document without a filing line", () => {
    const doc = fixtureDoc([notice("Federal Aviation Administration (FAA), DOT", "The FAA proposes a directive."), [body("The end of the notice.")]]);
    expect(allText(sectionDocument(doc, "doc4"))).toContain("The end of the notice.");
  });
});
