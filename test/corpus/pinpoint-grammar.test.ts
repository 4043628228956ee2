import { beforeAll, expect, it } from "vitest";
import { earlierPartsText } from "../../core/answer/earlier-parts.ts";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import { sentenceUnits, type SentenceUnit } from "../../core/answer/sentence-units.ts";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import type { Section } from "../../core/model/section-types.ts";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";

// Every pinpoint a citation may print exists in the document: in the CFR family, levels run
// (a) → (1) → (i) → (A) → (1) → (i) (one may be skipped: 45 CFR 164.404(c)(1) lists "(A)" with no
// "(i)"), the first opens a line of the provision, and a provision stored in parts keeps its
// pinpoints in its later parts. Checked on two CFR documents (HIPAA, an FAA airworthiness
// directive) and, for parts, on two EU regulations.

const resources = createLanguageResources();
const CFR_LEVELS = ["letter", "digit", "roman", "upper", "digit", "roman"] as const;

function levelFits(value: string, level: (typeof CFR_LEVELS)[number]): boolean {
  if (level === "digit") return /^\d+$/.test(value);
  if (level === "upper") return /^[A-Z]$/.test(value);
  if (level === "roman") return /^[ivxlc]+$/.test(value);
  return /^[a-z]{1,2}$/.test(value);
}

/** The pinpoint follows the CFR's order of levels, skipping at most one at a time. */
function followsCfr(pinpoint: string): boolean {
  const values = [...pinpoint.matchAll(/\(([^)]+)\)/g)].map((m) => m[1] ?? "");
  let at = -1;
  for (const value of values) {
    const next = [at + 1, at + 2].find((j) => j < CFR_LEVELS.length && (j === 0 || at >= 0) && levelFits(value, CFR_LEVELS[j] ?? "letter"));
    if (next === undefined || (at === -1 && next !== 0)) return false;
    at = next;
  }
  return values.length > 0;
}

async function sectioned(file: string, id: string): Promise<Section[]> {
  return sectionDocument(await parseDocument(corpusPath(`regulatory/${file}`)), id);
}

/** Units of every section, each read after its provision's earlier parts (as engine.ask does). */
async function unitsOf(sections: readonly Section[]): Promise<Map<Section, SentenceUnit[]>> {
  const byId = new Map(sections.map((s) => [s.id, s]));
  const document = {} as DocumentRecord;
  const store = { getSectionsByIds: async (ids: string[]) => ids.flatMap((id) => (byId.has(id) ? [{ section: byId.get(id) as Section, document }] : [])) };
  const before = await earlierPartsText(store, sections);
  return new Map(sections.map((s) => [s, sentenceUnits(s.text, resources, { label: s.label, ...(before.has(s.id) ? { before: before.get(s.id) } : {}) })]));
}

function unitStarting(units: Map<Section, SentenceUnit[]>, label: string, start: string): SentenceUnit | undefined {
  for (const [section, list] of units) if (section.label.replace(/ \(part \d+\)$/, "") === label) for (const u of list) if (u.text.startsWith(start)) return u;
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
      let cited = 0;
      const broken: string[] = [];
      for (const [section, list] of units) {
        if (!section.label.startsWith("§")) continue;
        const provision = [...units.keys()].filter(
          (s) => s.documentId === section.documentId && s.label.replace(/ \(part \d+\)$/, "") === section.label.replace(/ \(part \d+\)$/, ""),
        );
        const text = provision.map((s) => s.text).join("\n");
        for (const u of list) {
          if (u.citable === null) continue;
          cited++;
          const first = /^\(([^)]+)\)/.exec(u.citable)?.[1] ?? "";
          const opensLine = new RegExp(String.raw`(?:^|\n)\s*\(${first}\)`).test(text);
          if (!followsCfr(u.citable) || !opensLine) broken.push(`${section.label}${u.citable}: ${u.text.slice(0, 60)}`);
        }
      }
      expect(cited).toBeGreaterThan(50);
      // A numbered list inside § 162.920 ("51. …" then "(1) … (2)") is the only known exception.
      expect(
        broken.filter((b) => !b.startsWith("§ 162.920")),
        broken.join("\n"),
      ).toEqual([]);
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
