import { describe, expect, it } from "vitest";
import { followsGrammar, grammarFamily, withinGrammar } from "../../core/citations/grammar.ts";
import { PinpointTracker } from "../../core/citations/pinpoint.ts";
import { sentenceUnits } from "../../core/answer/compose/sentence-units.ts";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { body, fixtureDoc } from "./structure-fixture.ts";

// Each family's numbering grammar guards what a citation prints: a pinpoint the tracker read
// wrong is cut back to the nearest level that exists (the provision at worst), in every family —
// the CFR, EU and Italian articles, NIST requirements and sections, documents of none.

const resources = createLanguageResources();

describe("the numbering grammar of each family", () => {
  it("names the family from the label: CFR, EU, Italian sections, NIST requirements and sections, none", () => {
    expect(grammarFamily("§ 164.504 (part 2)")).toBe("cfr");
    expect(grammarFamily("Article 19")).toBe("eu");
    expect(grammarFamily("Art. 14")).toBe("eu");
    expect(grammarFamily("Par. 7.2")).toBe("it");
    expect(grammarFamily("3.1.1")).toBe("nist");
    expect(grammarFamily("Section 2.3.1 (part 2)")).toBe("nist");
    expect(grammarFamily("AC-2(1)")).toBe("nist");
    // A regulation's "Section 1" of a chapter numbers no requirement.
    expect(grammarFamily("Section 1")).toBe("list");
    expect(grammarFamily("Annex II")).toBe("list");
  });

  it("orders levels by family: CFR (a)(1)(i)(A), EU paragraph (a)(i), lettera under its comma, NIST lists by kind", () => {
    expect(followsGrammar("(e)(4)(ii)(B)(2)", "cfr")).toBe(true);
    expect(followsGrammar("(1)(e)", "cfr")).toBe(false);
    expect(followsGrammar("(3)(a)(ii)", "eu")).toBe(true);
    expect(followsGrammar("(a)(3)", "eu")).toBe(false);
    expect(followsGrammar("(1)(lett. b)", "eu")).toBe(true);
    expect(followsGrammar("(4)(a)", "nist")).toBe(true);
    expect(followsGrammar("(a)(4)", "nist")).toBe(false);
  });

  it("cuts a pinpoint back to the level that exists: a list read twice, a list whose predecessor is not printed", () => {
    // NIST SP 800-30 Section 2.3.1: a second list's "(i)" after a lead-in is not inside the first's "(i)".
    const nist =
      "A threat source is characterized as:\n(i) the intent and method; or (ii) a situation and method.\nTypes of threat sources include:\n(i) hostile cyber attacks; (ii) human errors.";
    expect(withinGrammar("(i)(i)", "nist", nist)).toBe(null);
    expect(withinGrammar("(i)", "nist", nist)).toBe("(i)");
    // DORA Art. 5(2)(i)(i): the ninth point's own numerals, "(h)" printed before it.
    const dora =
      "1. Financial entities shall have a framework.\n2. The management body shall:\n(h) approve the policy;\n(i) put in place reporting channels on the following:\n(i) arrangements concluded,\n(ii) planned changes;";
    expect(withinGrammar("(2)(i)(i)", "eu", dora)).toBe("(2)(i)(i)");
    // "(m)" with no "(l)" in the provision: the print lost a line, the section is cited.
    expect(withinGrammar("(m)", "cfr", "(k) Routing change.\n(m) Operational readiness flight.")).toBe(null);
    expect(withinGrammar("(e)(3)", "cfr", "(d) Other.\n(e)(1) Standard.\n(2) Contracts.\n(3) Other arrangements.")).toBe("(e)(3)");
  });

  it("sentence units carry the guarded pinpoint and say when it was cut", () => {
    const units = sentenceUnits(
      "Threat sources include:\n(i) hostile cyber attacks; (ii) human errors.\nLikelihood is assessed:\n(i) adversary intent.",
      resources,
      {
        label: "Section 2.3.1",
        before: "A threat source is characterized as:\n(i) the intent and method.",
      },
    );
    expect(units.map((u) => [u.citable, u.cut])).toEqual([
      ["(i)", false],
      [null, true],
      [null, true],
      [null, true],
    ]);
  });
});

describe("a paragraph's number that lost its mark in print, a numbered list that is not paragraphs", () => {
  it("reads '4 In …' (dot lost) and '4.Il …' (space lost) as the next comma, a number out of sequence as text", () => {
    const lines = [
      "3. Il requisito è richiesto dal 1° gennaio 2024.",
      "4 In sede di prima applicazione restano le competenze vigenti.",
      "5. Fino all’adozione del regolamento continua ad applicarsi il decreto.",
      "6.Il documento contiene le informazioni richieste.",
      "9 Le disposizioni restano in vigore.",
    ];
    const tracker = new PinpointTracker({ family: "eu", lettere: true, text: lines.join("\n") });
    expect(lines.map((l) => tracker.line(l))).toEqual(["(3)", "(4)", "(5)", "(6)", "(6)"]);
  });

  it("an article's numbered list whose items open in lower case closes at the article's next sentence", () => {
    const lines = [
      "In particolare, sulle confezioni devono essere riportate le seguenti indicazioni:",
      "1. la descrizione del prodotto;",
      "2. le informazioni previste dall’etichetta.",
      "Le stampigliature dovranno essere apposte direttamente sulle confezioni.",
    ];
    const tracker = new PinpointTracker({ family: "eu", lettere: true, text: lines.join("\n") });
    expect(lines.map((l) => tracker.line(l))).toEqual([null, "(1)", "(2)", null]);
  });

  it("opens a paragraph at a number that lost its dot or space after a sentence's end, in plain text and PDF alike", () => {
    for (const format of ["text", "pdf"] as const) {
      const doc = fixtureDoc(
        [
          [
            { text: "Articolo 225.", bold: true, size: 13 },
            body("3. Il requisito di qualificazione è richiesto a decorrere dal 1° gennaio 2024."),
            body("4 In sede di prima applicazione restano le competenze vigenti"),
            body("alla data di entrata in vigore del codice."),
            body("5.Fino all’adozione del regolamento continua ad applicarsi il decreto."),
            body("del 2 novembre 2017, n. 192, e dal"),
            body("4 Dicembre le parti."),
          ],
        ],
        { format, language: "it" },
      );
      const text = sectionDocument(doc, "d")
        .map((s) => s.text)
        .join("\n");
      expect(text).toContain("2024.\n4 In sede");
      expect(text).toContain("codice.\n5.Fino");
      // After a line that ends no sentence, a number is the text going on.
      expect(text).toContain("e dal 4 Dicembre");
    }
  });
});
