import { describe, expect, it } from "vitest";
import { decideFollowUp, libraryScopeNamer, localScopeNames } from "../../core/answer/question/follow-up.ts";

// The follow-up rule on questions auditors ask in English and Italian: a short, elliptical
// question with no document or article of its own keeps the previous question's scope.

const DORA = "How quickly must a financial entity report a major ICT-related incident under DORA?";
const GDPR = "What must a controller do when a personal data breach occurs?";
const IT = "Entro quanto tempo il titolare deve notificare una violazione dei dati personali?";

interface Row {
  previous: string;
  question: string;
  followUp: boolean;
  /** Words the retrieval question must contain (follow-ups: the previous scope and the new words). */
  contains?: string[];
}

const TABLE: Row[] = [
  // English follow-ups
  { previous: DORA, question: "and for microenterprises?", followUp: true, contains: ["report a major ICT-related incident", "for microenterprises"] },
  { previous: GDPR, question: "what about processors?", followUp: true, contains: ["personal data breach", "processors"] },
  { previous: GDPR, question: "And processors?", followUp: true, contains: ["controller", "processors"] },
  { previous: GDPR, question: "How about public authorities?", followUp: true, contains: ["public authorities"] },
  { previous: GDPR, question: "Does this also apply to processors?", followUp: true, contains: ["breach", "processors"] },
  { previous: DORA, question: "microenterprises?", followUp: true, contains: ["DORA", "microenterprises"] },
  { previous: DORA, question: "Also, who must be informed?", followUp: true, contains: ["who must be informed"] },
  { previous: GDPR, question: "What if the breach is unlikely to result in a risk?", followUp: true, contains: ["controller", "unlikely to result in a risk"] },
  // Italian follow-ups
  { previous: IT, question: "e per le PMI?", followUp: true, contains: ["notificare una violazione", "per le PMI"] },
  { previous: IT, question: "E per i responsabili del trattamento?", followUp: true, contains: ["per i responsabili del trattamento"] },
  { previous: IT, question: "invece per le autorità pubbliche?", followUp: true, contains: ["autorità pubbliche"] },
  { previous: IT, question: "Per le microimprese?", followUp: true, contains: ["titolare", "Per le microimprese"] },
  { previous: IT, question: "Vale anche per i responsabili?", followUp: true, contains: ["responsabili"] },
  // Their own scope: a document, an instrument or an article
  { previous: GDPR, question: "and under DORA?", followUp: false },
  { previous: GDPR, question: "What about Article 34?", followUp: false },
  { previous: DORA, question: "and for GDPR?", followUp: false },
  { previous: IT, question: "e per l'art. 34?", followUp: false },
  { previous: IT, question: "E secondo il Regolamento (UE) 2016/679?", followUp: false },
  { previous: DORA, question: "what about § 164.308?", followUp: false },
  // Complete questions of their own
  { previous: DORA, question: "What are the administrative safeguards under the security rule?", followUp: false },
  { previous: GDPR, question: "Who must appoint a data protection officer?", followUp: false },
  { previous: GDPR, question: "And what are the penalties for infringements of the data protection rules?", followUp: false },
  { previous: GDPR, question: "Define processor", followUp: false },
  { previous: IT, question: "Quali sono i requisiti di partecipazione alla gara?", followUp: false },
  { previous: IT, question: "È obbligatorio nominare un responsabile della protezione dei dati?", followUp: false },
];

describe("follow-up questions", () => {
  it.each(TABLE)("$question after “$previous” → follow-up: $followUp", (row) => {
    const decision = decideFollowUp(row.previous, row.question);
    expect(decision.followUp, decision.reason).toBe(row.followUp);
    expect(decision.reason.length).toBeGreaterThan(10);
    if (!row.followUp) {
      expect(decision.question).toBe(row.question.replace(/\s+/g, " ").trim());
      return;
    }
    for (const words of row.contains ?? []) expect(decision.question).toContain(words);
    expect(decision.reason).toContain("follow-up");
  });

  it("the first question of a conversation is never a follow-up", () => {
    expect(decideFollowUp(null, "and for microenterprises?")).toMatchObject({ followUp: false, question: "and for microenterprises?" });
  });

  it("says which scope a question names of its own", () => {
    const decision = decideFollowUp(GDPR, "and under DORA?");
    expect(decision.reason).toContain("DORA");
    expect(localScopeNames("see Article 33(1) of the GDPR")).toEqual(expect.arrayContaining(["GDPR", "Article 33"]));
    expect(localScopeNames("and for microenterprises?")).toEqual([]);
    // "section covers" is not a section number; "part" is not a Part.
    expect(localScopeNames("which section covers it, in part?")).toEqual([]);
  });

  it("knows the library's own documents by title, file name and the acronym a title defines", () => {
    const namer = libraryScopeNamer([{ title: "Digital Operational Resilience Test Regulation (DORT)", fileName: "dort.pdf" }]);
    expect(decideFollowUp(GDPR, "and under DORT?", namer).followUp).toBe(false);
    expect(decideFollowUp(GDPR, "and in dort?", namer).followUp).toBe(false);
    expect(decideFollowUp(GDPR, "and for processors?", namer).followUp).toBe(true);
  });
});
