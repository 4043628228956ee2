import { describe, expect, it } from "vitest";
import { documentAliases } from "../../core/graph/document-aliases.ts";
import { documentInstruments, registryAliases } from "../../core/names/document-instruments.ts";
import { aliasEdit, effectiveAliases } from "../../core/model/document-names.ts";
import { identifierKey, identifierKeys } from "../../core/names/instrument-keys.ts";
import { findInstrumentMentions, foldWords, instrumentForAlias } from "../../core/names/instrument-names.ts";
import { INSTRUMENTS, instrumentById } from "../../core/names/instrument-registry.ts";
import type { Section } from "../../core/model/section-types.ts";

// The registry of instruments (core/names/): its data is consistent, identifiers in any of their
// printed forms meet in one key, and imported documents are matched from what they say of
// themselves. The titles and openings below are those of the corpus PDFs, as read at import.

const opening = (text: string): Section[] => [
  {
    id: "d:preamble",
    documentId: "d",
    ordinal: 0,
    kind: "preamble",
    label: "Preamble",
    heading: "",
    path: [],
    parentId: null,
    level: 0,
    text,
    pageStart: 1,
    pageEnd: 1,
    spans: [],
  },
];
const ids = (title: string, text = ""): string[] =>
  documentInstruments(title, opening(text))
    .map((d) => d.entry.id)
    .sort();

describe("the instrument registry's data", () => {
  it("has every instrument the auditors cite, each identifier parsing to a key owned by one instrument", () => {
    for (const id of [
      "eu-dora",
      "eu-gdpr",
      "eu-nis2",
      "eu-mica",
      "eu-ai-act",
      "eu-psd2",
      "eu-eidas",
      "eu-eidas2",
      "us-hipaa",
      "us-hipaa-privacy-rule",
      "us-hipaa-security-rule",
      "us-hipaa-breach-rule",
      "us-glba",
      "us-sox",
      "us-ffiec-handbook",
      "us-nist-sp-800-53",
      "us-nist-sp-800-171",
      "us-nist-sp-800-66",
      "us-nist-csf",
      "uk-gdpr",
      "uk-dpa-2018",
      "iso-27001",
      "iso-27002",
      "it-codice-contratti-2023",
      "it-codice-contratti-2016",
      "it-codice-privacy",
    ]) {
      expect(instrumentById(id), id).toBeDefined();
    }
    const owner = new Map<string, string>();
    for (const entry of INSTRUMENTS) {
      for (const identifier of entry.identifiers) {
        const key = identifierKey(identifier);
        expect(key, `${entry.id}: ${identifier}`).not.toBeNull();
        expect(owner.get(key ?? "") ?? entry.id, `${identifier} belongs to two instruments`).toBe(entry.id);
        owner.set(key ?? "", entry.id);
      }
      for (const child of entry.contains ?? []) expect(instrumentById(child), `${entry.id} contains ${child}`).toBeDefined();
    }
  });

  it("gives no name to two instruments, and every name finds its own instrument", () => {
    const owner = new Map<string, string>();
    for (const entry of INSTRUMENTS) {
      for (const name of entry.names) {
        const folded = foldWords(name);
        expect(owner.get(folded) ?? entry.id, `${name} belongs to two instruments`).toBe(entry.id);
        owner.set(folded, entry.id);
        expect(instrumentForAlias(name)?.id, name).toBe(entry.id);
      }
    }
  });
});

describe("identifiers in every printed form", () => {
  it.each([
    ["Regulation (EU) 2022/2554", "regulation:2022/2554"],
    ["Regolamento (UE) 2022/2554", "regulation:2022/2554"],
    ["Reg. 2022/2554", "regulation:2022/2554"],
    ["CELEX 32022R2554", "regulation:2022/2554"],
    ["32016R0679", "regulation:2016/679"],
    ["Regulation (EU) No 910/2014", "regulation:910/2014"],
    ["Directive (EU) 2022/2555", "directive:2022/2555"],
    ["32022L2555", "directive:2022/2555"],
    ["NIST SP 800-171 Rev. 2", "nist-sp:800-171"],
    ["NIST Special Publication 800-66 Revision 1", "nist-sp:800-66"],
    ["45 CFR Part 164 Subpart C", "cfr:45/164/C"],
    ["D.Lgs. 36/2023", "dlgs:36/2023"],
    ["decreto legislativo 31 marzo 2023, n. 36", "dlgs:36/2023"],
    ["ISO/IEC 27001:2022", "iso:27001"],
    ["Pub. L. 104-191", "publ:104-191"],
  ])("%s → %s", (text, key) => {
    expect(identifierKeys(text).map((k) => k.key)).toContain(key);
  });

  it("reads every part of a CFR citation", () => {
    expect(identifierKeys("45 CFR Parts 160, 162, and 164").map((k) => k.key)).toEqual(["cfr:45/160", "cfr:45/162", "cfr:45/164"]);
  });
});

describe("finding instruments in a question", () => {
  const named = (text: string): string[] => findInstrumentMentions(text).map((m) => m.entry.id);

  it("by short name in any case, by title, by identifier; the longest overlapping name wins", () => {
    expect(named("Under dora, who reports?")).toEqual(["eu-dora"]);
    expect(named("What does the Digital Operational Resilience Act say?")).toEqual(["eu-dora"]);
    expect(named("What does the UK GDPR say, compared with the GDPR?")).toEqual(["uk-gdpr", "eu-gdpr"]);
    expect(named("Which controls does NIST SP 800-53 Rev. 5 list?")).toEqual(["us-nist-sp-800-53"]);
    expect(named("What are the administrative safeguards under the security rule?")).toEqual(["us-hipaa-security-rule"]);
    expect(named("Cosa prevede il Codice dei contratti pubblici?")).toEqual(["it-codice-contratti-2023"]);
  });

  it("acronyms that are also words count only as capitalised", () => {
    expect(named("Non è mica obbligatorio?")).toEqual([]);
    expect(named("Which crypto-asset services does MiCA cover?")).toEqual(["eu-mica"]);
    expect(named("a pair of sox")).toEqual([]);
  });
});

describe("matching imported documents to the registry", () => {
  it("an EU act by its number in the title, not by the acts it amends", () => {
    expect(
      ids(
        "REGULATION (EU) 2022/2554 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL of 14 December 2022 on digital operational resilience for the financial sector and amending Regulations (EC) No 1060/2009, (EU) No 648/2012",
      ),
    ).toEqual(["eu-dora"]);
  });

  it("the GDPR's Council position, which prints “2016/…”, by its title's words", () => {
    expect(
      ids(
        "REGULATION (EU) 2016/… OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL of on the protection of natural persons with regard to the processing of personal data and on the free movement of such data, and…",
      ),
    ).toEqual(["eu-gdpr"]);
  });

  it("the HIPAA regulation text is HIPAA and each of its rules; NIST's guide is about the Security Rule only", () => {
    expect(
      ids(
        "HIPAA Administrative Simplification",
        "U.S. Department of Health and Human Services Office for Civil Rights HIPAA Administrative Simplification Regulation Text 45 CFR Parts 160, 162, and 164 (Unofficial Version)",
      ),
    ).toEqual(["us-hipaa", "us-hipaa-breach-rule", "us-hipaa-privacy-rule", "us-hipaa-security-rule"]);
    expect(
      ids(
        "NIST SP 800-66 Revision 1, An Introductory Resource Guide for Implementing the Health Insurance Portability and Accountability Act (HIPAA) Security Rule",
      ),
    ).toEqual(["us-hipaa", "us-hipaa-security-rule", "us-nist-sp-800-66"]);
    expect(
      registryAliases(
        "Protecting Controlled Unclassified Information in Nonfederal Systems",
        opening("NIST Special Publication 800-171 Revision 2 Protecting Controlled Unclassified Information"),
      ),
    ).toEqual(["NIST SP 800-171", "SP 800-171"]);
  });

  it("a tender held under the Codice dei contratti is reached by that name; a notice about 14 CFR is not in the registry", () => {
    expect(
      ids(
        "GARA EUROPEA A PROCEDURA APERTA FINALIZZATA ALLA CONCLUSIONE DI ACCORDI QUADRO AI SENSI DELL’ART. 59 COMMA 4 LETTERA A) DEL D.LGS. 36/2023 E S.M.I.",
      ),
    ).toEqual(["it-codice-contratti-2023"]);
    expect(ids("Proposed Rules", "DEPARTMENT OF TRANSPORTATION Federal Aviation Administration 14 CFR Part 39")).toEqual([]);
  });

  it("a Federal Register document answers to its agency's acronym (FAA, OCR), other documents to none", () => {
    const caption = (text: string): Section[] => opening(text).map((s) => ({ ...s, kind: "heading", label: "Agency", id: "d:agency" }));
    const faa = [
      ...opening("DEPARTMENT OF TRANSPORTATION Federal Aviation Administration 14 CFR Part 39"),
      ...caption("Federal Aviation Administration (FAA), DOT."),
    ];
    expect(registryAliases("Airworthiness Directives; The Boeing Company Airplanes", faa)).toEqual(["FAA"]);
    const hhs = caption("Office for Civil Rights (OCR), Department of Health and Human Services.");
    expect(registryAliases("Modifications to the HIPAA Privacy, Security, Enforcement, and Breach Notification Rules", hhs)).toEqual(
      expect.arrayContaining(["OCR", "HIPAA"]),
    );
    // A caption without an acronym, or an "Agency" nowhere: nothing added.
    expect(registryAliases("A notice", caption("Office of the Secretary, HHS."))).toEqual([]);
    expect(registryAliases("Archives Act", opening("The agency (the Archive) keeps records."))).toEqual([]);
  });

  it("an operative first article citing another act does not make the document that act", () => {
    const [preamble] = opening("Operators shall report incidents under Article 33 of Regulation (EU) 2016/679.");
    const article: Section[] = preamble === undefined ? [] : [{ ...preamble, kind: "article", label: "Article 1" }];
    expect(documentInstruments("Archives Act", article)).toEqual([]);
    expect(ids("Archives Act", "Operators shall report incidents under Article 33 of Regulation (EU) 2016/679.")).toEqual(["eu-gdpr"]);
  });

  it("citations resolve to the GDPR by its number even when its own text does not print it", () => {
    const aliases = documentAliases(
      "REGULATION (EU) 2016/… OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL on the protection of natural persons with regard to the processing of personal data and on the free movement of such data",
      [],
    );
    expect(aliases).toEqual(expect.arrayContaining(["GDPR", "Regulation (EU) 2016/679"]));
  });
});

describe("a document's names as the user edits them", () => {
  const doc = { aliases: ["DORA", "Regulation (EU) 2022/2554"] };

  it("registry names removed are hidden, others added as the user's; the effective list is what was asked for", () => {
    const edit = aliasEdit(doc, ["Regulation (EU) 2022/2554", " the  resilience act ", "dora act"]);
    expect(edit).toEqual({ userAliases: ["the resilience act", "dora act"], hiddenAliases: ["DORA"] });
    expect(effectiveAliases({ ...doc, ...edit })).toEqual(["Regulation (EU) 2022/2554", "the resilience act", "dora act"]);
    expect(aliasEdit(doc, ["dora", "regulation (eu) 2022/2554"])).toEqual({ userAliases: [], hiddenAliases: [] });
  });
});
