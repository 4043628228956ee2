import { describe, expect, it } from "vitest";
import { findCrossReferences } from "../../core/extract/cross-references.ts";
import type { CrossReferenceContext, CrossReferenceTarget } from "../../core/extract/cross-references.ts";
import { instrumentKey } from "../../core/extract/instruments.ts";

// Sentences are short excerpts verified in the shared corpus (GDPR plaintext, DORA OJ PDF, HIPAA
// 45 CFR PDF, NIST SP 800-171r2, ADGM rulebooks, the Mauriziano disciplinare and D.Lgs. 36/2023).

type Row = [sentence: string, ctx: CrossReferenceContext, raw: string, targets: CrossReferenceTarget[]];

const EU: CrossReferenceContext = { documentKind: "eu", language: "en" };
const CFR: CrossReferenceContext = { documentKind: "cfr", language: "en" };
const IT: CrossReferenceContext = { documentKind: "italian", language: "it" };

const rows: Row[] = [
  ["processing is necessary for the performance of a task referred to in Article 6(1)(e)", EU, "Article 6(1)(e)", [{ label: "Article 6", pinpoint: "(1)(e)" }]],
  ["the information referred to in Articles 13 and 14", EU, "Articles 13 and 14", [{ label: "Article 13" }, { label: "Article 14" }]],
  [
    "the rights and obligations provided for in Articles 12 to 15 of that Directive",
    EU,
    "Articles 12 to 15 of that Directive",
    [
      { label: "Article 12", external: { instrument: "that Directive" } },
      { label: "Article 13", external: { instrument: "that Directive" }, rangeInterior: true },
      { label: "Article 14", external: { instrument: "that Directive" }, rangeInterior: true },
      { label: "Article 15", external: { instrument: "that Directive" } },
    ],
  ],
  ["the principles relating to processing of personal data laid down in Article 5(1)", EU, "Article 5(1)", [{ label: "Article 5", pinpoint: "(1)" }]],
  ["where processing is based on point (a) of Article 6(1)", EU, "point (a) of Article 6(1)", [{ label: "Article 6", pinpoint: "(1)(a)" }]],
  [
    "in the case of transfers referred to in the second subparagraph of Article 49(1)",
    EU,
    "the second subparagraph of Article 49(1)",
    [{ label: "Article 49", pinpoint: "(1), second subparagraph" }],
  ],
  ["The notification referred to in paragraph 1 shall at least:", EU, "paragraph 1", [{ label: null, relative: "paragraph 1" }]],
  [
    "the information and measures referred to in points (b), (c) and (d) of Article 33(3).",
    EU,
    "points (b), (c) and (d) of Article 33(3)",
    [
      { label: "Article 33", pinpoint: "(3)(b)" },
      { label: "Article 33", pinpoint: "(3)(c)" },
      { label: "Article 33", pinpoint: "(3)(d)" },
    ],
  ],
  [
    "within the scope of Chapter 2 of Title V of the TEU;",
    EU,
    "Chapter 2 of Title V of the TEU",
    [{ label: "Chapter 2", within: ["Title V"], external: { instrument: "TEU" } }],
  ],
  ["in accordance with Chapter IV of this Regulation;", EU, "Chapter IV of this Regulation", [{ label: "Chapter IV" }]],
  ["Chapter V, Section II, of this Regulation", EU, "Chapter V, Section II, of this Regulation", [{ label: "Section II", within: ["Chapter V"] }]],
  ["the conditions laid down in Annex II", EU, "Annex II", [{ label: "Annex II" }]],
  [
    "means a network and information system as defined in Article 6, point 1, of Directive (EU) 2022/2555;",
    EU,
    "Article 6, point 1, of Directive (EU) 2022/2555",
    [{ label: "Article 6", pinpoint: "point 1", external: { instrument: "Directive (EU) 2022/2555" } }],
  ],
  [
    "Credit institutions classified as significant, in accordance with Article 6(4) of Regulation (EU) No 1024/2013, shall report",
    EU,
    "Article 6(4) of Regulation (EU) No 1024/2013",
    [{ label: "Article 6", pinpoint: "(4)", external: { instrument: "Regulation (EU) No 1024/2013" } }],
  ],
  [
    "the financial entities referred to in Article 2(1), points (a) to (d), whether ICT-related or not",
    EU,
    "Article 2(1), points (a) to (d)",
    [
      { label: "Article 2", pinpoint: "(1)(a)" },
      { label: "Article 2", pinpoint: "(1)(b)" },
      { label: "Article 2", pinpoint: "(1)(c)" },
      { label: "Article 2", pinpoint: "(1)(d)" },
    ],
  ],
  [
    "groups referred to in Article 7(4)(b) and (5) of Regulation (EU) No 806/2014 if",
    EU,
    "Article 7(4)(b) and (5) of Regulation (EU) No 806/2014",
    [
      { label: "Article 7", pinpoint: "(4)(b)", external: { instrument: "Regulation (EU) No 806/2014" } },
      { label: "Article 7", pinpoint: "(5)", external: { instrument: "Regulation (EU) No 806/2014" } },
    ],
  ],
  [
    "participants (as defined in section 3(7) of ERISA, and",
    CFR,
    "section 3(7) of ERISA",
    [{ label: "Section 3", pinpoint: "(7)", external: { instrument: "ERISA" } }],
  ],
  [
    "sections 262 and 264 of Public Law 104-191;",
    CFR,
    "sections 262 and 264 of Public Law 104-191",
    [
      { label: "Section 262", external: { instrument: "Public Law 104-191" } },
      { label: "Section 264", external: { instrument: "Public Law 104-191" } },
    ],
  ],
  [
    "in accordance with Article 16 of the Treaty on the Functioning of the European Union",
    EU,
    "Article 16 of the Treaty on the Functioning of the European Union",
    [{ label: "Article 16", external: { instrument: "TFEU" } }],
  ],
  ["See § 164.308(a)(1)(ii) for the risk analysis.", CFR, "§ 164.308(a)(1)(ii)", [{ label: "§ 164.308", pinpoint: "(a)(1)(ii)" }]],
  ["in §§ 160.406 and 160.408.", CFR, "§§ 160.406 and 160.408", [{ label: "§ 160.406" }, { label: "§ 160.408" }]],
  [
    "The requirements of § 164.504(e)(2) through (e)(4) apply",
    CFR,
    "§ 164.504(e)(2) through (e)(4)",
    [
      { label: "§ 164.504", pinpoint: "(e)(2)" },
      { label: "§ 164.504", pinpoint: "(e)(4)" },
    ],
  ],
  ["as provided in paragraph (a)(1) of this section", CFR, "paragraph (a)(1) of this section", [{ label: null, relative: "paragraph (a)(1)" }]],
  ["(as such term is defined in 45 CFR 144.103), of", CFR, "45 CFR 144.103", [{ label: "§ 144.103", external: { instrument: "45 CFR" } }]],
  ["the requirements of 45 CFR part 160", CFR, "45 CFR part 160", [{ label: "Part 160", external: { instrument: "45 CFR" } }]],
  ["the documentation requirements of 45 CFR 164.316", CFR, "45 CFR 164.316", [{ label: "§ 164.316", external: { instrument: "45 CFR" } }]],
  ["the system security plan, as reflected in requirement 3.12.4, is", { documentKind: "nist" }, "requirement 3.12.4", [{ label: "3.12.4" }]],
  ["Appendix E provides a complete listing of security controls", { documentKind: "nist" }, "Appendix E", [{ label: "Appendix E" }]],
  ["The records required to be kept under Rule 4.5.1 may be kept in electronic format", { documentKind: "rules" }, "Rule 4.5.1", [{ label: "Rule 4.5.1" }]],
  [
    "Authorised Persons are reminded that under GEN Rule 5.5.1 the MLRO function",
    { documentKind: "rules" },
    "GEN Rule 5.5.1",
    [{ label: "Rule 5.5.1", external: { instrument: "GEN" } }],
  ],
  ["In complying with Rule 8.6.1(d), a Relevant Person should", { documentKind: "rules" }, "Rule 8.6.1(d)", [{ label: "Rule 8.6.1", pinpoint: "(d)" }]],
  // Italian
  ["l’amministrazione stessa avrà il diritto di recedere dal contratto ai sensi del successivo art. 16, oppure", IT, "art. 16", [{ label: "Art. 16" }]],
  [
    "le condizioni indicate all’articolo 120, comma 10, del Codice.",
    IT,
    "articolo 120, comma 10, del Codice",
    [{ label: "Art. 120", pinpoint: "comma 10", external: { instrument: "Codice" } }],
  ],
  [
    "abbia i requisiti di cui all’art. 94 e 95 del Codice appalti e",
    IT,
    "art. 94 e 95 del Codice appalti",
    [
      { label: "Art. 94", external: { instrument: "Codice" } },
      { label: "Art. 95", external: { instrument: "Codice" } },
    ],
  ],
  [
    "Un operatore economico che si trovi in una delle situazioni di cui agli artt. 94 e 95 del Codice,",
    IT,
    "artt. 94 e 95 del Codice",
    [
      { label: "Art. 94", external: { instrument: "Codice" } },
      { label: "Art. 95", external: { instrument: "Codice" } },
    ],
  ],
  [
    "Ai sensi dell’art 120 comma 9 del D.lgs. 36/2023 qualora",
    IT,
    "art 120 comma 9 del D.lgs. 36/2023",
    [{ label: "Art. 120", pinpoint: "comma 9", external: { instrument: "d.lgs. 36/2023" } }],
  ],
  [
    "Ai sensi dell’articolo 9 del D.lg.s 36/2023, la stazione appaltante",
    IT,
    "articolo 9 del D.lg.s 36/2023",
    [{ label: "Art. 9", external: { instrument: "d.lgs. 36/2023" } }],
  ],
  [
    "In caso di partecipazione di consorzi di cui all’art. 65, comma 2, lett. b), c) e d) del Codice i requisiti",
    IT,
    "art. 65, comma 2, lett. b), c) e d) del Codice",
    [
      { label: "Art. 65", pinpoint: "comma 2, lett. b)", external: { instrument: "Codice" } },
      { label: "Art. 65", pinpoint: "comma 2, lett. c)", external: { instrument: "Codice" } },
      { label: "Art. 65", pinpoint: "comma 2, lett. d)", external: { instrument: "Codice" } },
    ],
  ],
  [
    "descrive le misure adottate ai sensi dell’articolo 96, comma 6 del Codice;",
    IT,
    "articolo 96, comma 6 del Codice",
    [{ label: "Art. 96", pinpoint: "comma 6", external: { instrument: "Codice" } }],
  ],
  [
    "ai sensi dell’articolo 83-bis del decreto legislativo n. 159/2011.",
    IT,
    "articolo 83-bis del decreto legislativo n. 159/2011",
    [{ label: "Art. 83-bis", external: { instrument: "d.lgs. 159/2011" } }],
  ],
  [
    "in violazione dell’art. 53, comma 16-ter, del decreto legislativo del 2001 n. 165 a soggetti",
    IT,
    "art. 53, comma 16-ter, del decreto legislativo del 2001 n. 165",
    [{ label: "Art. 53", pinpoint: "comma 16-ter", external: { instrument: "d.lgs. 165/2001" } }],
  ],
  [
    "diligenza richiesta dall’articolo 1176, comma 2, del Codice civile",
    IT,
    "articolo 1176, comma 2, del Codice civile",
    [{ label: "Art. 1176", pinpoint: "comma 2", external: { instrument: "Codice civile" } }],
  ],
  ["come previsto dall’art. 17 del presente Disciplinare di gara", IT, "art. 17 del presente Disciplinare di gara", [{ label: "Art. 17" }]],
  ["Se le circostanze sopravvenute di cui al comma 1 rendono la prestazione", IT, "comma 1", [{ label: null, relative: "comma 1" }]],
  ["articolo 108 del codice", IT, "articolo 108 del codice", [{ label: "Art. 108", external: { instrument: "Codice" } }]],
  [
    "ai sensi dell'articolo 17, comma 5, del d.lgs. 36/2023",
    IT,
    "articolo 17, comma 5, del d.lgs. 36/2023",
    [{ label: "Art. 17", pinpoint: "comma 5", external: { instrument: "d.lgs. 36/2023" } }],
  ],
];

describe("findCrossReferences: real sentences", () => {
  it.each(rows)("%s", (sentence, ctx, raw, targets) => {
    const refs = findCrossReferences(sentence, ctx).filter((r) => r.targets.some((t) => t.label !== null || t.relative !== undefined));
    expect(refs).toHaveLength(1);
    const ref = refs[0];
    expect(ref?.raw).toBe(raw);
    expect(sentence.slice(ref?.start ?? 0, ref?.end ?? 0)).toBe(raw);
    expect(ref?.targets).toEqual(targets);
  });
});

describe("findCrossReferences: ranges and instruments", () => {
  it("expands an article range and flags the interior", () => {
    const [ref] = findCrossReferences("the rights referred to in Articles 15 to 22", EU);
    expect(ref?.targets.map((t) => t.label)).toEqual([
      "Article 15",
      "Article 16",
      "Article 17",
      "Article 18",
      "Article 19",
      "Article 20",
      "Article 21",
      "Article 22",
    ]);
    expect(ref?.targets.filter((t) => t.rangeInterior).length).toBe(6);
  });

  it("expands a CFR § range by its last number", () => {
    const [ref] = findCrossReferences("the standards in §§ 164.308 through 164.316", CFR);
    expect(ref?.targets[0]?.label).toBe("§ 164.308");
    expect(ref?.targets[ref.targets.length - 1]?.label).toBe("§ 164.316");
    expect(ref?.targets).toHaveLength(9);
  });

  it("expands an Italian range 'articoli da … a …'", () => {
    const [ref] = findCrossReferences("rientranti nell'ambito definito dagli articoli da 146 a 152, applicano", IT);
    expect(ref?.targets.map((t) => t.label)).toEqual(["Art. 146", "Art. 147", "Art. 148", "Art. 149", "Art. 150", "Art. 151", "Art. 152"]);
  });

  it("caps huge ranges to their endpoints", () => {
    const [ref] = findCrossReferences("Articles 1 to 99 apply", EU);
    expect(ref?.targets.map((t) => t.label)).toEqual(["Article 1", "Article 99"]);
  });

  it("keeps bare instrument citations as external targets", () => {
    const refs = findCrossReferences(
      "in accordance with Regulation (EU) No 648/2012 and payment institutions authorised under Directive (EU) 2015/2366 or Directive 2009/138/EC",
      EU,
    );
    expect(refs.map((r) => r.targets[0]?.external?.instrument)).toEqual(["Regulation (EU) No 648/2012", "Directive (EU) 2015/2366", "Directive 2009/138/EC"]);
    expect(refs.every((r) => r.targets[0]?.label === null)).toBe(true);
  });

  it("resolves 'that Directive' to the instrument cited before it", () => {
    const text =
      "This Regulation shall be without prejudice to the application of Directive 2000/31/EC, in particular of the liability rules of intermediary service providers in Articles 12 to 15 of that Directive.";
    const ref = findCrossReferences(text, EU).find((r) => r.raw.startsWith("Articles"));
    expect(ref?.targets[0]?.external?.instrument).toBe("Directive 2000/31/EC");
  });

  it("normalises instrument keys across languages and spellings", () => {
    expect(instrumentKey("Regulation (EU) 2016/679")).toBe(instrumentKey("Regulation (EU) No 2016/679"));
    expect(instrumentKey("Regolamento UE N. 2016/679")).toBe("regulation:2016/679");
    expect(instrumentKey("D.lg.s 36/2023")).toBe(instrumentKey("d.lgs. 36/2023"));
    expect(instrumentKey("45 CFR")).toBe("cfr:45");
  });
});

describe("findCrossReferences: no false positives", () => {
  // Dates, OJ running headers, amounts and page footers are real corpus lines; a few prose lines are made up.
  const negatives: Array<[string, CrossReferenceContext]> = [
    ["This Regulation shall enter into force on the twentieth day following that of its publication.", EU],
    ["It shall apply from 17 January 2025.", EU],
    ["Done at Strasbourg, 14 December 2022.", EU],
    ["EN Official Journal of the European Union 27.12.2022 L 333/25", EU],
    ["The Commission shall, by 17 January 2026, review this Regulation.", EU],
    ["Il valore globale stimato dell’appalto è pari ad € 2.079.176,66 al netto di Iva", IT],
    ["Pag. 10 a 55", IT],
    ["da parte del concorrente, in capo al quale sussistono i requisiti", IT],
    ["L’importo stimato di tale opzione è pari a € 189.016,06 al netto di Iva", IT],
    ["This part of the guide describes the process in general terms.", { documentKind: "nist" }],
    ["These requirements apply to all components of nonfederal systems.", { documentKind: "nist" }],
  ];
  it.each(negatives)("%s", (sentence, ctx) => {
    expect(findCrossReferences(sentence, ctx)).toEqual([]);
  });

  it("does not read English prose as Italian units and vice versa", () => {
    expect(findCrossReferences("a comma 2 separated list", EU)).toEqual([]);
    expect(findCrossReferences("the Article 5 of the data", IT)).toEqual([]);
  });
});
