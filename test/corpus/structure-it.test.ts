import { expect, it } from "vitest";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";
import { expectWellFormed, labelsOf } from "./structure-invariants.ts";

describeCorpus("structure: Italian tender and legislation", () => {
  it("disciplinare di gara: numbered sections 1–32 with their subsections", async () => {
    const doc = await parseDocument(corpusPath("regulatory/it_disciplinare_di_gara_mauriziano_dlgs36-2023.pdf"));
    const sections = sectionDocument(doc, "disciplinare");
    expectWellFormed(sections, doc.pageCount);
    expect(labelsOf(sections, "section")).toEqual(Array.from({ length: 32 }, (_, i) => `Par. ${i + 1}`));
    const p31 = sections.find((s) => s.label === "Par. 3.1");
    expect(p31?.heading).toBe("DURATA");
    expect(p31?.path).toEqual(["Par. 3", "Par. 3.1"]);
  });

  it("capitolato tecnico: articles with inline titles", async () => {
    const doc = await parseDocument(corpusPath("regulatory/it_capitolato_tecnico_mauriziano.pdf"));
    const sections = sectionDocument(doc, "capitolato");
    expectWellFormed(sections, doc.pageCount);
    const articles = labelsOf(sections, "article");
    expect(articles.slice(0, 3)).toEqual(["Art. 1", "Art. 2", "Art. 3"]);
    expect(sections.find((s) => s.label === "Art. 2")?.heading).toBe("CONFORMITA’ ALLE NORME");
  });

  it("Codice dei contratti pubblici: Libro > Parte > Titolo > Art., articles 1–229", async () => {
    const doc = await parseDocument(corpusPath("text/it_dlgs_36-2023_codice_contratti_pubblici.txt"));
    const sections = sectionDocument(doc, "codice");
    expectWellFormed(sections, doc.pageCount);
    const articles = new Set(labelsOf(sections, "article"));
    for (let n = 1; n <= 229; n++) expect(articles.has(`Art. ${n}`), `Art. ${n}`).toBe(true);
    const a1 = sections.find((s) => s.label === "Art. 1");
    expect(a1?.heading).toBe("Principio del risultato.");
    expect(a1?.path).toEqual(["Libro I", "Parte I", "Titolo I", "Art. 1"]);
    // Pages follow the Gazzetta's printed pages (after the cover and page III): Art. 1 is printed
    // on page 2, Art. 229 on page 200.
    expect(a1?.pageStart).toBe(4);
    expect(sections.find((s) => s.label === "Art. 229")?.pageStart).toBe(202);
    for (const s of sections) expect(s.text, s.label).not.toContain("GAZZETTA UFFICIALE Serie generale");
  });

  it("table-only annex: falls back to size-bounded chunks", async () => {
    const doc = await parseDocument(corpusPath("regulatory/it_allegato_E_tabella_lotti_A3_table.pdf"));
    const sections = sectionDocument(doc, "allegato-e");
    expectWellFormed(sections, doc.pageCount);
    const chunks = sections.filter((s) => s.kind === "chunk");
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((s) => s.text.length <= 1500 && /^p\. 1 ¶\d+$/.test(s.label))).toBe(true);
  });
});
