import { describe, expect, it } from "vitest";
import { cueStrength } from "../../core/answer/compose/answer-cues.ts";
import { isFailureCase } from "../../core/answer/compose/answer-lead.ts";
import { answerQuestion } from "../../core/answer/compose/answer-question.ts";
import { noticeRecipient, sameRecipient } from "../../core/answer/compose/notice-recipient.ts";
import { doc, hint, input, ranked, scored, section } from "../helpers/answer-fixtures.ts";

// Rules of the extractive answer for questions in an auditor's words, each a property any
// regulation can have, each held on two documents.

const DORA = doc("dora0000", "REGULATION (EU) 2022/2554 on digital operational resilience for the financial sector", "dora.pdf");
const HIPAA = doc("hipaa000", "HIPAA Administrative Simplification 45 CFR Parts 160, 162 and 164", "hipaa.pdf");
const NIST_66 = doc("nist0066", "NIST SP 800-66r1 An Introductory Resource Guide for Implementing the HIPAA Security Rule", "nist-800-66.pdf");
const GDPR = doc("gdpr0000", "REGULATION (EU) 2016/679 on the protection of natural persons", "gdpr.pdf");
const CAPITOLATO = doc("capit000", "Capitolato tecnico fornitura in conto deposito di protesi", "capitolato.pdf");

describe('rule "a frequency is a period"', () => {
  it("cues a stated period above a rhythm without one, in English and Italian", () => {
    expect(cueStrength("frequency", "(a) test the ICT business continuity plans in relation to ICT systems supporting all functions at least yearly;")).toBe(2);
    expect(cueStrength("frequency", "The framework shall be reviewed every three years.")).toBe(2);
    expect(cueStrength("frequency", "La verifica è effettuata con cadenza semestrale dal fornitore.")).toBe(2);
    expect(cueStrength("frequency", "Financial entities shall periodically test their ICT business continuity plans.")).toBe(1);
    expect(cueStrength("frequency", "Il fornitore verifica periodicamente lo stato delle protesi in deposito.")).toBe(1);
    expect(cueStrength("frequency", "Financial entities shall maintain ICT business continuity plans.")).toBe(0);
  });

  it("answers 'how often' with the point stating the period, not the sentence saying 'periodically' (DORA, Italian tender)", async () => {
    const article11 = section(DORA, "Article 11", "article", "Response and recovery", [
      [
        34,
        "L 333/34",
        "4. Financial entities shall put in place, maintain and periodically test appropriate ICT business continuity plans, notably with regard to critical or important functions.",
      ],
      [34, "L 333/34", "6. As part of their comprehensive ICT risk management, financial entities shall:"],
      [34, "L 333/34", "(a) test the ICT business continuity plans at least yearly;"],
    ]);
    const dora = await answerQuestion(input("How often do we have to rehearse our IT continuity plans?", ranked([[article11, DORA]]), hint("frequency")));
    const shown = dora.sentences.filter((s) => s.more === false).map((s) => s.text);
    expect(shown.join(" ")).toMatch(/at least yearly/);
    // The period leads (under its lead-in), not paragraph 4's "periodically test".
    expect(dora.sentences[0]?.text).not.toMatch(/periodically/);

    const article9 = section(CAPITOLATO, "Art. 9", "article", "Controllo delle scadenze", [
      [14, null, "Il fornitore aggiorna periodicamente l'inventario dei dispositivi in conto deposito."],
      [14, null, "L'inventario dei dispositivi in conto deposito è trasmesso alla farmacia con cadenza trimestrale."],
    ]);
    const tender = await answerQuestion(
      input("Ogni quanto il fornitore deve fare l'inventario dei dispositivi in deposito?", ranked([[article9, CAPITOLATO]]), hint("frequency")),
    );
    expect(tender.sentences[0]?.text).toMatch(/cadenza trimestrale/);
  });
});

describe('rule "a question is not an answer"', () => {
  it("gives no cue to a sentence that asks, whatever period or limit it names as an example (NIST SP 800-66, GDPR)", () => {
    expect(cueStrength("frequency", "• How frequently is the plan to be tested (e.g., annually)?")).toBe(0);
    expect(cueStrength("deadline", "Has the breach been notified within 72 hours?")).toBe(0);
    expect(cueStrength("deadline", "The controller shall notify it within 72 hours.")).toBe(2);
  });

  it("a guide's checklist question does not lead over the rule stating the period (NIST SP 800-66, DORA)", async () => {
    const guide = section(NIST_66, "Section 4.7", "section", "Contingency Plan", [
      [38, null, "• Make key decisions regarding how the testing is to occur • How frequently is the plan to be tested (e.g., annually)?"],
    ]);
    const article11 = section(DORA, "Article 11", "article", "Response and recovery", [
      [34, "L 333/34", "6. As part of their comprehensive ICT risk management, financial entities shall:"],
      [
        34,
        "L 333/34",
        "(a) test the ICT business continuity plans and the ICT response and recovery plans at least yearly, as well as in the event of substantive changes;",
      ],
    ]);
    const answer = await answerQuestion(
      input(
        "How often must the contingency plans be tested?",
        scored([
          [guide, NIST_66, 1],
          [article11, DORA, 1],
        ]),
        hint("frequency"),
      ),
    );
    expect(answer.sentences[0]?.text).not.toMatch(/\?$/);
    expect(
      answer.sentences
        .filter((s) => s.more === false)
        .map((s) => s.text)
        .join(" "),
    ).toMatch(/at least yearly/);
  });
});

describe('rule "a notice goes to whom the question asks"', () => {
  it("reads the recipient an auditor names and the one a rule names, behind possessives and adjectives", () => {
    expect(noticeRecipient("When do we have to tell the affected customers, and what do we tell them?")).toBe("customer");
    expect(noticeRecipient("Do we need to warn individuals whose records leaked?")).toBe("individual");
    expect(noticeRecipient("Financial entities shall, within the time limits laid down, submit the following to the relevant competent authority:")).toBe(
      "competent authority",
    );
    expect(sameRecipient("customer", "client")).toBe(true);
    expect(sameRecipient("individual", "data subject")).toBe(true);
    expect(sameRecipient("customer", "competent authority")).toBe(false);
  });

  it("leads with the notice to clients, not the report to the authority printed beside it (DORA, GDPR)", async () => {
    const article19 = section(DORA, "Article 19", "article", "Reporting of major ICT-related incidents", [
      [
        42,
        "L 333/42",
        "3. Where a major ICT-related incident occurs and has an impact on the financial interests of clients, financial entities shall, without undue delay as soon as they become aware of it, inform their clients about the major ICT-related incident and about the measures that have been taken to mitigate its adverse effects.",
      ],
      [
        42,
        "L 333/42",
        "4. Financial entities shall, without undue delay and within the time limits laid down in accordance with Article 20, submit an initial notification of the major ICT-related incident to the relevant competent authority.",
      ],
    ]);
    const dora = await answerQuestion(
      input(
        "A major incident at our bank hit customers' money. When do we have to tell the affected customers?",
        ranked([[article19, DORA]]),
        hint("deadline"),
      ),
    );
    expect(dora.sentences[0]?.text).toMatch(/inform their clients/);

    const breaches = section(GDPR, "Article 33a", "article", "Personal data breaches", [
      [
        163,
        "163",
        "1. The controller shall notify the personal data breach to the supervisory authority without undue delay and, where feasible, not later than 72 hours after having become aware of it.",
      ],
      [
        163,
        "163",
        "2. When the personal data breach is likely to result in a high risk to the rights and freedoms of natural persons, the controller shall communicate the personal data breach to the data subject without undue delay.",
      ],
    ]);
    const gdpr = await answerQuestion(input("How quickly do we have to tell the individuals whose data leaked?", ranked([[breaches, GDPR]]), hint("deadline")));
    expect(gdpr.sentences[0]?.text).toMatch(/to the data subject/);
  });
});

describe('rule "a list answers a question not asking for it through one point"', () => {
  it("a sentence saying what was asked leads over a lead-in whose points each share a word (HIPAA, DORA)", async () => {
    const s164_528b = section(HIPAA, "§ 164.528(b)", "section", "Content of the accounting", [
      [110, null, "(2) The accounting must include for each disclosure:"],
      [110, null, "(i) The date of the disclosure;"],
      [110, null, "(ii) The name of the entity or person who received the protected health information and, if known, the address of such entity or person;"],
      [110, null, "(iii) A brief description of the protected health information that was first disclosed in the period;"],
      [110, null, "(iv) A brief statement of the purpose of the disclosure that reasonably informs the individual of the basis for the disclosure;"],
      [110, null, "(v) Whether a fee was charged for the copy provided."],
    ]);
    const s164_528c = section(HIPAA, "§ 164.528(c)", "section", "Provision of the accounting", [
      [111, null, "(2) The covered entity must provide the first accounting to an individual in any 12 month period without charge."],
    ]);
    const hipaa = await answerQuestion(
      input(
        "Is there a charge for the first accounting of disclosures an individual receives in a 12 month period?",
        scored([
          [s164_528b, HIPAA, 1],
          [s164_528c, HIPAA, 1],
        ]),
        hint("yes-no"),
      ),
    );
    expect(hipaa.sentences[0]?.text).toMatch(/without charge/);

    const register = section(DORA, "Article 28(3)", "article", "Register of information", [
      [
        49,
        "L 333/49",
        "As part of their ICT risk management framework, financial entities shall maintain and update at entity level a register of information:",
      ],
      [49, "L 333/49", "(a) in relation to all contractual arrangements on the use of ICT services provided by ICT third-party service providers;"],
      [49, "L 333/49", "(b) distinguishing the new arrangements from those that cover ICT services supporting critical or important functions;"],
      [49, "L 333/49", "(c) made available on request to the competent authorities."],
    ]);
    const reporting = section(DORA, "Article 28(3), third subparagraph", "article", "Reporting on arrangements", [
      [
        49,
        "L 333/49",
        "Financial entities shall report at least yearly to the competent authorities on the number of new arrangements on the use of ICT services.",
      ],
    ]);
    const dora = await answerQuestion(
      input(
        "Must we report the number of new ICT service arrangements to the competent authorities?",
        scored([
          [register, DORA, 1],
          [reporting, DORA, 1],
        ]),
        hint("yes-no"),
      ),
    );
    expect(dora.sentences[0]?.text).toMatch(/shall report at least yearly/);
  });
});

describe("rule \"a list's lead-in is its points' parent\"", () => {
  const shownText = (a: { sentences: Array<{ text: string; more?: boolean }> }): string =>
    a.sentences
      .filter((s) => s.more === false)
      .map((s) => s.text)
      .join(" ");

  it("quotes a CFR paragraph under its own lead-in, not under an earlier paragraph's (HIPAA § 164.504)", async () => {
    const s164_504 = section(HIPAA, "§ 164.504", "section", "Uses and disclosures: Organizational requirements", [
      [81, null, "(a) Definitions. As used in this section:"],
      [81, null, "Summary health information means information, that may be individually identifiable health information, and:"],
      [81, null, "(1) That summarizes the claims history, claims expenses, or type of claims experienced by individuals; and"],
      [81, null, "(2) From which the information described at § 164.514(b)(2)(i) has been deleted."],
      [81, null, "(b)-(d) [Reserved]"],
      [
        81,
        null,
        "(e)(1) Standard: Business associate contracts. (i) The contract or other arrangement must meet the requirements of paragraph (e)(2) of this section.",
      ],
      [81, null, "(2) Implementation specifications: Business associate contracts. A contract between the covered entity and a business associate must:"],
      [81, null, "(i) Establish the permitted and required uses and disclosures of protected health information by the business associate;"],
      [82, null, "(ii) Provide that the business associate will report to the covered entity any use or disclosure not provided for by its contract;"],
      [82, null, "(iii) Authorize termination of the contract by the covered entity if the business associate has violated a material term of the contract."],
    ]);
    const answer = await answerQuestion(
      input("What must a business associate contract contain under HIPAA?", ranked([[s164_504, HIPAA]]), hint("requirements")),
    );
    expect(answer.sentences[0]?.text).toMatch(/business associate contracts|contract between the covered entity/i);
    const shown = shownText(answer);
    expect(shown).toMatch(/Establish the permitted and required uses/);
    // The definition is not read as the contract's lead-in: nothing of it comes before the list.
    const before = shown.slice(0, shown.indexOf("Establish the permitted"));
    expect(before).not.toMatch(/Summary health information/);
    // Rule "a reserved paragraph says nothing": the placeholder is never quoted.
    expect(answer.sentences.map((s) => s.text).join(" ")).not.toMatch(/\[Reserved\]/);
  });

  it("holds in another CFR rule (FTC Safeguards Rule, 16 CFR § 314.4)", async () => {
    const FTC = doc("ftc00314", "16 CFR Part 314 Standards for Safeguarding Customer Information", "ftc-safeguards.pdf");
    const s314_4 = section(FTC, "§ 314.4", "section", "Elements", [
      [3, null, "(c) Design and implement safeguards to control the risks you identify through risk assessment, including:"],
      [3, null, "(1) Implementing and periodically reviewing access controls, including technical and, as appropriate, physical controls;"],
      [3, null, "(2) Encrypting all customer information held or transmitted by you both in transit over external networks and at rest;"],
      [3, null, "(d)(1) Regularly test or otherwise monitor the effectiveness of the safeguards' key controls, systems, and procedures."],
      [
        3,
        null,
        "(2) For information systems, the monitoring and testing shall include continuous monitoring or periodic penetration testing and vulnerability assessments.",
      ],
    ]);
    const answer = await answerQuestion(
      input("Must the monitoring of our information systems include penetration testing?", ranked([[s314_4, FTC]]), hint("yes-no")),
    );
    const lead = answer.sentences.findIndex((s) => /continuous monitoring or periodic penetration testing/.test(s.text));
    expect(lead).toBeGreaterThanOrEqual(0);
    // Not read as a third safeguard of (c): (c)'s lead-in is not quoted before it.
    expect(
      answer.sentences
        .slice(0, lead)
        .map((s) => s.text)
        .join(" "),
    ).not.toMatch(/Design and implement safeguards/);
  });
});

describe('rule "a reserved paragraph says nothing"', () => {
  it("treats reserved and deleted placeholders of the CFR and EU texts as furniture", async () => {
    const { isFurniture } = await import("../../core/answer/compose/answer-cues.ts");
    expect(isFurniture("(b)-(d) [Reserved]")).toBe(true);
    expect(isFurniture("§ 164.105 [Reserved]")).toBe(true);
    expect(isFurniture("Article 7 (deleted)")).toBe(true);
    expect(isFurniture("(b) The covered entity must keep the reserved funds separate.")).toBe(false);
  });
});

describe('rule "the people a rule protects go by several names"', () => {
  it("answers a question about individuals with the GDPR's data subject and HIPAA's individuals alike", async () => {
    const article34 = section(GDPR, "Article 34", "article", "Communication of a personal data breach to the data subject", [
      [
        163,
        null,
        "1. When the personal data breach is likely to result in a high risk to the rights and freedoms of natural persons, the controller shall communicate the personal data breach to the data subject without undue delay.",
      ],
    ]);
    const article33 = section(GDPR, "Article 33", "article", "Notification of a personal data breach to the supervisory authority", [
      [
        162,
        null,
        "1. In the case of a personal data breach, the controller shall without undue delay and, where feasible, not later than 72 hours after having become aware of it, notify the personal data breach to the supervisory authority.",
      ],
    ]);
    const gdpr = await answerQuestion(
      input(
        "How quickly must affected individuals be notified of a breach?",
        scored([
          [article33, GDPR, 1],
          [article34, GDPR, 0.95],
        ]),
        hint("deadline"),
      ),
    );
    expect(gdpr.sentences[0]?.text).toMatch(/to the data subject/);

    const s164_404 = section(HIPAA, "§ 164.404", "section", "Notification to individuals", [
      [
        71,
        null,
        "(a) Standard —(1) General rule. A covered entity shall, following the discovery of a breach of unsecured protected health information, notify each individual whose unsecured protected health information has been accessed.",
      ],
      [
        72,
        null,
        "(b) Implementation specification: Timeliness of notification. A covered entity shall provide the notification required by paragraph (a) of this section without unreasonable delay and in no case later than 60 calendar days after discovery of a breach.",
      ],
    ]);
    const s164_408 = section(HIPAA, "§ 164.408", "section", "Notification to the Secretary", [
      [
        73,
        null,
        "(b) Implementation specifications: Breaches involving 500 or more individuals. For breaches involving 500 or more individuals, a covered entity shall provide the notification to the Secretary contemporaneously with the notice to individuals and in the manner specified on the HHS Web site.",
      ],
    ]);
    const hipaa = await answerQuestion(
      input(
        "How quickly must affected individuals be notified of a breach?",
        scored([
          [s164_408, HIPAA, 1],
          [s164_404, HIPAA, 0.95],
        ]),
        hint("deadline"),
      ),
    );
    expect(hipaa.sentences[0]?.text).toMatch(/paragraph \(a\) of this section/);
  });

  it("reads the recipient of a notice in the passive (rule: a notice goes to whom the question asks)", () => {
    expect(noticeRecipient("How quickly must affected individuals be notified of a breach?")).toBe("individual");
    expect(noticeRecipient("When must the supervisory authority be informed of a breach?")).toBe("supervisory authority");
    expect(sameRecipient("individual", "data subject")).toBe(true);
  });
});

describe("lists and paragraphs of the CFR family", () => {
  it("quotes every item of a long list whose items have points of their own (HIPAA § 164.308(a), FTC § 314.4)", async () => {
    const standards = [
      "Security management process",
      "Assigned security responsibility",
      "Workforce security",
      "Information access management",
      "Security awareness and training",
      "Security incident procedures",
    ];
    const lines: Array<[number, string | null, string]> = [[64, null, "(a) A covered entity or business associate must, in accordance with § 164.306:"]];
    standards.forEach((name, i) => {
      lines.push([64, null, `(${i + 1})(i) Standard: ${name}. Implement policies and procedures for ${name.toLowerCase()}.`]);
      lines.push([64, null, "(ii) Implementation specifications:"]);
      for (const letter of ["A", "B", "C"])
        lines.push([64, null, `(${letter}) Specification ${letter} of ${name.toLowerCase()} (Addressable). Implement procedures as needed.`]);
    });
    const s164_308 = section(HIPAA, "§ 164.308", "section", "Administrative safeguards", lines);
    const hipaa = await answerQuestion(
      input("What are the administrative safeguards under the HIPAA Security Rule?", ranked([[s164_308, HIPAA]]), hint("requirements")),
    );
    const all = hipaa.sentences.map((s) => s.text).join(" ");
    for (const name of standards) expect(all).toContain(`Standard: ${name}`);

    const FTC = doc("ftc00314", "16 CFR Part 314 Standards for Safeguarding Customer Information", "ftc-safeguards.pdf");
    const elements = [
      "Designate a qualified individual",
      "Base your information security program on a risk assessment",
      "Design and implement safeguards",
      "Regularly test or otherwise monitor",
      "Implement policies and procedures to ensure that personnel",
      "Oversee service providers",
    ];
    const ftcLines: Array<[number, string | null, string]> = [
      [3, null, "In order to develop, implement, and maintain your information security program, you shall:"],
    ];
    elements.forEach((text, i) => {
      const letter = "abcdef"[i] ?? "a";
      ftcLines.push([3, null, `(${letter}) ${text} to carry out the program, including:`]);
      for (const n of [1, 2, 3]) ftcLines.push([3, null, `(${n}) Step ${n} of element ${letter};`]);
    });
    const s314_4 = section(FTC, "§ 314.4", "section", "Elements", ftcLines);
    const ftc = await answerQuestion(input("What elements must our information security program include?", ranked([[s314_4, FTC]]), hint("requirements")));
    const ftcAll = ftc.sentences.map((s) => s.text).join(" ");
    for (const text of elements) expect(ftcAll).toContain(text);
  });

  it("reads a rule that cannot be met as its failure case, as one not followed (HIPAA, GDPR, Italian tender)", () => {
    expect(
      isFailureCase(
        "(ii) If the covered entity is unable to take an action required by paragraph (b)(2)(i)(A) within the time required, the covered entity may extend the time by no more than 30 days, provided that:",
      ),
    ).toBe(true);
    expect(
      isFailureCase(
        "4. If the controller does not take action on the request of the data subject, the controller shall inform the data subject without delay.",
      ),
    ).toBe(true);
    expect(isFailureCase("Where the processor cannot ensure the erasure, it shall inform the controller.")).toBe(true);
    expect(isFailureCase("Qualora il fornitore non consegni entro 5 giorni, si applica la penale.")).toBe(true);
    expect(isFailureCase("(i) The covered entity must act on a request for access no later than 30 days after receipt of the request.")).toBe(false);
  });

  it("leads with the time limit, not with what happens when it cannot be met (HIPAA §§ 164.524, 164.528)", async () => {
    const s164_524 = section(HIPAA, "§ 164.524", "section", "Access of individuals to protected health information", [
      [106, null, "(2) Implementation specifications: Timely action by the covered entity."],
      [
        106,
        null,
        "(i) Except as provided in paragraph (b)(2)(ii) of this section, the covered entity must act on a request for access no later than 30 days after receipt of the request as follows:",
      ],
      [
        106,
        null,
        "(A) If the covered entity grants the request, in whole or in part, it must inform the individual of the acceptance of the request and provide the access requested.",
      ],
      [
        106,
        null,
        "(ii) If the covered entity is unable to take an action required by paragraph (b)(2)(i)(A) of this section within the time required by paragraph (b)(2)(i) of this section, the covered entity may extend the time for such actions by no more than 30 days, provided that:",
      ],
      [
        106,
        null,
        "(A) The covered entity, within the time limit set by paragraph (b)(2)(i) of this section, provides the individual with a written statement of the reasons for the delay and the date by which the covered entity will complete its action on the request; and",
      ],
    ]);
    const access = await answerQuestion(
      input("How many days do we have to act on a patient's request for access to their records?", ranked([[s164_524, HIPAA]]), hint("deadline")),
    );
    expect(access.sentences[0]?.text).toMatch(/no later than 30 days after receipt/);

    const s164_528 = section(HIPAA, "§ 164.528", "section", "Accounting of disclosures of protected health information", [
      [111, null, "(c) Implementation specifications: Provision of the accounting."],
      [
        111,
        null,
        "(1) The covered entity must act on the individual's request for an accounting, no later than 60 days after receipt of such a request, as follows:",
      ],
      [111, null, "(i) The covered entity must provide the individual with the accounting requested; or"],
      [
        111,
        null,
        "(ii) If the covered entity is unable to provide the accounting within the time required by paragraph (c)(1) of this section, the covered entity may extend the time to provide the accounting by no more than 30 days, provided that:",
      ],
      [111, null, "(2) The covered entity must provide the first accounting to an individual in any 12 month period without charge."],
      [
        111,
        null,
        "The covered entity may impose a reasonable, cost-based fee for each subsequent request for an accounting by the same individual within the 12 month period.",
      ],
    ]);
    const accounting = await answerQuestion(
      input("How many days do we have to act on a request for an accounting?", ranked([[s164_528, HIPAA]]), hint("deadline")),
    );
    expect(accounting.sentences[0]?.text).toMatch(/no later than 60 days after receipt/);
  });

  it("leads with the rule a failure case names, unless the question asks about the failure case (HIPAA § 164.526)", async () => {
    const s164_526 = section(HIPAA, "§ 164.526", "section", "Amendment of protected health information", [
      [108, null, "(2) Timely action by the covered entity."],
      [
        108,
        null,
        "(i) The covered entity must act on the individual's request for an amendment no later than 60 days after receipt of such a request, as follows:",
      ],
      [
        108,
        null,
        "(A) If the covered entity grants the requested amendment, in whole or in part, it must take the actions required by paragraphs (c)(1) and (2) of this section.",
      ],
      [
        108,
        null,
        "(ii) If the covered entity is unable to act on the amendment within the time required by paragraph (b)(2)(i) of this section, the covered entity may extend the time for such action by no more than 30 days, provided that:",
      ],
      [
        108,
        null,
        "(A) The covered entity, within the time limit set by paragraph (b)(2)(i) of this section, provides the individual with a written statement of the reasons for the delay and the date by which the covered entity will complete its action on the request; and",
      ],
      [108, null, "(B) The covered entity may have only one such extension of time for action on a request for an amendment."],
    ]);
    const howLong = await answerQuestion(
      input("How long does a covered entity have to act on a request to amend protected health information?", ranked([[s164_526, HIPAA]]), hint("deadline")),
    );
    expect(howLong.sentences[0]?.text).toMatch(/no later than 60 days after receipt/);
    const extend = await answerQuestion(
      input("Can the covered entity extend the time to act on an amendment, and by how many days?", ranked([[s164_526, HIPAA]]), hint("deadline")),
    );
    expect(extend.sentences.find((s) => s.more === false && /extend the time/.test(s.text))).toBeDefined();
  });

  it("quotes a paragraph opening a sentence with no lead-in above it, from its opening (rule: a CFR paragraph stands alone)", async () => {
    const s164_524 = section(HIPAA, "§ 164.524", "section", "Access of individuals to protected health information", [
      [
        107,
        null,
        "(4) Fees. If the individual requests a copy of the protected health information, the covered entity may impose a reasonable, cost-based fee for the copy.",
      ],
    ]);
    const s164_530 = section(HIPAA, "§ 164.530", "section", "Administrative requirements", [
      [112, null, "(a) A covered entity must designate a privacy official who is responsible for the policies and procedures of the entity."],
    ]);
    const s164_520 = section(HIPAA, "§ 164.520", "section", "Notice of privacy practices", [
      [101, null, "(a) An individual has a right to adequate notice of the uses and disclosures of protected health information."],
    ]);
    const s164_528 = section(HIPAA, "§ 164.528", "section", "Accounting of disclosures of protected health information", [
      [
        111,
        null,
        "(1) The covered entity must act on the individual's request for an accounting, no later than 60 days after receipt of such a request, as follows:",
      ],
      [111, null, "(i) The covered entity must provide the individual with the accounting requested; or"],
      [111, null, "(2) The covered entity must provide the first accounting to an individual in any 12 month period without charge."],
      [
        111,
        null,
        "The covered entity may impose a reasonable, cost-based fee for each subsequent request for an accounting by the same individual within the 12 month period.",
      ],
    ]);
    const fee = await answerQuestion(
      input(
        "May the covered entity impose a fee for a copy or an accounting?",
        ranked([
          [s164_524, HIPAA],
          [s164_530, HIPAA],
          [s164_520, HIPAA],
          [s164_528, HIPAA],
        ]),
        hint("yes-no"),
      ),
    );
    const texts = fee.sentences.map((s) => s.text);
    const opening = texts.findIndex((t) => /first accounting to an individual in any 12 month period without charge/.test(t));
    expect(opening).toBeGreaterThan(0);
    expect(texts.findIndex((t) => /each subsequent request/.test(t))).toBeGreaterThan(opening);
  });
});

describe('rule "whether one must is answered by what one shall"', () => {
  it("cues the duty for a question asking whether one must, and a permission or exception only weakly", () => {
    const duty = "5. The controller shall document any personal data breaches, comprising the facts relating to the personal data breach.";
    const permission = "4. Where it is not possible to provide the information at the same time, the information may be provided in phases.";
    expect(cueStrength("yes-no", duty, false, "obligation")).toBe(2);
    expect(cueStrength("yes-no", permission, false, "obligation")).toBe(1);
    expect(cueStrength("yes-no", "Il fornitore è tenuto a comunicare ogni variazione della sede di conservazione dei dati.", false, "obligation")).toBe(2);
    // Asked whether one may, the permission is what answers.
    expect(cueStrength("yes-no", permission, false, "permission")).toBe(2);
    expect(cueStrength("yes-no", duty)).toBe(0);
  });

  it("a duty denied answers whether one must (FAA directive, HIPAA, Italian tender)", () => {
    // Rule "a duty denied answers whether one must": "is not required", "need not" say no to "do we need …?".
    const permit = "A special flight permit is not required to accomplish the operational readiness flight required by this paragraph.";
    expect(cueStrength("yes-no", permit, false, "obligation")).toBe(2);
    expect(cueStrength("yes-no", "A covered entity need not provide an accounting for disclosures made to the individual.", false, "obligation")).toBe(2);
    expect(cueStrength("yes-no", "Per le forniture in conto deposito non è richiesta la garanzia definitiva.", false, "obligation")).toBe(2);
    // Asked whether one may, a denied duty is not a permission.
    expect(cueStrength("yes-no", permit, false, "permission")).toBe(0);
  });

  it("leads with the duty, not with a permission beside it (GDPR Art. 33, DORA Art. 30)", async () => {
    const article33 = section(GDPR, "Article 33", "article", "Notification of a personal data breach to the supervisory authority", [
      [164, null, "4. Where, and in so far as, it is not possible to provide the breach information at the same time, it may be provided in phases."],
      [164, null, "5. The controller shall document any personal data breaches, comprising the facts relating to the breach and its effects."],
    ]);
    const gdpr = await answerQuestion(
      input("Do we have to document the personal data breaches we decide not to report?", ranked([[article33, GDPR]]), {
        ...hint("yes-no"),
        modality: "obligation",
      }),
    );
    expect(gdpr.sentences[0]?.text).toMatch(/shall document/);

    const article30 = section(DORA, "Article 30", "article", "Key contractual provisions", [
      [52, "L 333/52", "2. The contractual arrangements on the use of ICT services shall include at least the following elements:"],
      [52, "L 333/52", "(a) a clear and complete description of all functions and ICT services to be provided;"],
      [
        52,
        "L 333/52",
        "(b) the locations where the data is to be processed, and the requirement for the provider to notify the financial entity in advance if it envisages changing such locations;",
      ],
      [53, "L 333/53", "3. The provider and a financial entity that is a microenterprise may agree that the locations are notified by other means."],
    ]);
    const dora = await answerQuestion(
      input(
        "Must our contract with the provider say where the data is processed, and must the provider notify us before changing the locations?",
        ranked([[article30, DORA]]),
        { ...hint("yes-no"), modality: "obligation" },
      ),
    );
    const shown = dora.sentences.filter((s) => s.more === false).map((s) => s.text);
    expect(shown.join(" ")).toMatch(/notify the financial entity in advance/);
    expect(dora.sentences[0]?.text).not.toMatch(/may agree/);
  });
});

describe('rule "a question in a language no document is written in"', () => {
  const gara = doc("gara0000", "Disciplinare di gara per la fornitura di protesi", "disciplinare.pdf");

  it("refuses an Italian question over English rulebooks and says why, and answers it where the library has Italian (DORA, tender)", async () => {
    const article19 = section(DORA, "Article 19", "article", "Reporting of major ICT-related incidents", [
      [41, "L 333/41", "1. Financial entities shall report major ICT-related incidents to the relevant competent authority within 4 hours."],
    ]);
    const italian = "Entro quante ore deve essere segnalato un incidente grave all'autorità competente?";
    const english = await answerQuestion(
      input(italian, ranked([[article19, DORA]]), { ...hint("deadline"), language: "it" }, { libraryLanguages: new Set(["en"]) }),
    );
    expect(english.inLibrary?.rule).toBe("not-in-its-language");
    expect(english.refusalReason).toMatch(/No document in the library is written in Italian/);

    const garanzia = section(gara, "10. GARANZIA PROVVISORIA", "section", "Garanzia provvisoria", [
      [19, null, "L'offerta è corredata da una garanzia provvisoria pari al 2% del valore complessivo dell'appalto."],
    ]);
    const mixed = await answerQuestion(
      input(
        "A quanto ammonta la garanzia provvisoria dell'offerta?",
        ranked([[garanzia, gara]]),
        { ...hint("amount"), language: "it" },
        {
          libraryLanguages: new Set(["en", "it"]),
        },
      ),
    );
    expect(mixed.inLibrary?.rule).not.toBe("not-in-its-language");
    expect(mixed.sentences[0]?.text).toMatch(/2%/);
  });

  it("does not hold a document whose language could not be told against any question (HIPAA)", async () => {
    const s164_404 = section(HIPAA, "§ 164.404", "section", "Notification to individuals", [
      [71, null, "(b) A covered entity shall provide the notification without unreasonable delay and in no case later than 60 calendar days after discovery."],
    ]);
    const answer = await answerQuestion(
      input(
        "Entro quanti giorni bisogna avvisare i pazienti di una violazione?",
        ranked([[s164_404, HIPAA]]),
        { ...hint("deadline"), language: "it" },
        {
          libraryLanguages: new Set(["en", "und"]),
        },
      ),
    );
    expect(answer.inLibrary?.rule).not.toBe("not-in-its-language");
  });
});
