import type { HeadingCandidate, HeadingDetector } from "./heading-types.ts";
import { cleanInlineTitle, romanToNumber, titleCaseWord } from "./heading-types.ts";
import type { FlowLine } from "./flow.ts";

// Italian legislation and tender documents: LIBRO > PARTE > Titolo > Capo > "Articolo 1." (title
// on the next line), and in tender documents "Art. 2 – CONFORMITA’" or "ARTICOLO 1" with the title
// inline. Italian lawyers cite articles as "art. 1", so the label is "Art. 1".

const CONTAINER = /^(LIBRO|Libro|PARTE|Parte|TITOLO|Titolo|CAPO|Capo)\s+([IVXLC]+)$/;
const LATIN = "bis|ter|quater|quinquies|sexies|septies|octies|novies|decies";
const ARTICLE = new RegExp(`^(?:Articolo|ARTICOLO|Art\\.?|ART\\.?)\\s*(\\d{1,3})(?:[-\\s]?(${LATIN}))?\\s*\\.?\\s*(?:[-–—:]\\s*(.*)|\\s+(\\p{Lu}.*))?$`, "u");
const ALLEGATO = /^(?:ALLEGATO|Allegato)\s+([IVXLC]+(?:\.\d{1,2})?|[A-Z]|\d{1,2})\)?(?:\s*[-–—:]\s*(.*))?$/;

export const ITALIAN_RANK = { libro: 1, parte: 2, titolo: 3, capo: 4, articolo: 5, allegato: 1 } as const;

const KIND = { libro: "book", parte: "part", titolo: "title", capo: "chapter" } as const;

function container(f: FlowLine): HeadingCandidate | undefined {
  const m = CONTAINER.exec(f.text);
  if (m === null) return undefined;
  const word = (m[1] ?? "").toLowerCase() as keyof typeof KIND;
  const roman = m[2] ?? "";
  return {
    kind: KIND[word],
    label: `${titleCaseWord(word)} ${roman}`,
    rank: ITALIAN_RANK[word],
    inlineTitle: "",
    titleMode: "next-lines",
    group: `it-${word}`,
    order: [romanToNumber(roman)],
    sequence: "increasing",
    scope: word === "libro" ? "document" : "parent",
  };
}

function article(f: FlowLine): HeadingCandidate | undefined {
  const m = ARTICLE.exec(f.text);
  if (m === null) return undefined;
  const n = Number(m[1]);
  const latin = m[2];
  const inline = cleanInlineTitle(m[3] ?? m[4] ?? "");
  const latinIndex = latin === undefined ? 0 : LATIN.split("|").indexOf(latin) + 1;
  return {
    kind: "article",
    label: latin === undefined ? `Art. ${n}` : `Art. ${n}-${latin}`,
    rank: ITALIAN_RANK.articolo,
    inlineTitle: inline,
    titleMode: "next-lines",
    group: "it-article",
    order: [n, latinIndex],
    sequence: "increasing",
  };
}

function allegato(f: FlowLine): HeadingCandidate | undefined {
  const m = ALLEGATO.exec(f.text);
  if (m === null) return undefined;
  return {
    kind: "annex",
    label: `Allegato ${m[1]}`,
    rank: ITALIAN_RANK.allegato,
    inlineTitle: cleanInlineTitle(m[2] ?? ""),
    titleMode: "next-lines",
    group: "it-allegato",
    needsStyle: true,
  };
}

export const italianDetector: HeadingDetector = {
  family: "italian",
  detect(line) {
    return article(line) ?? container(line) ?? allegato(line);
  },
};
