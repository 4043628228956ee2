import { describe, expect, it } from "vitest";
import { PinpointTracker } from "../../core/citations/pinpoint.ts";
import { sentenceUnits } from "../../core/answer/compose/sentence-units.ts";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import { citationLabel } from "../../core/citations/citation-label.ts";
import { locateInSection } from "../../core/compare/citation-location.ts";
import type { Section } from "../../core/model/section-types.ts";

// Italian provisions letter their list items "a)" or "a.": a lettera is a pinpoint level, right
// under the comma of an article ("Art. 14(1), lett. b)") or at the top of a tender's numbered
// section ("Par. 7, lett. b)"), and only where the marker opens a list item.

const resources = createLanguageResources();

/** The pinpoints of an Italian provision's lines; `family` "eu" for an article numbering its commi. */
function lettere(lines: string[], family?: "eu", before?: string): Array<string | null> {
  const tracker = new PinpointTracker({ ...(family === undefined ? {} : { family }), lettere: true, text: lines.join("\n") });
  if (before !== undefined) tracker.skim(before);
  return lines.map((l) => tracker.line(l));
}

const alphabet = (from: string, to: string, close = ")"): string =>
  Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) => `${String.fromCharCode(from.charCodeAt(0) + i)}${close} voce;`).join("\n");

describe("Italian lettere as a pinpoint level", () => {
  it("a lettera after a lead-in ending with ':', under the comma where there is one (a tender's section, an article of the code)", () => {
    expect(
      lettere([
        "Il concorrente e l’ausiliario sono responsabili in solido nei confronti della stazione appaltante.",
        "L’ausiliario deve:",
        "a) dichiarare la prestazione dell’avvalimento;",
        "b) possedere i requisiti previsti dall’articolo 5 e dichiararli presentando un proprio DGUE;",
        "c) impegnarsi a mettere a disposizione le risorse oggetto di avvalimento;",
        "d) inserire nella “Busta documentazione tecnica” copia autentica del contratto.",
        "È sanabile, mediante soccorso istruttorio, la mancata produzione delle dichiarazioni dell’ausiliario.",
      ]),
    ).toEqual([null, null, "(lett. a)", "(lett. b)", "(lett. c)", "(lett. d)", null]);
    expect(
      lettere(
        [
          "1. Per l'applicazione del codice le soglie di rilevanza europea sono:",
          "a) euro 5.382.000 per gli appalti pubblici di lavori e per le concessioni;",
          "b) euro 140.000 per gli appalti pubblici di forniture;",
          "2. Nei settori speciali le soglie di rilevanza europea sono:",
          "a) euro 5.382.000 per gli appalti di lavori;",
        ],
        "eu",
      ),
    ).toEqual(["(1)", "(1)(lett. a)", "(1)(lett. b)", "(2)", "(2)(lett. a)"]);
  });

  it("a lettera is printed under its comma: a comma's number is read with its space lost only where it continues the commi", () => {
    expect(
      lettere(
        [
          "1.Per gli appalti di lavori di importo pari o superiore ai 20 milioni di euro la stazione appaltante può richiedere:",
          "a) per verificare la capacità economico-finanziaria, i parametri economico-finanziari significativi;",
          "b) per verificare la capacità professionale, la prova di aver eseguito lavori analoghi.",
        ],
        "eu",
      ),
    ).toEqual([null, null, null]);
    expect(
      lettere(
        [
          "1. Le stazioni appaltanti verificano i requisiti.",
          "2.Il documento di gara unico europeo contiene:",
          "a) le informazioni richieste dalla stazione appaltante;",
          "3. Il documento è trasmesso in modalità digitale e contiene:",
          "a) la versione elettronica firmata;",
        ],
        "eu",
      ),
    ).toEqual(["(1)", "(2)", "(2)(lett. a)", "(3)", "(3)(lett. a)"]);
  });

  it("items ending with ';' open a list without a colon before them, dotted or closed by a parenthesis", () => {
    expect(
      lettere([
        "L’importo della garanzia è ridotto nei casi seguenti",
        "a. del 30% per le imprese in possesso della certificazione di qualità;",
        "b. del 50% per le micro, piccole e medie imprese;",
        "c. del 20% per le imprese in possesso di un marchio ecologico.",
      ]),
    ).toEqual([null, "(lett. a)", "(lett. b)", "(lett. c)"]);
    expect(
      lettere(
        [
          "1. Le stazioni appaltanti possono ricorrere alla procedura negoziata nei casi seguenti",
          "a) quando la gara è andata deserta;",
          "b) quando ricorrono ragioni di estrema urgenza.",
        ],
        "eu",
      ),
    ).toEqual(["(1)", "(1)(lett. a)", "(1)(lett. b)"]);
  });

  it("no lettera where no list opens: an abbreviation, items that end with full stops after no lead-in, a wrapped reference, an EU article", () => {
    // "n. 36/2023" is the number of an act wrapped to a line's start; the list after the lead-in is.
    expect(
      lettere([
        "In seguito alla comunicazione di cui all’art. 90, comma 1, lett. b), del D. Lgs.",
        "n. 36/2023, viene richiesto all’aggiudicatario di far pervenire la seguente documentazione:",
        "a) dichiarazione sostitutiva di certificazione dei familiari conviventi;",
      ]),
    ).toEqual([null, null, "(lett. a)"]);
    // Nor after "m.": a list's next letter is followed by words, an act's number by digits.
    expect(
      lettere(
        ["m. i gestori delle piattaforme di cui al decreto legislativo", "n. 82 del 2005, coinvolti nell’attività relativa al ciclo di vita dei contratti;"],
        undefined,
        `Sono tenuti al rispetto del presente articolo:\n${alphabet("a", "l", ".")}`,
      ),
    ).toEqual(["(lett. m)", "(lett. m)"]);
    // Sentences that open with "a." and "b." after a sentence, not a lead-in: not told from chance.
    expect(
      lettere([
        "Ai sensi dell’art. 106, comma 8, del Codice l’importo della garanzia è ridotto nei termini di seguito indicati.",
        "a. Riduzione del 30% in caso di possesso della certificazione di qualità.",
        "b. Riduzione del 50% in caso di partecipazione di micro, piccole e medie imprese.",
      ]),
    ).toEqual([null, null, null]);
    // "… comma 2, lettera" then "a) del Codice …": a reference the print wrapped.
    expect(
      lettere(["Per i soggetti di cui all’articolo 65, comma 2, lettera", "a) del Codice si applicano i requisiti previsti per i consorzi ordinari;"]),
    ).toEqual([null, null]);
    expect(lettere(["1. Nei casi di cui al comma 2, lett.", "a) del presente articolo, la stazione appaltante procede all’esclusione;"], "eu")).toEqual([
      "(1)",
      "(1)",
    ]);
    // A lettera named inside an item ("alla lett. b)") is a reference, not the next item run in.
    expect(
      lettere([
        "L’importo della garanzia è ridotto:",
        "a) del 30%, cumulabile con la riduzione di cui alla lett. b) del presente paragrafo;",
        "b) del 50% per le microimprese.",
      ]),
    ).toEqual([null, "(lett. a)", "(lett. b)"]);
    expect(
      lettere(["1. Sono esclusi:", "a) gli operatori di cui al comma 2, lett. b) del presente articolo;", "b) gli operatori privi dei requisiti."], "eu"),
    ).toEqual(["(1)", "(1)(lett. a)", "(1)(lett. b)"]);
    // An EU article prints its points "(a)": its "a)" is no marker.
    const units = sentenceUnits("1. Member States shall ensure that:\na) the entities comply;\nb) the authorities supervise.", resources, {
      label: "Article 5",
    });
    expect(units.map((u) => u.citable)).toEqual(["(1)", "(1)", "(1)"]);
  });

  it("a line after the list's last item is the provision's, unless the list goes on; bullets and lines after an item's colon stay in it", () => {
    expect(
      lettere([
        "Si richiede di far pervenire la seguente documentazione:",
        "a) dichiarazione sostitutiva di certificazione;",
        "b) dichiarazione attestante gli estremi del conto corrente dedicato;",
        "c) la garanzia definitiva; in caso di R.T.I. dovranno altresì essere prodotti:",
        "• copia autentica del mandato collettivo speciale irrevocabile;",
        "• in caso di Consorzi ordinari l’atto costitutivo del Consorzio.",
        "Il contratto è stipulato non prima di 32 giorni dall’invio dell’ultima comunicazione.",
      ]),
    ).toEqual([null, "(lett. a)", "(lett. b)", "(lett. c)", "(lett. c)", "(lett. c)", null]);
    expect(
      lettere(
        [
          "1. Le stazioni appaltanti e gli enti concedenti:",
          "a) adottano il programma triennale dei lavori pubblici.",
          "I programmi sono approvati nel rispetto dei documenti programmatori.",
          "b) approvano l’elenco annuale degli acquisti.",
          "Il programma è pubblicato sul sito istituzionale.",
          "2. Il programma triennale contiene i lavori il cui importo si stima pari o superiore alla soglia.",
        ],
        "eu",
      ),
    ).toEqual(["(1)", "(1)(lett. a)", "(1)(lett. a)", "(1)(lett. b)", "(1)", "(2)"]);
  });

  it("an item's own list of letters is the item's, and a list skips the letters Italian leaves out", () => {
    expect(
      lettere([
        "L’operatore economico deve:",
        "a) dichiarare, per ciascun consorziato:",
        "a. la denominazione;",
        "b. la sede legale;",
        "b) allegare il contratto di rete.",
      ]),
    ).toEqual([null, "(lett. a)", "(lett. a)", "(lett. a)", "(lett. b)"]);
    expect(
      lettere(["i) il subappalto;", "l) le varianti;", "m) la revisione dei prezzi."], "eu", `1. Ai fini del codice si intende per:\n${alphabet("a", "h")}`),
    ).toEqual(["(1)(lett. i)", "(1)(lett. l)", "(1)(lett. m)"]);
    expect(lettere(["v) la garanzia;", "z) la polizza."], undefined, `Sono allegati:\n${alphabet("a", "u")}`)).toEqual(["(lett. v)", "(lett. z)"]);
  });

  it("letters run into a line: a first item after its lead-in opens the list for the next line; items mixed on one line are neither's", () => {
    expect(
      lettere([
        "- dichiarazioni, rese da ciascun concorrente, attestanti: a. a quale concorrente sarà conferito mandato speciale;",
        "b. l’impegno ad uniformarsi alla disciplina vigente in materia di raggruppamenti temporanei;",
        "c. le parti del servizio che saranno eseguite dai singoli operatori economici.",
      ]),
    ).toEqual([null, "(lett. b)", "(lett. c)"]);
    expect(
      lettere([
        "- dichiarazione rese da ciascun concorrente, attestante:",
        "a. a quale operatore economico sarà conferito mandato speciale;",
        "b. l’impegno ad uniformarsi alla disciplina vigente; c. le parti del servizio eseguite dai singoli operatori. Per le aggregazioni di retisti:",
        "- copia del contratto di rete.",
      ]),
    ).toEqual([null, "(lett. a)", null, null]);
    // Letters run into a numbered item's line leave the item as it was.
    expect(
      lettere([
        "1. I contratti attuativi hanno una propria garanzia definitiva.",
        "2. Per i contratti attuativi restano fermi: a) gli aumenti di cui al comma 2; b) le riduzioni di cui al comma 8.",
        "La garanzia definitiva sarà svincolata alla scadenza dei singoli contratti.",
      ]),
    ).toEqual(["(1)", "(2)", null]);
  });

  it("citations print the lettera as Italian writes it: a tender's section, an article's comma, a crosswalk's location", () => {
    const disciplinare = { title: "Disciplinare di gara", fileName: "it_disciplinare_di_gara.pdf" };
    const codice = { title: "Codice dei contratti pubblici", fileName: "it_dlgs_36-2023.txt" };
    expect(citationLabel({ document: disciplinare, sectionLabel: "Par. 7", paragraphs: [], pinpoint: "(lett. b)", pageStart: 17, pageEnd: 17 })).toBe(
      "Disciplinare di gara Par. 7, lett. b), p. 17",
    );
    expect(citationLabel({ document: codice, sectionLabel: "Art. 14", paragraphs: ["1"], pinpoint: "(1)(lett. b)", pageStart: 9, pageEnd: 9 })).toBe(
      "D.Lgs. 36/2023 Art. 14(1), lett. b), p. 9",
    );
    // A tender's numbered items are lists, not commi: a lettera under one is not printed, nor the item.
    expect(citationLabel({ document: disciplinare, sectionLabel: "Par. 1.2", paragraphs: [], pinpoint: "(4)(lett. a)", pageStart: 6, pageEnd: 6 })).toBe(
      "Disciplinare di gara Par. 1.2, p. 6",
    );
    expect(citationLabel({ document: disciplinare, sectionLabel: "Par. 1.2", paragraphs: [], pinpoint: "(4)", pageStart: 6, pageEnd: 6 })).toBe(
      "Disciplinare di gara Par. 1.2, p. 6",
    );
    const text = "L’ausiliario deve:\na) dichiarare la prestazione dell’avvalimento;\nb) possedere i requisiti previsti dall’articolo 5.";
    const units = sentenceUnits(text, resources, { label: "Par. 7" });
    expect(units.map((u) => u.citable)).toEqual([null, "(lett. a)", "(lett. b)"]);
    const article = sentenceUnits("1. Le soglie sono:\na) euro 5.382.000 per i lavori;\nb) euro 140.000 per le forniture.", resources, { label: "Art. 14" });
    expect(article.map((u) => u.citable)).toEqual(["(1)", "(1)(lett. a)", "(1)(lett. b)"]);
    const section: Section = {
      id: "disciplinare:par-7",
      documentId: "disciplinare",
      ordinal: 7,
      kind: "section",
      label: "Par. 7",
      heading: "AVVALIMENTO",
      path: ["Par. 7"],
      parentId: null,
      level: 0,
      text,
      pageStart: 16,
      pageEnd: 16,
      spans: [],
    };
    expect(locateInSection(section, { start: text.indexOf("b) possedere"), end: text.length }).citation).toBe("Par. 7, lett. b)");
  });
});
