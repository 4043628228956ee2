import { describe, expect, it } from "vitest";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { body, fixtureDoc } from "./structure-fixture.ts";

// Rule "a wrapped reference is not a new paragraph": a line ending "… to paragraph" and the next
// opening "(i) of this AD …" are one sentence; a list's points still open paragraphs.

function textOf(lines: Parameters<typeof fixtureDoc>[0][number]): string {
  return sectionDocument(fixtureDoc([lines]), "doc")
    .map((s) => s.text)
    .join("\n");
}

describe("a wrapped reference is not a new paragraph", () => {
  it("keeps a CFR sentence whose paragraph reference wraps (FAA airworthiness directive)", () => {
    const text = textOf([
      { text: "§ 39.13 [Amended]", bold: true, gapBefore: 1 },
      body("(i) Minimum Equipment List Provisions. Note 2 to paragraph (i): The provisions specified in figure 10 to paragraph"),
      body("(i) of this AD correspond to Master Minimum Equipment List items in the existing approved list."),
      body("(j) Special Flight Permit. A special flight permit is not required to accomplish the flight."),
    ]);
    expect(text).toContain("figure 10 to paragraph (i) of this AD correspond");
    expect(text).toContain("\n(j) Special Flight Permit.");
  });

  it("keeps an EU sentence whose point reference wraps, and a list's points apart (GDPR)", () => {
    const text = textOf([
      { text: "Article 6", bold: true, gapBefore: 1 },
      { text: "Lawfulness of processing", bold: true },
      body("1. Processing shall be lawful only if and to the extent that at least one of the following applies:"),
      body("(a) the data subject has given consent to the processing of his or her personal data;"),
      body("(b) processing is necessary for the performance of a contract; and"),
      body("(c) processing is necessary for compliance with a legal obligation."),
      body("2. Member States may maintain more specific provisions with regard to processing referred to in point"),
      body("(c) of paragraph 1 to adapt the application of the rules of this Regulation."),
    ]);
    expect(text).toContain("\n(a) the data subject has given consent");
    expect(text).toContain("\n(b) processing is necessary for the performance");
    expect(text).toContain("\n(c) processing is necessary for compliance");
    expect(text).toContain("referred to in point (c) of paragraph 1 to adapt");
  });
});
