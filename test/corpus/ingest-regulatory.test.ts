import { beforeAll, expect, it } from "vitest";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import type { ParsedDocument, TextLine } from "../../core/model/ingest-types.ts";
import { corpusPath, describeCorpus, readManifest } from "../helpers/corpus.ts";
import type { ManifestEntry } from "../helpers/corpus.ts";

// Ingestion of the real regulations: page counts, languages, running headers gone, footnotes
// apart, and multi-column pages in sentence order. Each file is parsed once (~10 s in all).

const DORA = "regulatory/eu_dora_2022-2554_OJ_L333.pdf";
const GDPR = "regulatory/eu_gdpr_2016-679_council_first_reading_position_5419-16.pdf";
const FAA = "regulatory/us_fedreg_2020-17221_faa_nprm_14cfr39_3col.pdf";
const HIPAA = "regulatory/us_hhs_hipaa_admin_simplification_45cfr160_162_164.pdf";
const NIST171 = "regulatory/us_nist_sp800-171r2_cui_nonfederal.pdf";
const NIST30 = "regulatory/us_nist_sp800-30r1_risk_assessment.pdf";
const CODICE = "text/it_dlgs_36-2023_codice_contratti_pubblici.txt";

const docs = new Map<string, ParsedDocument>();
let entries: ManifestEntry[] = [];

function doc(relative: string): ParsedDocument {
  const d = docs.get(relative);
  if (d === undefined) throw new Error(`${relative} was not parsed`);
  return d;
}

function bodyLines(d: ParsedDocument): TextLine[] {
  return d.pages.flatMap((p) => p.lines);
}

/** A page's body as one string, lines joined by spaces (how sectioning reads it). */
function pageText(d: ParsedDocument, page: number): string {
  return (d.pages[page - 1]?.lines ?? []).map((l) => l.text).join(" ");
}

describeCorpus("ingest: regulatory PDFs and texts", () => {
  beforeAll(async () => {
    entries = readManifest().filter((e) => e.path.startsWith("regulatory/") || e.path.startsWith("text/"));
    for (const entry of entries) docs.set(entry.path, await parseDocument(corpusPath(entry.path)));
  }, 600_000);

  it("parses every file with the manifest's page count and language", () => {
    expect(entries.length).toBeGreaterThanOrEqual(10);
    for (const entry of entries) {
      const d = doc(entry.path);
      if (entry.pages !== undefined && entry.pages !== null) expect(d.pageCount, entry.path).toBe(entry.pages);
      expect(d.pages.length, entry.path).toBe(d.pageCount);
      if (entry.lang !== undefined) expect(d.language, entry.path).toBe(entry.lang);
      expect(d.sha256, entry.path).toBe(entry.sha256);
      expect(d.title.length, entry.path).toBeGreaterThan(3);
    }
  });

  it("produces sane lines: non-empty, inside the page, numbered by page", () => {
    const bad: string[] = [];
    for (const entry of entries.filter((e) => e.path.endsWith(".pdf"))) {
      for (const page of doc(entry.path).pages) {
        for (const line of [...page.lines, ...page.footnotes]) {
          const { x, y, width, height } = line.box;
          const ok =
            line.text.trim().length > 0 &&
            line.page === page.number &&
            line.fontSize > 0 &&
            x > -5 &&
            y > -5 &&
            x + width < page.width + 5 &&
            y + height < page.height + 5;
          if (!ok) bad.push(`${entry.path} p${page.number}: ${JSON.stringify(line)}`);
        }
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it("removes the Official Journal running header from DORA", () => {
    const texts = bodyLines(doc(DORA)).map((l) => l.text.trim());
    expect(texts.filter((t) => t === "Official Journal of the European Union")).toEqual([]);
    expect(texts.filter((t) => t.includes("L 333/"))).toEqual([]);
    expect(texts.filter((t) => t === "EN" || t === "27.12.2022")).toEqual([]);
    // The words still occur where the body uses them.
    expect(texts.some((t) => t.includes("publication of the decision in the Official Journal of the European Union"))).toBe(true);
  });

  it("keeps DORA's footnotes apart from the body", () => {
    const d = doc(DORA);
    expect(d.pages[0]?.footnotes.map((l) => l.text)).toContain("(1) OJ C 343, 26.8.2021, p. 1.");
    expect(pageText(d, 1)).not.toContain("OJ C 343");
    expect(d.title).toMatch(/^REGULATION \(EU\) 2022\/2554 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL/);
  });

  it("removes the Council document footer (5419/16, initials, DGD, EN) from the GDPR", () => {
    const d = doc(GDPR);
    const later = d.pages.slice(1).flatMap((p) => p.lines.map((l) => l.text.trim()));
    expect(later.filter((t) => t.includes("5419/16"))).toEqual([]);
    expect(later.filter((t) => t === "EN" || /^DGD\b/.test(t))).toEqual([]);
    expect(d.pages[1]?.footnotes[0]?.text).toBe("1 OJ C 229, 31.7.2012, p. 90.");
  });

  it("reads the Federal Register 3-column pages in sentence order", () => {
    const d = doc(FAA);
    const page2 = pageText(d, 2);
    // Column 1 bottom → column 2 top, and column 2 bottom → column 3 top.
    expect(page2).toContain("stall warning activation, airspeed disagree alert, and altitude disagree alert");
    expect(page2).toContain("the manufacturer, the operator, and the Ethiopian Civil Aviation Authority (ECAA).");
    // Footnotes at the column bottoms are not in the body.
    expect(page2).not.toContain("Preliminary KNKT");
    expect(d.pages[1]?.footnotes.some((l) => l.text.startsWith("1 Preliminary KNKT"))).toBe(true);
    expect(new Set(d.pages[1]?.lines.map((l) => l.column))).toEqual(new Set([0, 1, 2]));
  });

  it("reads the HIPAA 3-column body in sentence order", () => {
    const page12 = pageText(doc(HIPAA), 12);
    expect(page12).toContain("CMS stands for Centers for Medicare & Medicaid Services within the Department of Health and Human Services.");
    expect(page12).toContain("digital memory medium, such as magnetic tape or disk, optical disk, or digital memory card;");
  });

  it("removes NIST's repeated margin and footer lines but keeps the text", () => {
    const d = doc(NIST171);
    const texts = bodyLines(d).map((l) => l.text);
    // Printed up the margin of every page; the cover pages also say it in the body.
    const margin = "This publication is available free of charge from: https://doi.org/10.6028/NIST.SP.800-171r2";
    expect(texts.filter((t) => t === margin)).toEqual([]);
    expect(d.pages.slice(3).flatMap((p) => p.lines.filter((l) => l.text.startsWith("This publication is available")))).toEqual([]);
    expect(texts.join(" ")).toContain("Controlled Unclassified Information");
  });

  it("keeps the GDPR recital numbers that open pages at the header's spot", () => {
    const d = doc(GDPR);
    // Pages 4–12 each open with a recital number at the same place ("(10)" top-left).
    expect(d.pages.slice(3, 12).map((p) => /^\((\d+)\) /.exec(p.lines[0]?.text ?? "")?.[1])).toEqual(["4", "6", "9", "10", "11", "13", "14", "17", "19"]);
    const recitals = d.pages.slice(0, 110).flatMap((p) => p.lines.flatMap((l) => /^\((\d+)\) /.exec(l.text)?.[1] ?? []));
    expect(recitals.map(Number)).toEqual(Array.from({ length: 173 }, (_, i) => i + 1));
    // Lettered points at a page top are content too ("(c)" is not a roman page number).
    expect(d.pages[125]?.lines[0]?.text).toMatch(/^\(c\) processing is necessary to protect the vital interests/);
  });

  it("keeps NIST chapter and appendix headings that share words with the running footer", () => {
    const d = doc(NIST171);
    const texts = bodyLines(d).map((l) => l.text.trim());
    expect(d.pages[20]?.lines[0]?.text).toBe("CHAPTER THREE");
    expect(d.pages[72]?.lines[0]?.text).toBe("APPENDIX D");
    expect(d.pages[95]?.lines[0]?.text).toBe("APPENDIX E");
    // The footer ("CHAPTER THREE … PAGE 9") and the running header are gone everywhere.
    expect(texts.filter((t) => t === "CHAPTER THREE")).toHaveLength(1);
    expect(texts.filter((t) => /^PAGE \d+$/.test(t) || t === "SP 800-171, REVISION 2")).toEqual([]);
    expect(bodyLines(doc(NIST30)).some((l) => l.page === 51 && l.text.trim() === "APPENDIX B")).toBe(true);
  });

  it("drops the Gazzetta Ufficiale page headers of the Codice text and pages it like the print", () => {
    const d = doc(CODICE);
    const texts = bodyLines(d).map((l) => l.text);
    expect(texts.filter((t) => /Supplemento ordinario n\. 12\/L/.test(t))).toEqual([]);
    // Cover, contents (page III), then printed pages 1–201.
    expect(d.pageCount).toBe(203);
    expect(d.pages[3]?.lines.some((l) => /^Articolo 1 \.$/.test(l.text))).toBe(true);
    const articles = new Set(texts.flatMap((t) => /^\s*Articolo (\d+)\s*\.?$/.exec(t)?.[1] ?? []));
    expect(articles.size).toBe(229);
  });

  it("joins words hyphenated across lines", () => {
    for (const relative of [DORA, GDPR, FAA, HIPAA]) {
      const lines = bodyLines(doc(relative));
      // A lowercase word split at a line end, continued by a lowercase word on the next line.
      const dangling = lines.filter((l, i) => /\p{Ll}{2}-$/u.test(l.text) && /^\p{Ll}/u.test(lines[i + 1]?.text ?? ""));
      expect(
        dangling.map((l) => `${l.page}: ${l.text}`),
        relative,
      ).toEqual([]);
    }
    expect(pageText(doc(DORA), 2)).toContain("the post-financial crisis regulatory agenda");
  });
});
