// The vocabulary of citations: which keywords open a unit ("Article", "§", "comma"), the shape
// of the value each one takes, and the separators between listed values and ranges.
import type { ReferenceLanguage, UnitKind } from "./types.ts";

/** Units finer than the sectioner's sections: they become the pinpoint, never the label. */
export const FINE = new Set<UnitKind>(["paragraph", "subparagraph", "point", "sentence", "comma", "lettera", "punto"]);

const ROMAN = String.raw`[IVXLC]{1,7}\b`;
const ARABIC = String.raw`\d{1,4}[a-z]?(?:\s?-\s?(?:bis|ter|quater|quinquies|sexies|septies|octies|novies|decies)\b)?`;
export const DOTTED = String.raw`\d{1,4}(?:\.\d{1,4})+`;
const WORD_NUM = String.raw`(?:One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten)\b`;
const LETTER_UPPER = String.raw`[A-Z](?:\d{1,2})?\b`;
const PIN_ATOM = String.raw`\((?:\d{1,3}[a-z]?|[a-z]{1,2}|[ivxl]{1,6}|[A-Z])\)`;
export const PIN = `(?:${PIN_ATOM})*`;

type ValueShape = "arabic" | "roman" | "dotted" | "roman-or-arabic" | "letter" | "paren" | "lettera" | "chapter" | "annex";

const VALUE_RE: Record<ValueShape, string> = {
  arabic: ARABIC,
  roman: ROMAN,
  dotted: DOTTED,
  "roman-or-arabic": `(?:${ROMAN}|\\d{1,3}\\b)`,
  chapter: `(?:${ROMAN}|\\d{1,3}\\b|${WORD_NUM})`,
  annex: `(?:[IVXLC]{1,7}(?:\\.\\d{1,2})*\\b|\\d{1,3}\\b|[A-Z]\\b)`,
  letter: LETTER_UPPER,
  paren: `(?:${PIN_ATOM})+|\\d{1,3}\\b`,
  lettera: String.raw`[a-z]{1,2}(?:\.\d)?\)`,
};

interface UnitSpec {
  kind: UnitKind;
  keyword: string;
  shape: ValueShape;
  /** Whether a parenthesised pinpoint may follow the value ("Article 6(1)(e)"). */
  pins: boolean;
  lang: ReferenceLanguage | "any";
}

// Keywords are matched case-sensitively on purpose: "Part 160" and "part 160" both appear in CFR,
// but a capital letter is what separates "Section 2" (a unit) from ordinary prose elsewhere.
const UNITS: UnitSpec[] = [
  { kind: "article", keyword: "Articles?|Arts?\\.", shape: "arabic", pins: true, lang: "en" },
  { kind: "chapter", keyword: "Chapters?", shape: "chapter", pins: false, lang: "en" },
  { kind: "section", keyword: "Sections?|sections?(?=\\s+\\d)", shape: "dotted", pins: true, lang: "en" },
  { kind: "section", keyword: "Sections?|sections?(?=\\s+\\d)", shape: "roman-or-arabic", pins: true, lang: "en" },
  { kind: "annex", keyword: "Annex(?:es)?", shape: "annex", pins: false, lang: "en" },
  { kind: "title", keyword: "Titles?", shape: "roman-or-arabic", pins: false, lang: "en" },
  { kind: "subpart", keyword: "[Ss]ubparts?", shape: "letter", pins: false, lang: "en" },
  { kind: "part", keyword: "Parts?|parts?(?=\\s+\\d{2,3}\\b)", shape: "roman-or-arabic", pins: false, lang: "en" },
  { kind: "appendix", keyword: "Appendix|Appendices", shape: "letter", pins: false, lang: "en" },
  { kind: "rule", keyword: "Rules?", shape: "dotted", pins: true, lang: "en" },
  { kind: "requirement", keyword: "[Rr]equirements?", shape: "dotted", pins: false, lang: "en" },
  { kind: "paragraph-sign", keyword: "§§?", shape: "dotted", pins: true, lang: "any" },
  { kind: "paragraph", keyword: "paragraphs?", shape: "paren", pins: false, lang: "en" },
  { kind: "paragraph", keyword: "paragraphs?", shape: "arabic", pins: false, lang: "en" },
  { kind: "point", keyword: "points?", shape: "paren", pins: false, lang: "en" },
  { kind: "point", keyword: "points?", shape: "arabic", pins: false, lang: "en" },
  // Italian
  { kind: "article", keyword: "[Aa]rticol[oi](?:\\s+da)?|[Aa]rtt?\\.(?:\\s+da)?|[Aa]rt(?=\\s+\\d)", shape: "arabic", pins: false, lang: "it" },
  { kind: "comma", keyword: "commi|comma", shape: "arabic", pins: false, lang: "it" },
  { kind: "lettera", keyword: "lettere|lettera|lett\\.?", shape: "lettera", pins: false, lang: "it" },
  { kind: "punto", keyword: "punti|punto", shape: "arabic", pins: false, lang: "it" },
  { kind: "annex", keyword: "[Aa]llegat[oi]", shape: "annex", pins: false, lang: "it" },
  { kind: "chapter", keyword: "[Cc]apo", shape: "roman", pins: false, lang: "it" },
  { kind: "title", keyword: "[Tt]itolo", shape: "roman", pins: false, lang: "it" },
  { kind: "part", keyword: "[Pp]arte", shape: "roman", pins: false, lang: "it" },
];

export interface CompiledUnit extends UnitSpec {
  head: RegExp;
  value: RegExp;
  valueOnly: RegExp;
}

function compile(spec: UnitSpec): CompiledUnit {
  const v = VALUE_RE[spec.shape];
  const pin = spec.pins ? PIN : "";
  return {
    ...spec,
    head: new RegExp(`(?:${spec.keyword})\\s*`, "y"),
    value: new RegExp(`(${v})(${pin})`, "y"),
    valueOnly: new RegExp(`(${PIN_ATOM}(?:${PIN_ATOM})*)`, "y"),
  };
}

export const COMPILED = UNITS.map(compile);

export const ORDINAL_FINE = /(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|last|final)\s+(subparagraph|paragraph|sentence|indent)\b/y;
export const IT_ORDINAL_FINE = /(primo|secondo|terzo|quarto|quinto|ultimo)\s+(periodo|comma)\b/y;

export const LIST_SEP = /\s*,\s*(?:and\s+|or\s+|e\s+|o\s+|ed\s+)?|\s+(?:and\/or|and|or|e|ed|o)\s+/y;
export const RANGE_SEP = /\s*(?:-|–|\bto\b|\bthrough\b|\ba\b)\s*/y;

/** Matches `re` (a sticky regex) at exactly `pos`. */
export function sticky(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}
