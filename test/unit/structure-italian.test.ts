import { describe, expect, it } from "vitest";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { body, fixtureDoc } from "./structure-fixture.ts";

describe("sectionDocument on Italian legislation (plain text)", () => {
  const doc = fixtureDoc(
    [
      [
        { text: "DECRETO LEGISLATIVO 31 marzo 2023, n. 36." },
        { text: " LIBRO I" },
        { text: "DEI PRINCIPI, DELLA DIGITALIZZAZIONE" },
        { text: "PARTE I" },
        { text: "DEI PRINCIPI" },
        { text: "Titolo I " },
        { text: "I principi generali" },
        { text: "Articolo 1 ." },
        { text: "Principio del risultato." },
        { text: "1. Le stazioni appaltanti perseguono il risultato dell’affidamento del contratto" },
        { text: "con la massima tempestività." },
        { text: "2. La concorrenza è funzionale a conseguire il miglior risultato." },
        { text: "Articolo 2." },
        { text: "Principio della fiducia." },
        { text: "1. L’attribuzione e l’esercizio del potere si fondano sulla fiducia. Si veda" },
        { text: "Titolo V del Libro V del codice civile." },
        { text: "Titolo II " },
        { text: "L’ambito di applicazione" },
        { text: "Articolo 13." },
        { text: "Ambito di applicazione." },
        { text: "1. Le disposizioni del codice si applicano ai contratti." },
        { text: "PARTE II" },
        { text: "DELLA DIGITALIZZAZIONE" },
        { text: "Titolo I " },
        { text: "Principi" },
        { text: "Articolo 19." },
        { text: "Principi e diritti digitali." },
        { text: "1. Le stazioni appaltanti assicurano la digitalizzazione." },
      ],
    ],
    { format: "text", language: "it" },
  );
  const sections = sectionDocument(doc, "codice");
  const byPath = new Map(sections.map((s) => [s.path.join(" > "), s]));

  it("nests Libro > Parte > Titolo > Articolo with Italian citation labels", () => {
    expect(sections.map((s) => s.label)).toEqual([
      "Preamble",
      "Libro I",
      "Parte I",
      "Titolo I",
      "Art. 1",
      "Art. 2",
      "Titolo II",
      "Art. 13",
      "Parte II",
      "Titolo I",
      "Art. 19",
    ]);
    expect(byPath.get("Libro I > Parte I > Titolo I > Art. 1")?.heading).toBe("Principio del risultato.");
    expect(byPath.get("Libro I > Parte II > Titolo I > Art. 19")?.kind).toBe("article");
    expect(byPath.get("Libro I > Parte I")?.kind).toBe("part");
    expect(byPath.get("Libro I")?.kind).toBe("book");
  });

  it("restarts Titolo numbering inside each Parte and keeps ids unique", () => {
    expect(sections.filter((s) => s.label === "Titolo I")).toHaveLength(2);
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
  });

  it("splits paragraphs at comma numbers and keeps wrapped references as text", () => {
    const art1 = byPath.get("Libro I > Parte I > Titolo I > Art. 1");
    expect(art1?.text.split("\n")).toHaveLength(2);
    expect(byPath.get("Libro I > Parte I > Titolo I > Art. 2")?.text).toContain("Titolo V del Libro V");
  });
});

describe("sectionDocument on a tender specification", () => {
  it("reads 'Art. N – TITLE' headings with inline titles", () => {
    const doc = fixtureDoc(
      [
        [
          { text: "CAPITOLATO TECNICO", bold: true, centred: true, size: 11 },
          { text: "Art 1 DESCRIZIONE DEI LOTTI", bold: true, centred: true, size: 11 },
          body("La fornitura ha per oggetto protesi metalliche per endoscopia digestiva, come da tabella."),
          body("Si veda l’art. 59 comma 4 del decreto e l’"),
          body("Art. 2 comma 1 del presente capitolato per le condizioni generali di fornitura."),
          { text: "Art. 2 – CONFORMITA’ ALLE NORME", bold: true, centred: true, size: 11 },
          body("I prodotti devono essere conformi alla normativa vigente in materia di dispositivi medici."),
          { text: "ART. 3 CONFEZIONAMENTO", bold: true, centred: true, size: 11 },
          body("Il confezionamento deve garantire la sterilità del prodotto fino alla data di scadenza."),
        ],
      ],
      { language: "it" },
    );
    const sections = sectionDocument(doc, "cap");
    expect(sections.map((s) => [s.label, s.heading])).toEqual([
      ["Preamble", ""],
      ["Art. 1", "DESCRIZIONE DEI LOTTI"],
      ["Art. 2", "CONFORMITA’ ALLE NORME"],
      ["Art. 3", "CONFEZIONAMENTO"],
    ]);
  });
});
