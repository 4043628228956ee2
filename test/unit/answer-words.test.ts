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

  it("a validity period is a time limit", () => {
    expect(cueStrength("deadline", "avere validità per almeno 180 giorni dalla data di presentazione dell'offerta;")).toBe(2);
    expect(cueStrength("deadline", "The certificate shall remain valid for at least 12 months.")).toBe(2);
    expect(cueStrength("deadline", "The offer contains 180 items.")).toBe(0);
  });
});
