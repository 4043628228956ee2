import { describe, expect, it } from "vitest";
import { answerQuestion } from "../../core/answer/compose/answer-question.ts";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import { REFUSAL } from "../../core/model/answer-types.ts";
import { mentionsName, namesMissingFromLibrary, questionNames, spellsOut } from "../../core/answer/question/question-names.ts";

// A question naming an act, standard or acronym that no imported document mentions is about a
// document that was not imported: it gets the not-answered reply instead of the nearest sentences.

const names = (q: string): string[] => questionNames(q).map((n) => n.text);

describe("questionNames", () => {
  it("finds acronyms, compounds, numbered standards and titled instruments", () => {
    expect(names("Under HIPAA, within how many days must a covered entity notify individuals?")).toEqual(["HIPAA"]);
    expect(names("What does Section 404 of the Sarbanes-Oxley Act require?")).toEqual(["Sarbanes-Oxley", "Sarbanes Oxley Act"]);
    expect(names("Which ISO/IEC 27001 Annex A controls apply?")).toEqual(expect.arrayContaining(["ISO", "IEC", "ISO/IEC 27001"]));
    expect(names("Which AI systems are high-risk under the EU AI Act?")).toEqual(expect.arrayContaining(["AI", "EU", "AI Act"]));
    expect(names("What must be emphasised under EU Regulation 1169/2011 on food information?")).toContain("Regulation 1169/2011");
    expect(names("What rights does the California Consumer Privacy Act give consumers?")).toEqual(["California Consumer Privacy Act"]);
    expect(names("What are the lawful bases under GDPR Article 6?")).toEqual(["GDPR"]);
    // A code of regulations cited by title and part.
    expect(names("What does FDA's 21 CFR Part 11 require of audit trails?")).toContain("21 CFR Part 11");
    expect(names("Which airplanes does the 14 CFR part 39 directive cover?")).toContain("14 CFR part 39");
    expect(names("What does 15 U.S.C. 6801 require of banks?")).toContain("15 U.S.C. 6801");
  });

  it("leaves out sentence-initial words, plain words and acronyms the question defines", () => {
    expect(names("Regarding Rule 17.1.5, how should the agreement be made?")).toEqual([]);
    expect(names("What constitutes Enhanced Customer Due Diligence (EDD) for high-risk customers?")).toEqual([]);
    expect(names("Who must notify a personal data breach, and by when?")).toEqual([]);
    // A plural acronym is looked up in the singular.
    expect(names("How are TINs reported?")).toEqual(["TIN"]);
  });

  it("matches names whole, ignoring case, punctuation and plurals", () => {
    expect(mentionsName("Compliance with the Sarbanes–Oxley act of 2002", "Sarbanes-Oxley Act")).toBe(true);
    expect(mentionsName("the COBS Rules apply", "COBS Rule")).toBe(true);
    expect(mentionsName("the AI systems act on", "AI Act")).toBe(false);
    expect(mentionsName("a HIPAAcompliant vendor", "HIPAA")).toBe(false);
  });
});

describe("namesMissingFromLibrary", () => {
  const library = ["GDPR Article 33: the controller shall notify the supervisory authority within 72 hours.", "The Sarbanes-Oxley Act section 404."];
  const search = async (query: string): Promise<Array<{ text: string }>> =>
    library.filter((t) => t.toLowerCase().includes(query.toLowerCase().split(/\W+/)[0] ?? "")).map((text) => ({ text }));

  it("reports only the names no document mentions", async () => {
    expect(await namesMissingFromLibrary("Within how many hours must a controller notify a breach under the GDPR?", search)).toEqual([]);
    expect(await namesMissingFromLibrary("What does HIPAA require of covered entities under the GDPR?", search)).toEqual(["HIPAA"]);
    expect(await namesMissingFromLibrary("What does the Sarbanes-Oxley Act require?", search)).toEqual([]);
  });

  it("a code of regulations' part the library never cites is missing, one it cites is not (FDA Part 11, FAA Part 39)", async () => {
    const codes = [
      "§ 164.512(b)(1)(iii) A person subject to the jurisdiction of the Food and Drug Administration (FDA) with respect to an FDA-regulated product.",
      "This AD is issued in accordance with 14 CFR part 39: Airworthiness Directives for The Boeing Company Model 737-8 airplanes.",
    ];
    const searchCodes = async (): Promise<Array<{ text: string }>> => codes.map((text) => ({ text }));
    expect(await namesMissingFromLibrary("What does FDA's 21 CFR Part 11 require of audit trails on electronic records?", searchCodes)).toEqual([
      "21 CFR Part 11",
    ]);
    expect(await namesMissingFromLibrary("Which airplanes does the 14 CFR part 39 directive cover?", searchCodes)).toEqual([]);
  });

  it("an acronym that is also a function word is never held against the question", async () => {
    // The full-text index drops "it" and "us" as stop words: the search finds nothing.
    const none = async (): Promise<Array<{ text: string }>> => [];
    expect(await namesMissingFromLibrary("What controls must a firm have for its IT systems?", none)).toEqual([]);
    expect(await namesMissingFromLibrary("Does HIPAA apply to US federal agencies?", none)).toEqual(["HIPAA"]);
  });

  it("an acronym the evidence spells out is known: the GDPR never writes “DPO”", async () => {
    const evidence = ["Article 37 Designation of the data protection officer: the controller and the processor shall designate a data protection officer."];
    expect(await namesMissingFromLibrary("When must a controller appoint a DPO?", async () => [], evidence)).toEqual([]);
    expect(await namesMissingFromLibrary("Which duties does Brazil's LGPD give?", async () => [], evidence)).toEqual(["LGPD"]);
    expect(spellsOut("Information and Communication Technology risk", "ICT")).toBe(true);
    expect(spellsOut("the Anti-Money Laundering and Sanctions Rules", "AML")).toBe(true);
    // DORA never writes "SME": it spells the acronym out with a hyphenated compound, as a term it uses.
    expect(spellsOut(["microenterprises or small or medium-sized enterprises", "small and medium-sized enterprises"], "SME")).toBe(true);
    expect(spellsOut("data protection", "DPO")).toBe(false);
  });

  it("a lower-case run said once is chance, not the name: DORA's “financial competent authority” is not the FCA", async () => {
    const dora = ["to another national financial competent authority. (59) Since this Regulation"];
    expect(spellsOut(dora, "FCA")).toBe(false);
    expect(await namesMissingFromLibrary("What evidence does the FCA expect in the annual board report?", async () => [], dora)).toEqual(["FCA"]);
    // The same words as a proper name, or as a term the texts repeat, count (GDPR: the data protection officer).
    expect(spellsOut(["reported to the Financial Conduct Authority"], "FCA")).toBe(true);
    expect(spellsOut(["the data protection officer shall", "contact details of the data protection officer"], "DPO")).toBe(true);
    expect(spellsOut(["the data protection officer shall"], "DPO")).toBe(false);
  });

  it("answerQuestion gives the not-answered reply and says which name is missing", async () => {
    const result = await answerQuestion({
      question: "What does HIPAA require?",
      results: [],
      triplets: [],
      subgraph: { nodes: [], edges: [] },
      embedder: null,
      llm: null,
      retrieveMs: 1,
      missingNames: ["HIPAA"],
      resources: createLanguageResources(),
    });
    expect(result.answer).toBe(REFUSAL);
    expect(result.citations).toEqual([]);
    expect(result.analysis).toMatch(/None of the imported documents mentions “HIPAA”/);
  });
});
