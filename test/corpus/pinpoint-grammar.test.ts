import { beforeAll, expect, it } from "vitest";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import type { SentenceUnit } from "../../core/answer/compose/sentence-units.ts";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import type { Section } from "../../core/model/section-types.ts";
import { provisionLabel } from "../../core/structure/part-label.ts";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { checkDocument, documentUnits, labelBreaks } from "../../bench/lib/pinpoint-grammar.ts";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";

// Every pinpoint a citation may print exists in the document: in the CFR family, levels run
// (a) → (1) → (i) → (A) → (1) → (i) (one may be skipped: 45 CFR 164.404(c)(1) lists "(A)" with no
// "(i)"), the first opens a line of the provision, and a provision stored in parts keeps its
// pinpoints in its later parts. Checked on two CFR documents (HIPAA, an FAA airworthiness
// directive), for parts on two EU regulations, and for Italian lettere on a tender's Disciplinare
// and the procurement code (D.Lgs. 36/2023, plain text).

const resources = createLanguageResources();

async function sectioned(file: string, id: string): Promise<Section[]> {
  return sectionDocument(await parseDocument(corpusPath(`regulatory/${file}`)), id);
}

const unitsOf = (sections: readonly Section[]): Promise<Map<Section, SentenceUnit[]>> => documentUnits(sections, resources);

function unitStarting(units: Map<Section, SentenceUnit[]>, label: string, start: string): SentenceUnit | undefined {
  for (const [section, list] of units) if (provisionLabel(section.label) === label) for (const u of list) if (u.text.startsWith(start)) return u;
  return undefined;
}

describeCorpus("pinpoints of CFR documents follow the CFR's levels", () => {
  let hipaa: Map<Section, SentenceUnit[]>;
  let faa: Map<Section, SentenceUnit[]>;
  beforeAll(async () => {
    hipaa = await unitsOf(await sectioned("us_hhs_hipaa_admin_simplification_45cfr160_162_164.pdf", "hipaa"));
    faa = await unitsOf(await sectioned("us_fedreg_2020-17221_faa_nprm_14cfr39_3col.pdf", "faa"));
  }, 300_000);

  it("every citable pinpoint of a § provision has the CFR's order and opens a line of it", () => {
    for (const units of [hipaa, faa]) {
      const reports = checkDocument(units).filter((r) => r.family === "cfr");
      expect(reports.reduce((n, r) => n + r.distinct, 0)).toBeGreaterThan(30);
      const breaks = reports.flatMap((r) => r.breaks.map((b) => `${b.label}${b.pinpoint}: ${b.sentence}`));
      expect(breaks, breaks.join("\n")).toEqual([]);
    }
  });

  it("keeps every level: (e) after definitions, the fifth level, spaced and dash-run markers, a later part", () => {
    expect(unitStarting(hipaa, "§ 164.504", "(e)(1) Standard")?.citable).toBe("(e)(1)");
    expect(unitStarting(hipaa, "§ 164.504", "(2) The person notifies the business associate")?.citable).toBe("(e)(4)(ii)(B)(2)");
    // The second part of § 164.504 opens inside (e)(3).
    expect(unitStarting(hipaa, "§ 164.504", "(ii) If a business associate is required by law")?.citable).toBe("(e)(3)(ii)");
    expect(unitStarting(hipaa, "§ 164.404", "(D) A brief description of what the covered entity")?.citable).toBe("(c)(1)(D)");
    expect(unitStarting(hipaa, "§ 160.534", "(i) Affirmative defense")?.citable).toBe("(b)(1)(i)");
    // A definition's own points are not paragraphs of the section.
    expect(unitStarting(hipaa, "§ 160.202", "(1) A covered entity or business associate would find it impossible")?.citable).toBe(null);
    // The FAA directive's "(i)" after "(h)" is its paragraph (i), and "(i) of this AD" a wrapped reference.
    expect(unitStarting(faa, "§ 39.13", "(i) Minimum Equipment List")?.citable).toBe("(i)");
    expect(unitStarting(faa, "§ 39.13", "(2) In the Operating Procedures chapter")?.citable).toBe("(h)(2)");
  });
});

describeCorpus("pinpoints of EU regulations stored in parts", () => {
  it("a definition in a later part of GDPR Art. 4 and DORA Art. 3 keeps its number", async () => {
    const gdpr = await unitsOf(await sectioned("eu_gdpr_2016-679_council_first_reading_position_5419-16.pdf", "gdpr"));
    const dora = await unitsOf(await sectioned("eu_dora_2022-2554_OJ_L333.pdf", "dora"));
    expect(unitStarting(gdpr, "Article 4", "(21) 'supervisory authority' means")?.citable).toBe("(21)");
    expect(unitStarting(gdpr, "Article 4", "(a) the controller or processor is established on the territory")?.citable).toBe("(22)(a)");
    expect(unitStarting(dora, "Article 3", "(60) ‘microenterprise’ means")?.citable).toBe("(60)");
  }, 300_000);
});

describeCorpus("lettere of Italian provisions", () => {
  it("every printed lettera of a tender's sections and of the code's articles follows its grammar and opens a line", async () => {
    const disciplinare = await unitsOf(await sectioned("it_disciplinare_di_gara_mauriziano_dlgs36-2023.pdf", "disciplinare"));
    const codice = await unitsOf(sectionDocument(await parseDocument(corpusPath("text/it_dlgs_36-2023_codice_contratti_pubblici.txt")), "codice"));
    for (const units of [disciplinare, codice]) {
      const reports = checkDocument(units);
      const breaks = reports.flatMap((r) => r.breaks.filter((b) => b.pinpoint.includes("(lett. ")).map((b) => `${b.label}${b.pinpoint}: ${b.sentence}`));
      expect(breaks, breaks.join("\n")).toEqual([]);
    }
    expect(unitStarting(disciplinare, "Par. 7", "b) possedere i requisiti")?.citable).toBe("(lett. b)");
    expect(unitStarting(disciplinare, "Par. 7", "È sanabile, mediante soccorso istruttorio, la mancata produzione delle dichiarazioni")?.citable).toBe(null);
    expect(unitStarting(codice, "Art. 14", "b) euro 140.000")?.citable).toBe("(1)(lett. b)");
    expect(unitStarting(codice, "Art. 14", "c) euro 1.000.000")?.citable).toBe("(2)(lett. c)");
  }, 300_000);
});

describeCorpus("pinpoints of NIST publications", () => {
  it("requirements and sections follow their numbering; lists inside them are pinned only where their grammar holds", async () => {
    const sp171 = await sectioned("us_nist_sp800-171r2_cui_nonfederal.pdf", "sp171");
    const sp66 = await sectioned("us_nist_sp800-66r1_hipaa_security_rule_guide.pdf", "sp66");
    const sp30 = await sectioned("us_nist_sp800-30r1_risk_assessment.pdf", "sp30");
    for (const sections of [sp171, sp66, sp30]) {
      expect(labelBreaks(sections)).toEqual([]);
      const breaks = checkDocument(await unitsOf(sections)).flatMap((r) => r.breaks.map((b) => `${b.label}${b.pinpoint}: ${b.sentence}`));
      expect(breaks, breaks.join("\n")).toEqual([]);
    }
    expect(sp171.some((s) => s.label === "3.1.1")).toBe(true);
    const units66 = await unitsOf(sp66);
    // Key activities 1–3 of Section 4.19 are set in the footnotes' size above its footnote: body, not notes.
    expect(unitStarting(units66, "Section 4.19", "1. Contract Must Provide that")?.citable).toBe("(1)");
    expect(unitStarting(units66, "Section 4.19", "4. Contract Must Provide that")?.citable).toBe("(4)");
    // A second list's "(i)" after a lead-in was read inside the first's: the section is cited.
    const units30 = await unitsOf(sp30);
    expect(unitStarting(units30, "Section 2.3.1", "(i) the intent and method")?.citable).toBe("(i)");
    expect(unitStarting(units30, "Section 2.3.1", "(i) hostile cyber or physical attacks")?.citable).toBe(null);
  }, 300_000);
});
