import { describe, expect, it } from "vitest";
import { alsoCued, cueStrength } from "../../core/answer/compose/answer-cues.ts";
import { questionParties } from "../../core/answer/question/question-parties.ts";
import { partyTypeOfName } from "../../core/extract/party-types.ts";
import { PARTIES, formsOf } from "../../core/text/index.ts";

// The one table of parties (core/text/parties.ts) and what its three readers derive from it: the
// parties a question names, the party types, and the answer's "who" and recipient cues.

describe("the table of parties", () => {
  it("gives every form to one party only", () => {
    const forms = PARTIES.flatMap((party) => party.forms.map((form) => form.toLowerCase()));
    expect(forms.filter((form, i) => forms.indexOf(form) !== i)).toEqual([]);
  });

  it("selects only a party's own forms, and types only typed parties", () => {
    for (const party of PARTIES) {
      for (const selection of [party.typed, party.cue, party.recipient])
        if (Array.isArray(selection)) for (const form of selection) expect(party.forms, `${form} is a form`).toContain(form);
      if (party.typed !== undefined) expect(party.type, party.forms[0]).toBeDefined();
    }
  });

  it("types every typed form, in either language", () => {
    // partyTypeOfName cuts a name at its "of"/"del" phrase before the lookup, so a form holding one
    // ("single point of contact", "responsabile unico del progetto") is never looked up whole.
    const cut = /\s(?:of|for|di|del|della|dei|degli|delle|dello)\s/;
    for (const party of PARTIES) {
      if (party.type === undefined) continue;
      for (const form of formsOf(party, party.typed ?? true).filter((f) => !cut.test(f))) {
        expect(partyTypeOfName(form.toLowerCase()), form).toBe(party.type);
        expect(partyTypeOfName(form.toLowerCase(), "it"), form).toBe(party.type);
      }
    }
  });

  it("finds each form of a party asked about as its canonical name", () => {
    for (const party of PARTIES.filter((p) => p.question))
      for (const form of party.forms) expect(questionParties(`Who is the ${form} here?`), form).toEqual([party.forms[0]]);
    expect(questionParties("What must the European Data Protection Board do?")).toEqual([]);
  });

  it("matches acronyms in their case and roles in any case", () => {
    expect(questionParties("Who appoints the RUP?")).toEqual(["RUP"]);
    expect(questionParties("Does the rup sign?")).toEqual([]);
    expect(questionParties("What must a Data Controller do?")).toEqual(["controller"]);
    expect(questionParties("Must financial-entities report?")).toEqual(["financial entity"]);
  });

  it("cues a sentence naming a cue form, and only the forms the party lists", () => {
    for (const party of PARTIES) for (const form of formsOf(party, party.cue)) expect(cueStrength("party", `The ${form} shall act.`), form).toBe(2);
    expect(cueStrength("party", "The financial entities shall act.")).toBe(2);
    expect(cueStrength("party", "The controllers shall act.")).toBe(0);
  });

  it("finds a recipient after 'to the', 'alla' and the like", () => {
    // The word edge after the form is ASCII (\b): none follows a final "à", so of "autorità" only "autorita" is found.
    for (const party of PARTIES)
      for (const form of formsOf(party, party.recipient).filter((f) => /[A-Za-z]$/.test(f)))
        expect(alsoCued("party", `report it to the relevant ${form}.`), form).toBe(true);
    expect(alsoCued("party", "trasmette alla stazione appaltante")).toBe(true);
    expect(alsoCued("party", "ricorso presso l'autorita competente")).toBe(true);
    expect(alsoCued("party", "report it to the client.")).toBe(false);
    expect(alsoCued("party", "report it to the European Commission.")).toBe(false);
  });
});
