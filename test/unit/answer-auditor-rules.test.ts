import { describe, expect, it } from "vitest";
import { cueStrength } from "../../core/answer/compose/answer-cues.ts";
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
