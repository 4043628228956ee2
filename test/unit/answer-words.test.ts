import { describe, expect, it } from "vitest";
import { cueStrength } from "../../core/answer/compose/answer-cues.ts";
import { retrievalQuery } from "../../core/answer/question/answer-type-query.ts";
import { contentStems } from "../../core/answer/compose/lexical.ts";

// The words an answer is matched on: one stem for the forms a question and a provision use, the
// provision wording a question type adds, and the cue that says a sentence carries what was asked.

describe("answer words", () => {
  it("folds the forms a question and a provision use into one stem", () => {
    const same = (a: string, b: string): void => expect(contentStems(a)).toEqual(contentStems(b));
    // DORA Art. 27: testers "for the carrying out of TLPT" answer "testers … carry out TLPT".
    same("carry", "carrying");
    same("carries", "carried");
    // "apply" and "comply" are no adverbs.
    same("apply", "applies");
    same("applying", "application");
    same("comply", "complies");
    same("contractual", "contract");
    same("party", "parties");
    // GDPR Art. 6 is headed "Lawfulness of processing": it answers "the lawful bases for processing".
    same("lawful", "lawfulness");
    same("aware", "awareness");
    // Different words stay apart.
    expect(contentStems("day")).not.toEqual(contentStems("data"));
    expect(contentStems("annual")).not.toEqual(contentStems("actual"));
  });

  it("asks for the entry into force, not the date of application, when the question says so", () => {
    expect(retrievalQuery("When does DORA enter into force?", "application-date")).toBe(
      "When does DORA enter into force? shall enter into force entry into force",
    );
    expect(retrievalQuery("From what date does DORA apply?", "application-date")).toMatch(/shall apply from/);
    expect(retrievalQuery("Quando entra in vigore il contratto?", "application-date", "it")).toMatch(/entrata in vigore$/);
  });

  it("a percentage is an amount, wherever it stands in the sentence", () => {
    expect(cueStrength("amount", "I contratti attuativi dovranno avere una propria garanzia definitiva del 10% del valore contrattuale.")).toBeGreaterThan(0);
    expect(cueStrength("amount", "The fine is up to 4 % of the total worldwide annual turnover.")).toBeGreaterThan(0);
  });

  it("a validity period answers how long; how soon is answered by a time limit (rule: how soon is not how long)", () => {
    expect(cueStrength("deadline", "avere validità per almeno 180 giorni dalla data di presentazione dell'offerta;", true)).toBe(2);
    expect(cueStrength("deadline", "The certificate shall remain valid for at least 12 months.", true)).toBe(2);
    expect(cueStrength("deadline", "The offer contains 180 items.")).toBe(0);
    // HIPAA: the substitute notice's posting lasts 90 days; the notice itself is due within 60.
    const posting =
      "(A) Be in the form of either a conspicuous posting for a period of 90 days on the home page of the Web site of the covered entity involved;";
    const limit =
      "A covered entity shall provide the notification without unreasonable delay and in no case later than 60 calendar days after discovery of a breach.";
    expect(cueStrength("deadline", posting)).toBe(1);
    expect(cueStrength("deadline", limit)).toBe(2);
    // DORA: the same property in another regulation.
    expect(cueStrength("deadline", "The contractual arrangements shall remain in force for a period of 12 months.")).toBe(1);
    expect(cueStrength("deadline", "Financial entities shall submit the initial notification within 4 hours.")).toBe(2);
  });
});
