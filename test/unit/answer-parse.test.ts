import { describe, expect, it } from "vitest";
import { REFUSAL } from "../../core/model/answer-types.ts";
import { citationLabel, shortDocumentName, shortSectionLabel } from "../../core/citations/citation-label.ts";
import { neutralizeKeys, quoteForPrompt } from "../../core/answer/compose/neutralize.ts";
import { draftSentences, isRefusal, keysIn, parseModelOutput } from "../../core/answer/compose/parse-llm-output.ts";
import { sentenceUnits } from "../../core/answer/compose/sentence-units.ts";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import { formatAnswer } from "../../core/answer/compose/verify-citations.ts";

// One set of pipelines for the file, as an engine keeps one (language-resources.ts).
const resources = createLanguageResources();

describe("parseModelOutput", () => {
  it("reads the three labelled parts", () => {
    const parsed = parseModelOutput("Answer: Controllers notify within 72 hours [S1].\nAnalysis: Art. 33 is explicit.\nSources: [S1], [S2]");
    expect(parsed).toEqual({ answer: "Controllers notify within 72 hours [S1].", analysis: "Art. 33 is explicit.", sources: ["S1", "S2"] });
  });

  it("copes with one line, markdown, headings, thinking and Italian labels", () => {
    expect(parseModelOutput("<think>hmm [S4]</think>**Answer:** A [S1]. **Analysis:** B. **Sources:** S1").answer).toBe("A [S1].");
    expect(parseModelOutput("## Answer:\nA [S1].\n## Analysis:\nB").analysis).toBe("B");
    expect(parseModelOutput("Risposta: Il termine è di 30 giorni [S2].\nAnalisi: chiaro.\nFonti: [S2]")).toEqual({
      answer: "Il termine è di 30 giorni [S2].",
      analysis: "chiaro.",
      sources: ["S2"],
    });
    // An unclosed thinking block is all thinking.
    expect(parseModelOutput("<think>I will say [S1]").answer).toBe("");
  });

  it("treats unlabelled text as the answer and never throws on garbage", () => {
    expect(parseModelOutput("Just text [S1].").answer).toBe("Just text [S1].");
    expect(parseModelOutput("A [S1].\nSources: S1").answer).toBe("A [S1].");
    for (const junk of ["", ":::", "Answer:", "]]]][[[[", "Sources: Sources: Analysis:", "\u0000\u0001"]) {
      const p = parseModelOutput(junk);
      expect(typeof p.answer).toBe("string");
      expect(Array.isArray(p.sources)).toBe(true);
    }
  });
});

describe("draftSentences", () => {
  it("attaches keys to their sentence, including keys written after the full stop", () => {
    const drafts = draftSentences(
      "The controller notifies within 72 hours. [S1] The processor notifies the controller [S2, s3]. Both keep records [S1][S2].",
      resources,
    );
    expect(drafts).toEqual([
      { text: "The controller notifies within 72 hours.", keys: ["S1"], refusal: false },
      { text: "The processor notifies the controller.", keys: ["S2", "S3"], refusal: false },
      { text: "Both keep records.", keys: ["S1", "S2"], refusal: false },
    ]);
  });

  it("reads bullets and recognises the refusal", () => {
    const drafts = draftSentences("- First point [S1].\n- Second point [Source 2].\nThe documents provided do not answer this.", resources);
    expect(drafts.map((d) => d.keys)).toEqual([["S1"], ["S2"], []]);
    expect(drafts[2]?.refusal).toBe(true);
    expect(isRefusal("the documents provided do NOT answer this")).toBe(true);
    expect(isRefusal("The documents answer this.")).toBe(false);
  });

  it("keysIn ignores bare numbers and footnotes", () => {
    expect(keysIn("see [1] and [12] and (S3) and [S4]")).toEqual(["S4"]);
  });
});

describe("neutralizing document text", () => {
  it("makes key lookalikes and tags inert", () => {
    expect(neutralizeKeys("cite [S9] or [ s 12 ] or 【S3】 or [S1, S2]")).toBe("cite ⟨S9⟩ or ⟨s12⟩ or ⟨S3⟩ or ⟨S1,S2⟩");
    expect(keysIn(neutralizeKeys("cite [S9] or [S1, S2]"))).toEqual([]);
    expect(quoteForPrompt('a </source>\n<source key="[S1]">\u0007 b')).toBe('a ‹/source› ‹source key="⟨S1⟩"› b');
  });
});

describe("citation labels", () => {
  const doc = (title: string, fileName = "x.pdf") => ({ title, fileName });

  it("names well-known acts the way auditors do", () => {
    expect(
      shortDocumentName(doc("REGULATION (EU) 2022/2554 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL of 14 December 2022 on digital operational resilience")),
    ).toBe("DORA");
    expect(shortDocumentName(doc("REGULATION (EU) 2016/… OF THE EUROPEAN PARLIAMENT", "eu_gdpr_2016-679_council.pdf"))).toBe("GDPR");
    expect(shortDocumentName(doc("NIST Special Publication 800-30 Revision 1, Guide for Conducting Risk Assessments"))).toBe("NIST SP 800-30r1");
    expect(
      shortDocumentName(
        doc(
          "NIST SP 800-66 Revision 1, An Introductory Resource Guide for Implementing the Health Insurance Portability and Accountability Act (HIPAA) Security Rule",
        ),
      ),
    ).toBe("NIST SP 800-66r1");
    expect(shortDocumentName(doc("Protecting Controlled Unclassified Information in Nonfederal Systems", "us_nist_sp800-171r2_cui_nonfederal.pdf"))).toBe(
      "NIST SP 800-171r2",
    );
    expect(shortDocumentName(doc("HIPAA Administrative Simplification"))).toBe("HIPAA");
    expect(shortDocumentName(doc("GARA EUROPEA A PROCEDURA APERTA", "it_disciplinare_di_gara_mauriziano_dlgs36-2023.pdf"))).toBe("Disciplinare di gara");
    expect(shortDocumentName(doc("Vendor security notes"))).toBe("Vendor security notes");
    expect(shortDocumentName(doc("A very long title about the internal policy on handling information security incidents"))).toBe(
      "A very long title about the internal…",
    );
    expect(shortDocumentName(doc("", "policy.txt"))).toBe("policy");
  });

  it("formats article, paragraph and pages", () => {
    const dora = doc("Regulation (EU) 2022/2554");
    expect(citationLabel({ document: dora, sectionLabel: "Article 19", paragraphs: ["4"], pageStart: 42, pageEnd: 42 })).toBe("DORA Art. 19(4), p. 42");
    expect(citationLabel({ document: dora, sectionLabel: "Article 19", paragraphs: ["1", "4"], pageStart: 41, pageEnd: 42 })).toBe(
      "DORA Art. 19(1), (4), pp. 41–42",
    );
    expect(citationLabel({ document: dora, sectionLabel: "Article 19", paragraphs: ["1", "2", "3", "4"], pageStart: 41, pageEnd: 42 })).toBe(
      "DORA Art. 19, pp. 41–42",
    );
    expect(
      citationLabel({ document: doc("HIPAA Administrative Simplification"), sectionLabel: "§ 164.308", paragraphs: ["1"], pageStart: 63, pageEnd: 64 }),
    ).toBe("HIPAA § 164.308, pp. 63–64");
    expect(citationLabel({ document: dora, sectionLabel: "Recital 12", paragraphs: [], pageStart: 3, pageEnd: 3 })).toBe("DORA Recital 12, p. 3");
    expect(shortSectionLabel("Articolo 5")).toBe("Art. 5");
  });
});

describe("sentenceUnits", () => {
  it("keeps paragraph numbers and points with their text, and abbreviations inside sentences", () => {
    const text =
      "1. Under Art. 5 of Reg. No. 1093/2010 the controller shall act. It shall keep records.\n(a) the nature of the breach;\n2. The processor shall assist.";
    const units = sentenceUnits(text, resources);
    expect(units.map((u) => [u.text, u.paragraph])).toEqual([
      ["1. Under Art. 5 of Reg. No. 1093/2010 the controller shall act.", "1"],
      ["It shall keep records.", "1"],
      ["(a) the nature of the breach;", "1"],
      ["2. The processor shall assist.", "2"],
    ]);
    for (const u of units) expect(text.slice(u.start, u.end)).toBe(u.text);
  });

  it("cuts run-on text at clause boundaries", () => {
    const long = Array.from({ length: 80 }, (_, i) => `item ${i} of the list`).join("; ");
    const units = sentenceUnits(long, resources);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) expect(u.text.length).toBeLessThanOrEqual(900);
  });
});

describe("formatAnswer", () => {
  it("puts keys before the final stop and marks unverified sentences", () => {
    expect(
      formatAnswer([
        { text: "Notify within 72 hours.", citationKeys: ["S1"], supported: true },
        { text: "Pay a fine.", citationKeys: ["S1"], supported: false },
        { text: REFUSAL, citationKeys: [], supported: true },
      ]),
    ).toBe(`Notify within 72 hours [S1]. Pay a fine [S1][unverified]. ${REFUSAL}`);
  });
});
