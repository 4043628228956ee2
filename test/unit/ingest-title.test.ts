import { describe, expect, it } from "vitest";
import { chooseTitle } from "../../core/ingest/document-title.ts";
import type { ParsedPage, TextLine } from "../../core/model/ingest-types.ts";

function page(lines: Array<[text: string, fontSize: number, bold?: boolean]>): ParsedPage {
  const out: TextLine[] = lines.map(([text, fontSize, bold], i) => ({
    page: 1,
    text,
    box: { x: 50, y: 60 + i * 20, width: 300, height: fontSize },
    fontSize,
    bold: bold ?? false,
    column: 0,
  }));
  return { number: 1, width: 595, height: 842, lines: out, footnotes: [] };
}

describe("document title", () => {
  it("prefers the most prominent printed heading over junk metadata", () => {
    const pages = [
      page([
        ["Digital Operational Resilience Act", 16, true],
        ["Body text of the regulation.", 10],
      ]),
    ];
    expect(chooseTitle("Microsoft Word - draft3.docx", pages, 10, "/x/dora.pdf")).toBe("Digital Operational Resilience Act");
  });

  it("uses meaningful metadata that is printed on the first pages", () => {
    const pages = [
      page([
        ["Guide to Risk Assessments", 16, true],
        ["Body.", 10],
      ]),
    ];
    expect(chooseTitle("Guide to Risk Assessments", pages, 10, "/x/a.pdf")).toBe("Guide to Risk Assessments");
  });

  it("does not take a bold row of figures (a table total) for a title", () => {
    const pages = [
      page([
        ["TOTALE COMPLESSIVO € 756.064,24 € 756.064,24 € 189.016,06", 14, true],
        ["Lotto 1 fornitura 12.000", 10],
      ]),
    ];
    expect(chooseTitle(undefined, pages, 10, "/x/allegato_E_tabella_lotti.pdf")).toBe("allegato_E_tabella_lotti");
  });

  it("titles a Federal Register document by the lines above its AGENCY: caption, not the section banner", () => {
    const faa = [
      page([
        ["Proposed Rules", 24, true],
        ["This section of the FEDERAL REGISTER contains notices to the public.", 8],
        ["DEPARTMENT OF TRANSPORTATION", 9, true],
        ["Federal Aviation Administration", 9, true],
        ["14 CFR Part 39", 9, true],
        ["[Docket No. FAA–2020–0686; Product", 9],
        ["Identifier 2019–NM–035–AD]", 9],
        ["RIN 2120–AA64", 9],
        ["Airworthiness Directives; The Boeing", 9, true],
        ["Company Airplanes", 9, true],
        ["AGENCY: Federal Aviation", 9],
        ["Administration (FAA), DOT.", 9],
      ]),
    ];
    expect(chooseTitle(undefined, faa, 9, "/x/2020-17221.pdf")).toBe("Airworthiness Directives; The Boeing Company Airplanes");
    const hhs = [
      page([
        ["Rules and Regulations", 24, true],
        ["DEPARTMENT OF HEALTH AND HUMAN SERVICES", 9, true],
        ["Office of the Secretary", 9, true],
        ["45 CFR Parts 160 and 164", 9, true],
        ["RIN 0945–AA03", 9],
        ["Modifications to the HIPAA Privacy, Security, Enforcement, and Breach Notification Rules", 9, true],
        ["AGENCY: Office for Civil Rights, Department of Health and Human Services.", 9],
      ]),
    ];
    expect(chooseTitle("Federal Register Volume 78, Issue 17", hhs, 9, "/x/2013-01073.pdf")).toBe(
      "Modifications to the HIPAA Privacy, Security, Enforcement, and Breach Notification Rules",
    );
  });
});
