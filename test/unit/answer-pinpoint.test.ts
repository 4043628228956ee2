import { describe, expect, it } from "vitest";
import { PinpointTracker } from "../../core/citations/pinpoint.ts";
import { sentenceUnits } from "../../core/answer/compose/sentence-units.ts";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import { citationLabel } from "../../core/citations/citation-label.ts";
import { earlierPartsText } from "../../core/answer/compose/earlier-parts.ts";
import type { Section } from "../../core/model/section-types.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import { pathSlug } from "../../core/structure/slug.ts";

// One set of pipelines for the file, as an engine keeps one (language-resources.ts).
const resources = createLanguageResources();

// Citations pin the paragraph and point a sentence sits in, as lawyers write them.

function pinpoints(lines: string[], family?: "eu" | "cfr"): Array<string | null> {
  const tracker = new PinpointTracker(family === undefined ? {} : { family });
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

  it("CFR definitions: an unnumbered definition closes the points of the one before it; its own points are not the section's", () => {
    // 45 CFR 160.103: "Covered entity means:" is not point (4)(iv) of "Business associate", and its
    // "(1) A health plan." is not § 160.103(1), which does not exist.
    expect(
      pinpoints([
        "Business associate means:",
        "(4) Business associate does not include:",
        "(iv) A covered entity participating in an organized health care arrangement.",
        "Covered entity means:",
        "(1) A health plan.",
        "Health plan means an individual or group plan that provides, or pays the cost of, medical care.",
      ]),
    ).toEqual([null, null, null, null, null, null]);
    // 45 CFR 164.504: the definitions of (a), then (e)(1) after "(b)-(d) [Reserved]".
    expect(
      pinpoints([
        "(a) Definitions. As used in this section:",
        "Summary health information means information:",
        "(1) That summarizes the claims history; and",
        "(2) From which the information described at § 164.514(b)(2)(i) has been deleted.",
        "(b)-(d) [Reserved]",
        "(e)(1) Standard: Business associate contracts.",
      ]),
    ).toEqual(["(a)", "(a)", "(a)", "(a)", "(a)", "(e)(1)"]);
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
    expect(pinpoints(lines, "cfr")).toEqual(["(b)(1)", "(b)(1)", "(b)(1)(ii)", "(b)(2)", "(b)(2)(i)"]);
    const units = sentenceUnits(lines.join("\n"), resources, { label: "§ 164.316" });
    expect(units.find((u) => u.text.startsWith("(i) Maintain"))?.pinpoint).toBe("(b)(1)(i)");
    expect(units.find((u) => u.text.startsWith("Retain"))?.pinpoint).toBe("(b)(2)(i)");
  });

  it("a marker printed without its space, and a numeral after one print lost, keep their list: 45 CFR 164.528(a)(1), 164.308(a)(1)", () => {
    expect(
      pinpoints(
        [
          "(a) Standard: Right to an accounting of disclosures.",
          "(1) An individual has a right to receive an accounting of disclosures, except for disclosures:",
          "(iii) Incident to a use or disclosure otherwise permitted;",
          "(iv)Pursuant to an authorization as provided in § 164.508;",
          "(v) For the facility's directory;",
          "(2)(i) The covered entity must temporarily suspend an individual's right.",
          "(ii) If the statement is made orally, the covered entity must:",
        ],
        "cfr",
      ).slice(2),
    ).toEqual(["(a)(1)(iii)", "(a)(1)(iv)", "(a)(1)(v)", "(a)(2)(i)", "(a)(2)(ii)"]);
    // Its fourth numeral lost altogether: "(v)" is still the fifth point, and "(2)" closes the list.
    expect(
      pinpoints(
        [
          "(a)(1) Standard: Security management process. Implement policies:",
          "(i) Risk analysis (Required).",
          "(ii) Risk management (Required).",
          "(iii) Sanction policy (Required).",
          "Information system activity review (Required).",
          "(v) Review of records (Required).",
          "(2) Standard: Assigned security responsibility.",
        ],
        "cfr",
      ),
    ).toEqual(["(a)(1)", "(a)(1)(i)", "(a)(1)(ii)", "(a)(1)(iii)", "(a)(1)(iii)", "(a)(1)(v)", "(a)(2)"]);
    // A letter one past the open one stays a letter: "(v)" after "(u)" in a long CFR list.
    const tracker = new PinpointTracker({ family: "cfr" });
    tracker.skim("(t) Standard: one.\n(u) Standard: two.\n(1) Text.\n(i) First;\n(ii) Second;\n(iii) Third;");
    expect(tracker.line("(v) Standard: three.")).toBe("(v)");
  });

  it("an (i) below (h)(1) is read by what follows it: its (ii) makes it a numeral, a (j) the letter (45 CFR 164.514, 14 CFR 39.13)", () => {
    const hipaa = [
      "(h)(1) Standard: Verification requirements. Prior to any disclosure permitted by this subpart, a covered entity must:",
      "(i) Except with respect to disclosures under § 164.510, verify the identity of a person requesting protected health information; and",
      "(ii) Obtain any documentation required under this subpart.",
      "(2) Implementation specifications: Verification.",
      "(i) Conditions on disclosures.",
      "(ii) Identity of public officials.",
    ];
    const tracker = new PinpointTracker({ family: "cfr", text: hipaa.join("\n") });
    expect(hipaa.map((l) => tracker.line(l))).toEqual(["(h)(1)", "(h)(1)(i)", "(h)(1)(ii)", "(h)(2)", "(h)(2)(i)", "(h)(2)(ii)"]);
    const faa = [
      "(h) Software Installation.",
      "(1) Install the software.",
      "(2) Do a functional test of the flight control system.",
      "(i) Minimum Equipment List (MEL) Provisions for Inoperative Flight Control System Functions",
      "(j) Installation of MAX Display System Software.",
    ];
    const faaTracker = new PinpointTracker({ family: "cfr", text: faa.join("\n") });
    faaTracker.skim("(a) Comments Due Date.\n(b) Affected ADs.\n(c) Applicability.\n(d) Subject.\n(e) Unsafe Condition.\n(f) Compliance.\n(g) Definitions.");
    expect(faa.map((l) => faaTracker.line(l))).toEqual(["(h)", "(h)(1)", "(h)(2)", "(i)", "(j)"]);
  });

  it("a number continues its list: a name's number or a heading numbered past the list is no marker (45 CFR 162.920, a tender's articles)", () => {
    expect(
      pinpoints(
        [
          "(c) The following are incorporated by reference:",
          "(3) Phase III CORE 470 Connectivity Rule, version 3.0.0,",
          "(835) Infrastructure Rule, version 3.0.0, June 2012.",
          "(4) Phase III CORE 360 Uniform Use of CARCs and RARCs",
        ],
        "cfr",
      ).slice(1),
    ).toEqual(["(c)(3)", "(c)(3)", "(c)(4)"]);
    expect(
      pinpoints(
        [
          "(a) Requirements.",
          "(1) The first requirement.",
          "(2) The second requirement.",
          "(835) Infrastructure Rule, version 3.0.0, June 2012.",
          "(3) The third requirement.",
        ],
        "cfr",
      ),
    ).toEqual(["(a)", "(a)(1)", "(a)(2)", "(a)(2)", "(a)(3)"]);
    // An article whose paragraphs are not numbered: "8. CONTROLLO …" is the next article's heading.
    expect(pinpoints(["7.1 - Consegna", "Le consegne dovranno essere effettuate entro 5 giorni.", "8. CONTROLLO QUALITA' DELLA FORNITURA"], "eu")).toEqual([
      null,
      null,
      null,
    ]);
    expect(pinpoints(["1. Member States shall provide.", "2. They shall notify.", "3. The Commission shall report."], "eu")).toEqual(["(1)", "(2)", "(3)"]);
  });

  it("a line after a list's closing point belongs to the paragraph, unless the list goes on after it (GDPR Art. 28(3), DORA Art. 58(1))", () => {
    const gdpr = [
      "3. Processing by a processor shall be governed by a contract that stipulates that the processor:",
      "(a) processes the personal data only on documented instructions from the controller;",
      "(b) makes available to the controller all information necessary to demonstrate compliance with the obligations laid down in this Article.",
      "With regard to point (b) of the first subparagraph, the processor shall immediately inform the controller if an instruction infringes this Regulation.",
      "4. Where a processor engages another processor, the same obligations shall be imposed.",
    ];
    expect(pinpoints(gdpr, "eu")).toEqual(["(3)", "(3)(a)", "(3)(b)", "(3)", "(4)"]);
    const dora = [
      "1. The review shall include at least the following:",
      "(c) the regime referred to in Article 31(12) and the powers of the Lead Overseer.",
      "For the purposes of the first subparagraph of this point, the review shall include an analysis of the arrangements.",
      "(d) the appropriateness of including in the scope of this Regulation financial entities.",
      "Power is delegated to the Commission to supplement this Regulation.",
    ];
    const tracker = new PinpointTracker({ family: "eu", text: dora.join("\n") });
    tracker.skim("1. The review shall include at least the following:\n(a) the criteria;\n(b) the voluntary nature;");
    expect(dora.slice(1).map((l) => tracker.line(l))).toEqual(["(1)(c)", "(1)(c)", "(1)(d)", "(1)"]);
  });

  it("a paragraph may number its points (i), (ii) with no letter above them, in its first or a later subparagraph (DORA Art. 31(8), Art. 36(1), a directive)", () => {
    const eu = (lines: string[], before?: string): Array<string | null> => {
      const tracker = new PinpointTracker({ family: "eu", text: lines.join("\n") });
      if (before !== undefined) tracker.skim(before);
      return lines.map((l) => tracker.line(l));
    };
    expect(
      eu(
        [
          "8. The designation referred to in paragraph 1, point (a), shall not apply to the following:",
          "(i) financial entities providing ICT services to other financial entities;",
          "(ii) ICT third-party service providers that are subject to oversight frameworks;",
          "(iii) ICT intra-group service providers;",
          "9. The ESAs shall establish, publish and update yearly the list of critical ICT third-party service providers.",
        ],
        "6. The Commission is empowered to adopt a delegated act.\n7. The designation shall not be used until the Commission has adopted a delegated act.",
      ),
    ).toEqual(["(8)", "(8)(i)", "(8)(ii)", "(8)(iii)", "(9)"]);
    // The second subparagraph's "(i)" is not the ninth letter of the first's closed "(a)", "(b)".
    expect(
      eu([
        "1. The Lead Overseer may exercise the powers referred to in the following provisions:",
        "(a) in Article 35(1), point (a); and",
        "(b) in Article 35(1), point (b).",
        "The powers referred to in the first subparagraph may be exercised subject to all of the following conditions:",
        "(i) the conduct of an inspection in a third-country is deemed necessary;",
        "(ii) the inspection is directly related to the provision of ICT services; and",
        "(iii) the critical ICT third-party service provider concerned consents.",
        "2. EBA, ESMA or EIOPA shall conclude administrative cooperation arrangements.",
      ]),
    ).toEqual(["(1)", "(1)(a)", "(1)(b)", "(1)", "(1)(i)", "(1)(ii)", "(1)(iii)", "(2)"]);
    expect(
      eu([
        "3. Member States shall exempt the following from the obligations laid down in paragraph 1:",
        "(i) public administration entities that carry out activities in the area of national security;",
        "(ii) entities that carry out activities in the area of law enforcement.",
      ]),
    ).toEqual(["(3)", "(3)(i)", "(3)(ii)"]);
    // Followed by "(j)", an "(i)" is still a letter, and one whose parents are unknown is not printed.
    expect(eu(["3. The following shall apply:", "(i) the first case;", "(j) the second case."])).toEqual(["(3)", null, null]);
  });

  it("quoted text is another act's: the provisions an amending article inserts keep the point that quotes them (DORA Art. 60, an amending directive)", () => {
    const dora = [
      "(4) in Article 79, paragraphs 1 and 2 are replaced by the following:",
      "‘1. A trade repository shall identify sources of operational risk and minimise them.",
      "2. A trade repository shall establish, implement and maintain an adequate business continuity policy and the fulfilment of the trade repository’s obligations.’;",
      "(5) in Article 80, paragraph 1 is deleted.",
      "(6) in Annex I, Section II is amended as follows:",
      "(a) points (a) and (b) are replaced by the following:",
      "‘(a) a trade repository infringes Article 79(1) by not identifying sources of operational risk;",
      "(b) a trade repository infringes Article 79(2) by not establishing a policy;’;",
      "(b) point (c) is deleted.",
      "(7) Annex III is amended as follows:",
    ];
    expect(pinpoints(dora, "eu")).toEqual(["(4)", "(4)", "(4)", "(5)", "(6)", "(6)(a)", "(6)(a)", "(6)(a)", "(6)(b)", "(7)"]);
    const directive = [
      "1. Directive 2009/65/EC is amended as follows:",
      "(a) in Article 2, paragraph 3 is replaced by the following:",
      "‘3. Member States shall ensure that the depositary",
      "keeps records for five years.’",
      "2. This Directive shall enter into force on the twentieth day.",
    ];
    expect(pinpoints(directive, "eu")).toEqual(["(1)", "(1)(a)", "(1)(a)", "(1)(a)", "(2)"]);
  });

  it("a section's closing note is the section's: a CFR source note, a notice's signature (45 CFR 162.1601, 14 CFR 39.13)", () => {
    expect(
      pinpoints(
        [
          "(b) Health plan premium payment:",
          "(1) Explanation of benefits.",
          "(2) Remittance advice.",
          "[65 FR 50367, Aug. 17, 2000, as amended at 77 FR 1590, Jan. 10, 2012]",
        ],
        "cfr",
      ),
    ).toEqual(["(b)", "(b)(1)", "(b)(2)", null]);
    expect(
      pinpoints(
        [
          "(q) Related Information",
          "(2) For service information identified in this AD, contact Boeing.",
          "Issued on August 3, 2020.",
          "Lance T. Gant, Director",
        ],
        "cfr",
      ),
    ).toEqual(["(q)", "(q)(2)", null, null]);
  });

  it("a sentence after a numbered list's last item is the provision's, in a document of no known family (a tender's paragraph, a guide's steps)", () => {
    const tender = [
      "1. (eventuale) in caso di avvalimento premiale, CONTRATTO DI AVVALIMENTO",
      "2. (eventuale) altra documentazione necessaria per la valutazione tecnica.",
      "N.B. Nell’ambito della documentazione tecnica presentata dovrà essere riscontrabile il codice.",
      "La commissione giudicatrice potrà invitare i concorrenti a fornire chiarimenti.",
    ];
    const t1 = new PinpointTracker({ text: tender.join("\n") });
    expect(tender.map((l) => t1.line(l))).toEqual(["(1)", "(2)", null, null]);
    const guide = [
      "1. Identify the purpose of the assessment.",
      "2. Identify the scope of the assessment.",
      "These steps are repeated when the system changes.",
      "3. Identify the assumptions and constraints.",
    ];
    const t2 = new PinpointTracker({ text: guide.join("\n") });
    // The list goes on after the sentence: the sentence stays with the item before it.
    expect(guide.map((l) => t2.line(l))).toEqual(["(1)", "(2)", "(2)", "(3)"]);
    const steps = [
      "1. Identify the purpose of the assessment.",
      "2. Identify the scope of the assessment.",
      "These steps are repeated when the system changes.",
    ];
    const t3 = new PinpointTracker({ text: steps.join("\n") });
    expect(steps.map((l) => t3.line(l))).toEqual(["(1)", "(2)", null]);
  });

  it("with no known family, a numeral opening a line of prose whose list ran inline is no point (NIST SP 800-30 Section 2.1, Task 1-5)", () => {
    expect(
      pinpoints([
        "The purpose of the risk monitoring component is to: (i) determine the ongoing effectiveness of risk responses; (ii) identify risk-impacting changes; and",
        "(iii) verify that planned risk responses are implemented.",
      ]),
    ).toEqual([null, null]);
    expect(
      pinpoints([
        "Organizations can also provide guidance by: (i) describing the risk models;",
        "(ii) providing additional examples for values of risk factors; and (iii) identifying any algorithms.",
        "In the absence of pre-existing organization-specific risk models, organizations use the models in Appendix D.",
      ]),
    ).toEqual([null, null, null]);
    // A letter may still open a family-less text's list where its "(a)" was not printed as a line.
    expect(pinpoints(["(b) Standard: Facility access controls.", "(1) Implement policies."])).toEqual(["(b)", "(b)(1)"]);
  });

  it("(i) after (h) is the letter i, not a roman numeral", () => {
    const tracker = new PinpointTracker();
    tracker.skim("(a) first;\n(b) second;\n(c) third;\n(d) fourth;\n(e) fifth;\n(f) sixth;");
    expect(["(g) seventh;", "(h) eighth;", "(i) ninth;", "(j) tenth."].map((l) => tracker.line(l))).toEqual(["(g)", "(h)", "(i)", "(j)"]);
  });

  it("CFR: the deeper levels, markers spaced or run in after a dash, wrapped references", () => {
    const cfr = (lines: string[], before?: string): Array<string | null> => {
      const tracker = new PinpointTracker({ family: "cfr" });
      if (before !== undefined) tracker.skim(before);
      return lines.map((l) => tracker.line(l));
    };
    // 45 CFR 164.504(e)(4): "(2)" after "(B)(1)" is the fifth level, "(5)" the second again.
    expect(
      cfr(
        [
          "(4) Implementation specifications: Other requirements.",
          "(ii) The contract may permit the business associate to disclose, if:",
          "(A) The disclosure is required by law; or",
          "(B)(1) The business associate obtains reasonable assurances; and",
          "(2) The person notifies the business associate.",
          "(5) Implementation specifications: Business associate contracts with subcontractors.",
        ],
        "(e)(1) Standard.\n(2) Implementation specifications.\n(3) Other arrangements.",
      ),
    ).toEqual(["(e)(4)", "(e)(4)(ii)", "(e)(4)(ii)(A)", "(e)(4)(ii)(B)(1)", "(e)(4)(ii)(B)(2)", "(e)(5)"]);
    // 45 CFR 160.534(b) prints "(b) (1)"; 164.404(c) runs its "(1)" in after a dash and lists "(A)"–"(E)" under it.
    expect(cfr(["(a) The ALJ must conduct a hearing.", "(b) (1) The respondent has the burden:", "(i) Affirmative defense;"])).toEqual([
      "(a)",
      "(b)(1)",
      "(b)(1)(i)",
    ]);
    expect(
      cfr(["(c) Implementation specifications: Content of notification —(1) Elements. The notification shall include:", "(A) A brief description;"]),
    ).toEqual(["(c)(1)", "(c)(1)(A)"]);
    // "(iii) of this section" is the end of a reference wrapped onto a new line, not a paragraph.
    expect(
      cfr(["(f)(1) Standard: Requirements. (i) Except as provided under paragraph (f)(1)(ii) or", "(iii) of this section or as otherwise authorized."]),
    ).toEqual(["(f)(1)", "(f)(1)"]);
    // "(A)" right under "(c)": two levels are missing, so it is not printed.
    expect(cfr(["(c) Standard.", "(A) A point whose parents were not read."])).toEqual(["(c)", null]);
  });

  it("a chain of markers run into the line above opens where its sentence starts: 45 CFR 164.312(e)(1)", () => {
    const units = sentenceUnits(
      "(c)(1) Standard: Integrity.\n(d) Standard: Person or entity authentication. Implement procedures to verify identity. (e)(1) Standard: Transmission security. Implement technical security measures.\n(2) Implementation specifications:",
      resources,
      { label: "§ 164.312" },
    );
    expect(units.find((u) => u.text.startsWith("(e)(1)"))?.citable).toBe("(e)(1)");
    expect(units.find((u) => u.text.startsWith("Implement technical"))?.citable).toBe("(e)(1)");
    expect(units.find((u) => u.text.startsWith("(2) Implementation"))?.citable).toBe("(e)(2)");
  });

  it("a later part of a provision: unknown parents print nothing, the earlier parts read first give them back", () => {
    const part2 =
      "(ii) If a business associate is required by law to perform a function, the covered entity may disclose.\n(4) Implementation specifications: Other requirements.";
    const alone = sentenceUnits(part2, resources, { label: "§ 164.504 (part 2)" });
    expect(alone.map((u) => u.citable)).toEqual([null, null]);
    // The structure is still tracked: the sentences of one point stay together.
    expect(alone[0]?.pinpoint).toBe("(ii)");
    const read = sentenceUnits(part2, resources, {
      label: "§ 164.504 (part 2)",
      before:
        "(d) Standard: Other requirements.\n(e)(1) Standard: Business associate contracts.\n(2) Implementation specifications: Contracts.\n(3) Implementation specifications: Other arrangements. (i) If a covered entity and its business associate are both governmental entities:",
    });
    expect(read.map((u) => u.citable)).toEqual(["(e)(3)(ii)", "(e)(4)"]);
    // Out of order on the page: "(3)" printed before "(1)" is still under "(h)".
    const tracker = new PinpointTracker({ family: "cfr" });
    expect(
      ["(h) Airplane Flight Manual Revisions.", "(3) In the Operating Procedures chapter.", "(1) In the Certificate Limitations."].map((l) => tracker.line(l)),
    ).toEqual(["(h)", "(h)(3)", "(h)(1)"]);
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
    // A copy read with OCR is its own document beside the text one; one scanned page does not make a scan.
    const ocr = { pages: [1, 2, 3], lowConfidencePages: [], meanConfidence: 91, language: "eng" as const };
    expect(citationLabel({ document: { ...doc, ocr, pages: 3 }, sectionLabel: "§ 164.306", paragraphs: [], pinpoint: "(a)", pageStart: 1, pageEnd: 1 })).toBe(
      "HIPAA (scan) § 164.306(a), p. 1",
    );
    expect(
      citationLabel({
        document: { ...doc, ocr: { ...ocr, pages: [115] }, pages: 115 },
        sectionLabel: "§ 164.306",
        paragraphs: [],
        pinpoint: "(a)",
        pageStart: 1,
        pageEnd: 1,
      }),
    ).toBe("HIPAA § 164.306(a), p. 1");
    // A provision stored in parts is cited as the provision.
    const hipaa = { title: "HIPAA Administrative Simplification", fileName: "hipaa.pdf" };
    expect(citationLabel({ document: hipaa, sectionLabel: "§ 164.512 (part 2)", paragraphs: [], pinpoint: "(c)(1)(iii)", pageStart: 90, pageEnd: 90 })).toBe(
      "HIPAA § 164.512(c)(1)(iii), p. 90",
    );
    expect(citationLabel({ document: hipaa, sectionLabel: "§ 164.520 (part 2)", paragraphs: [], pinpoint: null, pageStart: 97, pageEnd: 97 })).toBe(
      "HIPAA § 164.520, p. 97",
    );
  });
});

describe("the earlier parts of a provision", () => {
  const section = (documentId: string, label: string, text: string, parent: string[]): Section => ({
    id: `${documentId}:${pathSlug([...parent, label])}`,
    documentId,
    ordinal: 0,
    kind: "section",
    label,
    heading: "",
    path: [...parent, label],
    parentId: null,
    level: parent.length,
    text,
    pageStart: 1,
    pageEnd: 1,
    spans: [],
  });

  it("are found by the provision's label among its siblings, in order, for an EU article and a CFR section", async () => {
    const parts = [
      section("gdpr", "Article 4", "(1) 'personal data' means …", ["Chapter I"]),
      section("gdpr", "Article 4 (part 2)", "(19) 'group of undertakings' means …", ["Chapter I"]),
      section("gdpr", "Article 4 (part 3)", "(26) 'international organisation' means …", ["Chapter I"]),
      section("hipaa", "§ 164.504", "(e)(1) Standard.", ["Part 164", "Subpart E"]),
      section("hipaa", "§ 164.504 (part 2)", "(ii) If a business associate …", ["Part 164", "Subpart E"]),
    ];
    const byId = new Map(parts.map((p) => [p.id, p]));
    const document = { id: "d" } as DocumentRecord;
    const store = { getSectionsByIds: async (ids: string[]) => ids.flatMap((id) => (byId.has(id) ? [{ section: byId.get(id) as Section, document }] : [])) };
    const before = await earlierPartsText(store, parts);
    expect(before.get(parts[2]?.id ?? "")).toBe("(1) 'personal data' means …\n(19) 'group of undertakings' means …");
    expect(before.get(parts[4]?.id ?? "")).toBe("(e)(1) Standard.");
    expect(before.has(parts[0]?.id ?? "")).toBe(false);
    // A missing first part leaves the later ones without: nothing is guessed.
    const gap = await earlierPartsText({ getSectionsByIds: async () => [] }, [parts[4] as Section]);
    expect(gap.size).toBe(0);
  });
});
