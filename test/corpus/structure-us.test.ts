import { beforeAll, expect, it } from "vitest";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import { sectionDocument } from "../../core/structure/section-document.ts";
import type { Section } from "../../core/model/section-types.ts";
import type { ParsedDocument } from "../../core/model/ingest-types.ts";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";
import { expectWellFormed, labelsOf } from "./structure-invariants.ts";

describeCorpus("structure: HIPAA (45 CFR 160/162/164)", () => {
  let doc: ParsedDocument;
  let sections: Section[];
  beforeAll(async () => {
    doc = await parseDocument(corpusPath("regulatory/us_hhs_hipaa_admin_simplification_45cfr160_162_164.pdf"));
    sections = sectionDocument(doc, "hipaa");
  });

  it("is well formed", () => expectWellFormed(sections, doc.pageCount));

  it("yields the CFR sections once each, with their titles, under Part and Subpart", () => {
    const labels = labelsOf(sections, "section");
    for (const label of ["§ 160.103", "§ 164.308", "§ 164.312", "§ 164.502", "§ 162.100"]) {
      expect(
        labels.filter((l) => l === label),
        label,
      ).toHaveLength(1);
    }
    const s308 = sections.find((s) => s.label === "§ 164.308");
    expect(s308?.heading).toBe("Administrative safeguards.");
    expect(s308?.path).toEqual(["Part 164", "Subpart C", "§ 164.308"]);
    expect(s308?.text.startsWith("(a)")).toBe(true);
    expect(labelsOf(sections, "part")).toEqual(["Part 160", "Part 162", "Part 164"]);
  });

  it("does not take table-of-contents entries as sections", () => {
    // The contents pages (2–9) precede Part 160's text on p. 10.
    expect(sections.filter((s) => s.kind === "section").every((s) => s.pageStart >= 10)).toBe(true);
  });
});

describeCorpus("structure: NIST SP 800-171r2", () => {
  let doc: ParsedDocument;
  let sections: Section[];
  beforeAll(async () => {
    doc = await parseDocument(corpusPath("regulatory/us_nist_sp800-171r2_cui_nonfederal.pdf"));
    sections = sectionDocument(doc, "sp800-171");
  });

  it("is well formed", () => expectWellFormed(sections, doc.pageCount));

  it("yields the 110 requirements 3.1.1–3.14.7 once each", () => {
    const perFamily = [22, 3, 9, 9, 11, 3, 6, 9, 2, 6, 3, 4, 16, 7];
    const expected = perFamily.flatMap((n, f) => Array.from({ length: n }, (_, i) => `3.${f + 1}.${i + 1}`));
    expect(labelsOf(sections, "requirement")).toEqual(expected);
    const r = sections.find((s) => s.label === "3.1.1");
    expect(r?.heading).toMatch(/^Limit system access to authorized users/);
    expect(r?.path.at(-2)).toBe("Section 3.1");
  });

  it("yields the families 3.1–3.14 and appendices", () => {
    const families = sections.filter((s) => /^Section 3\.\d+$/.test(s.label)).map((s) => s.label);
    expect(families).toEqual(Array.from({ length: 14 }, (_, i) => `Section 3.${i + 1}`));
    expect(sections.find((s) => s.label === "Section 3.1")?.heading).toBe("ACCESS CONTROL");
    expect(labelsOf(sections, "appendix").slice(0, 3)).toEqual(["Appendix A", "Appendix B", "Appendix C"]);
  });

  // "CHAPTER THREE" and "APPENDIX D/E" open their first page with the same words the footers of
  // those pages repeat: a heading is not a running footer just because it shares its words.
  it("keeps chapter and appendix headings that share words with the running footers", () => {
    const chapter3 = sections.find((s) => s.label === "Chapter 3");
    expect(chapter3).toBeDefined();
    const families = sections.filter((s) => /^Section 3\.\d+$/.test(s.label));
    expect(families.every((s) => s.parentId === chapter3?.id)).toBe(true);
    expect(labelsOf(sections, "appendix")).toEqual(expect.arrayContaining(["Appendix D", "Appendix E"]));
  });
});
