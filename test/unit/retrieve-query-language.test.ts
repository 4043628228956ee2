import { describe, expect, it } from "vitest";
import { instrumentsOfDocument, sensesByRegulation, thesaurusExpansion, vocabularyExpansions } from "../../core/retrieve/legal-thesaurus.ts";
import { analyzeQuery } from "../../core/retrieve/query-terms.ts";
import { isDefinitionQuestion } from "../../core/retrieve/term-stage.ts";

// How auditors ask: everyday words, Italian questions, "what is…" questions. These decide what
// the lexical stage searches for before any ranking happens.

describe("query analysis", () => {
  it("keeps the content words of Italian questions", () => {
    expect(analyzeQuery("Quali sono i requisiti per partecipare alla gara?").words).toEqual(["requisiti", "partecipare", "gara"]);
    expect(analyzeQuery("Entro quale termine devono essere presentate le offerte?").words).toEqual(["entro", "termine", "presentate", "offerte"]);
  });

  it("adds the regulatory wording of lay expressions, in both languages", () => {
    const leak = thesaurusExpansion("How quickly must a company tell the regulator about a data leak?");
    expect(leak).toEqual(expect.arrayContaining(["breach", "supervisory", "authority"]));
    expect(thesaurusExpansion("What must a contract with a cloud provider contain?")).toEqual(expect.arrayContaining(["ict", "third", "party"]));
    expect(thesaurusExpansion("Qual è la scadenza?")).toEqual(expect.arrayContaining(["termine"]));
    expect(thesaurusExpansion("chi può partecipare alla gara")).toEqual(expect.arrayContaining(["appalto", "requisiti", "partecipazione"]));
    // One-way: a question already in regulatory words gains nothing.
    expect(thesaurusExpansion("notify the supervisory authority of a personal data breach")).toEqual([]);
    expect(thesaurusExpansion("What must the Regulator be told by employees?")).toEqual([]);
    expect(thesaurusExpansion("annual accounts of a listed company")).toEqual([]);
  });

  it("takes the named instrument's sense of a word, and every sense when none is named", () => {
    const senses = (q: string): string[] =>
      vocabularyExpansions(q)
        .filter((e) => e.from.startsWith("vendor"))
        .flatMap((e) => e.to);
    expect(senses("Under DORA, what must our vendor report?")).toEqual(["ict third-party service provider"]);
    expect(senses("Under HIPAA, what must our vendor sign?")).toEqual(["business associate"]);
    expect(senses("Under the GDPR, may our vendor hire another vendor?")).toEqual(["processor"]);
    expect(senses("What must our vendor tell us after a leak?")).toEqual(["ict third-party service provider", "business associate", "processor"]);
  });

  it("bridges IT-security, privacy and procurement words as people say them", () => {
    expect(thesaurusExpansion("Do our laptops need antivirus?")).toEqual(expect.arrayContaining(["malicious", "code"]));
    expect(thesaurusExpansion("Can staff work from home on their own laptops?")).toEqual(expect.arrayContaining(["remote", "access"]));
    expect(thesaurusExpansion("Do we need background checks before granting access?")).toEqual(expect.arrayContaining(["screen", "individuals"]));
    const personal = (q: string): string[] =>
      vocabularyExpansions(q)
        .filter((e) => e.from.startsWith("personal information"))
        .flatMap((e) => e.to);
    expect(personal("Under the GDPR, how long may we keep personal information?")).toEqual(["personal data"]);
    expect(personal("Under HIPAA, who may see personal information?")).toEqual([
      "individually identifiable health information",
      "protected health information",
    ]);
    expect(thesaurusExpansion("When must bidders submit the bid bond?")).toEqual(expect.arrayContaining(["offerta", "garanzia", "provvisoria"]));
  });

  it("bridges the everyday words for media, leavers, home working, reused passwords and unowned devices", () => {
    // Concepts several regulations word the same way: HIPAA's "prominent media outlets", NIST SP
    // 800-171's "terminations and transfers", "alternate work sites", password "generations".
    expect(thesaurusExpansion("Do we have to go to local TV stations and newspapers?")).toEqual(expect.arrayContaining(["media", "outlets"]));
    expect(thesaurusExpansion("When an engineer resigns, what happens to her access?")).toEqual(expect.arrayContaining(["termination", "transfers"]));
    expect(thesaurusExpansion("Staff handle files in their kitchens")).toEqual(expect.arrayContaining(["alternate", "work", "sites"]));
    expect(thesaurusExpansion("May users cycle back to an old password?")).toEqual(expect.arrayContaining(["reuse", "generations"]));
    expect(thesaurusExpansion("A thumb drive nobody claims as theirs")).toEqual(expect.arrayContaining(["identifiable", "owner"]));
    expect(thesaurusExpansion("Disable dormant accounts")).toEqual(expect.arrayContaining(["inactivity"]));
  });

  it("takes the sense of the regulation the question's first hits are in, when it names none", () => {
    const question = "What must our vendor tell us after a leak?";
    const votesOf = (aliases: string[][]): Map<string, number> => {
      const votes = new Map<string, number>();
      for (const list of aliases) for (const id of instrumentsOfDocument(list)) votes.set(id, (votes.get(id) ?? 0) + 1);
      return votes;
    };
    const sensesFor = (aliases: string[][]): string[] => {
      const kept = sensesByRegulation(question, votesOf(aliases));
      return vocabularyExpansions(question, kept ?? undefined)
        .filter((e) => e.from.startsWith("vendor"))
        .flatMap((e) => e.to);
    };
    // Hits mostly in HIPAA, in DORA, in the GDPR: three regulations, three senses.
    expect(sensesFor([["HIPAA"], ["HIPAA"], ["DORA"]])).toEqual(["business associate"]);
    expect(sensesFor([["DORA"], ["Regulation (EU) 2022/2554"], ["GDPR"]])).toEqual(["ict third-party service provider"]);
    expect(sensesFor([["GDPR"], ["GDPR"]])).toEqual(["processor"]);
    // No hit in any sense's regulation, a named regulation, a word with one sense: nothing to narrow.
    expect(sensesByRegulation(question, votesOf([["NIST SP 800-30"]]))).toBeNull();
    expect(sensesByRegulation("Under DORA, what must our vendor report?", votesOf([["HIPAA"]]))).toBeNull();
    expect(sensesByRegulation("What is a data leak?", votesOf([["HIPAA"]]))).toBeNull();
  });

  it("reads a capitalised word as the rulebook's own name, and IT in capitals as the acronym", () => {
    // "the Regulator" is how ADGM's rulebooks name their authority; "the regulator" is an auditor's word.
    expect(thesaurusExpansion("What must the Regulator be told?")).toEqual([]);
    expect(thesaurusExpansion("What must the regulator be told?")).toEqual(expect.arrayContaining(["competent", "supervisory", "authority"]));
    expect(vocabularyExpansions("How often must we test our IT continuity plans?").map((e) => e.source)).toContain("acronym");
    expect(vocabularyExpansions("Is it required to test it?").map((e) => e.source)).not.toContain("acronym");
  });

  it("reads a lay verb's -ing form without an object as a thing, not the act (FAA directive, DORA, HIPAA)", () => {
    const froms = (q: string): string[] => vocabularyExpansions(q).map((e) => e.from);
    // A cockpit's "disagree warning" is an alert, not a notice to anyone.
    expect(froms("How long must an AoA mismatch last to trigger the new cockpit disagree warning?")).not.toContain("warn");
    expect(froms("Is a telling sign of fraud enough to act on?")).not.toContain("tell");
    // The act, with its object or as a verb, still counts.
    expect(froms("Is warning the customers by e-mail enough after a major incident?")).toContain("warn");
    expect(froms("Must our billing vendor warn us before it moves patient files?")).toContain("warn");
    expect(froms("When do we have to tell the affected customers?")).toContain("tell");
  });

  it("reports each expansion: the words matched, the wording they stand for, the words added", () => {
    const [leak] = vocabularyExpansions("Do we log every leak?");
    expect(leak).toEqual({ from: "leak", to: ["breach", "personal data breach"], added: ["breach", "personal", "data"], source: "lexicon", instruments: [] });
  });

  it("tells definition questions from questions that merely name a term", () => {
    for (const q of [
      "What is a business associate under HIPAA?",
      "What does 'personal data' mean?",
      "How does the FSRA define the term proximate?",
      "Cosa si intende per operatore economico?",
    ]) {
      expect(isDefinitionQuestion(q), q).toBe(true);
    }
    for (const q of [
      "What are the reporting requirements for an Authorised Person in relation to outsourced activities?",
      "What is the deadline for notifying a breach?",
      "Must a business associate sign a contract?",
    ]) {
      expect(isDefinitionQuestion(q), q).toBe(false);
    }
  });
});
