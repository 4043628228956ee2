// Long file: one grammar of citations (EU, CFR, NIST, Italian) with its resolution rules.
import { collapse, findInstruments, matchInstrumentAt } from "./instruments.ts";

// Deterministic cross-reference finder. A reference is parsed as a chain of "unit phrases"
// ("point (a)" of "Article 6(1)"; "art. 65", "comma 2", "lett. b)") plus an optional instrument
// ("of Directive (EU) 2022/2555", "del Codice"). The chain is ordered coarse → fine, the finest
// coarse unit becomes the label (what the sectioner labels a section) and everything finer becomes
// the pinpoint, because sections stop at article / § / requirement level.

export type DocumentKind = "eu" | "cfr" | "nist" | "italian" | "rules" | "generic";
export type ReferenceLanguage = "en" | "it";

export interface CrossReferenceContext {
  documentKind?: DocumentKind;
  language?: ReferenceLanguage;
}

export interface CrossReferenceTarget {
  /** Normalised section label ("Article 6", "§ 164.308", "3.1.1", "Art. 16"); null when relative. */
  label: string | null;
  /** For references relative to the current section: "paragraph 2", "comma 3", "paragraph (a)(1)". */
  relative?: string;
  /** Finer position inside the labelled unit: "(1)(e)", "(a)(1)(ii)", "comma 2". */
  pinpoint?: string;
  /** Labels of containing units when printed ("Section 2 of Chapter IV" → ["Chapter IV"]). */
  within?: string[];
  /** Set when the reference points into another legal act. */
  external?: { instrument: string };
  /** True for labels generated inside an expanded range: they may legitimately not exist. */
  rangeInterior?: boolean;
}

export interface CrossReference {
  /** Character span in the input text, end exclusive. */
  start: number;
  end: number;
  raw: string;
  targets: CrossReferenceTarget[];
}

/** Ranges larger than this keep only their endpoints: "Articles 1 to 99" is not 99 edges. */
export const MAX_RANGE = 40;
const MAX_TARGETS = 60;

type UnitKind =
  | "article"
  | "chapter"
  | "section"
  | "annex"
  | "title"
  | "part"
  | "subpart"
  | "appendix"
  | "rule"
  | "requirement"
  | "paragraph-sign"
  | "paragraph"
  | "subparagraph"
  | "point"
  | "sentence"
  | "comma"
  | "lettera"
  | "punto";

const FINE = new Set<UnitKind>(["paragraph", "subparagraph", "point", "sentence", "comma", "lettera", "punto"]);

interface Item {
  value: string;
  pin: string;
  rangeInterior?: boolean;
}

interface Phrase {
  kind: UnitKind;
  items: Item[];
  /** Text before the list for fine units that print an ordinal: "first subparagraph". */
  ordinal?: string;
}

// ---------- value patterns ----------

const ROMAN = String.raw`[IVXLC]{1,7}\b`;
const ARABIC = String.raw`\d{1,4}[a-z]?(?:\s?-\s?(?:bis|ter|quater|quinquies|sexies|septies|octies|novies|decies)\b)?`;
const DOTTED = String.raw`\d{1,4}(?:\.\d{1,4})+`;
const WORD_NUM = String.raw`(?:One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten)\b`;
const LETTER_UPPER = String.raw`[A-Z](?:\d{1,2})?\b`;
const PIN_ATOM = String.raw`\((?:\d{1,3}[a-z]?|[a-z]{1,2}|[ivxl]{1,6}|[A-Z])\)`;
const PIN = `(?:${PIN_ATOM})*`;

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

interface CompiledUnit extends UnitSpec {
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

const COMPILED = UNITS.map(compile);

const ORDINAL_FINE = /(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|last|final)\s+(subparagraph|paragraph|sentence|indent)\b/y;
const IT_ORDINAL_FINE = /(primo|secondo|terzo|quarto|quinto|ultimo)\s+(periodo|comma)\b/y;

const LIST_SEP = /\s*,\s*(?:and\s+|or\s+|e\s+|o\s+|ed\s+)?|\s+(?:and\/or|and|or|e|ed|o)\s+/y;
const RANGE_SEP = /\s*(?:-|–|\bto\b|\bthrough\b|\ba\b)\s*/y;

function sticky(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}

// ---------- numbers and ranges ----------

const ROMAN_VALUES: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };

function romanToInt(s: string): number | null {
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const cur = ROMAN_VALUES[s[i] ?? ""];
    const next = ROMAN_VALUES[s[i + 1] ?? ""];
    if (cur === undefined) return null;
    total += next !== undefined && next > cur ? -cur : cur;
  }
  return total;
}

function intToRoman(n: number): string {
  const table: Array<[number, string]> = [
    [100, "C"],
    [90, "XC"],
    [50, "L"],
    [40, "XL"],
    [10, "X"],
    [9, "IX"],
    [5, "V"],
    [4, "IV"],
    [1, "I"],
  ];
  let out = "";
  let rest = n;
  for (const [v, sym] of table) {
    while (rest >= v) {
      out += sym;
      rest -= v;
    }
  }
  return out;
}

/** Values strictly between `from` and `to`, or null when the range cannot or should not be expanded. */
function interior(from: string, to: string): string[] | null {
  if (/^\d+$/.test(from) && /^\d+$/.test(to)) {
    const a = Number(from);
    const b = Number(to);
    if (b <= a || b - a > MAX_RANGE) return null;
    return Array.from({ length: b - a - 1 }, (_, i) => String(a + i + 1));
  }
  const dotted = /^(.*\.)(\d+)$/;
  const fa = dotted.exec(from);
  const fb = dotted.exec(to);
  if (fa && fb && fa[1] === fb[1]) {
    const a = Number(fa[2]);
    const b = Number(fb[2]);
    if (b <= a || b - a > MAX_RANGE) return null;
    return Array.from({ length: b - a - 1 }, (_, i) => `${fa[1] ?? ""}${a + i + 1}`);
  }
  const ra = /^[IVXLC]+$/.test(from) ? romanToInt(from) : null;
  const rb = /^[IVXLC]+$/.test(to) ? romanToInt(to) : null;
  if (ra !== null && rb !== null) {
    if (rb <= ra || rb - ra > MAX_RANGE) return null;
    return Array.from({ length: rb - ra - 1 }, (_, i) => intToRoman(ra + i + 1));
  }
  const pa = /^\(([a-z])\)$/.exec(from);
  const pb = /^\(([a-z])\)$/.exec(to);
  if (pa && pb) {
    const a = (pa[1] ?? "a").charCodeAt(0);
    const b = (pb[1] ?? "a").charCodeAt(0);
    if (b <= a || b - a > 26) return null;
    return Array.from({ length: b - a - 1 }, (_, i) => `(${String.fromCharCode(a + i + 1)})`);
  }
  return null;
}

// ---------- phrase parsing ----------

interface ParsedPhrase {
  phrase: Phrase;
  end: number;
}

function normaliseValue(raw: string): string {
  return raw.replace(/\s+/g, "").replace(/^(\d+)-?(bis|ter|quater|quinquies|sexies|septies|octies|novies|decies)$/, "$1-$2");
}

/** A keyword followed by a list of values ("Articles 15 to 22 and 34") at exactly `pos`. */
function parsePhrase(text: string, pos: number, lang: ReferenceLanguage): ParsedPhrase | null {
  const ord = sticky(lang === "it" ? IT_ORDINAL_FINE : ORDINAL_FINE, text, pos);
  if (ord) {
    const unit = (ord[2] ?? "").toLowerCase();
    const kind: UnitKind = unit === "comma" ? "comma" : unit === "paragraph" ? "paragraph" : unit === "periodo" ? "sentence" : "subparagraph";
    return { phrase: { kind, items: [{ value: "", pin: "" }], ordinal: `${ord[1] ?? ""} ${unit}` }, end: pos + ord[0].length };
  }
  for (const unit of COMPILED) {
    if (unit.lang !== "any" && unit.lang !== lang) continue;
    const head = sticky(unit.head, text, pos);
    if (!head) continue;
    const parsed = parseList(text, pos + head[0].length, unit);
    if (parsed) return parsed;
  }
  return null;
}

function parseList(text: string, start: number, unit: CompiledUnit): ParsedPhrase | null {
  const first = sticky(unit.value, text, start);
  if (!first) return null;
  const items: Item[] = [{ value: normaliseValue(first[1] ?? ""), pin: first[2] ?? "" }];
  let end = start + first[0].length;
  for (;;) {
    const range = sticky(RANGE_SEP, text, end);
    const sep = range ?? sticky(LIST_SEP, text, end);
    if (!sep) break;
    const at = end + sep[0].length;
    const next = sticky(unit.value, text, at);
    const prev = items[items.length - 1] ?? { value: "", pin: "" };
    if (next) {
      const item: Item = { value: normaliseValue(next[1] ?? ""), pin: next[2] ?? "" };
      if (range) {
        for (const v of interior(prev.value, item.value) ?? []) items.push({ value: v, pin: "", rangeInterior: true });
      }
      items.push(item);
      end = at + next[0].length;
      continue;
    }
    // "Article 7(4)(b) and (5)", "§ 164.504(e)(2) through (e)(4)": a bare pinpoint continues the same unit.
    const pinOnly = unit.pins ? sticky(unit.valueOnly, text, at) : null;
    if (pinOnly) {
      items.push({ value: prev.value, pin: pinOnly[1] ?? "" });
      end = at + pinOnly[0].length;
      continue;
    }
    break;
  }
  return { phrase: { kind: unit.kind, items }, end };
}

// ---------- labels ----------

function coarseLabel(kind: UnitKind, value: string, ctx: Required<CrossReferenceContext>): string {
  const it = ctx.language === "it";
  switch (kind) {
    case "article":
      return it ? `Art. ${value}` : `Article ${value}`;
    case "chapter":
      return it ? `Capo ${value}` : `Chapter ${value}`;
    case "section":
      // NIST numbers its sections "3.1"; the sectioner labels them by the bare number.
      return /\./.test(value) ? value : `Section ${value}`;
    case "annex":
      return it ? `Allegato ${value}` : `Annex ${value}`;
    case "title":
      return it ? `Titolo ${value}` : `Title ${value}`;
    case "part":
      return it ? `Parte ${value}` : `Part ${value}`;
    case "subpart":
      return `Subpart ${value}`;
    case "appendix":
      return `Appendix ${value}`;
    case "rule":
      return `Rule ${value}`;
    case "requirement":
      return value;
    case "paragraph-sign":
      return `§ ${value}`;
    default:
      return value;
  }
}

function finePart(p: Phrase, item: Item): string {
  if (p.ordinal) return p.ordinal;
  switch (p.kind) {
    case "paragraph":
      return /^\d/.test(item.value) ? `(${item.value})` : item.value;
    case "point":
      return /^\d/.test(item.value) ? `point ${item.value}` : item.value;
    case "comma":
      return `comma ${item.value}`;
    case "lettera":
      return `lett. ${item.value}`;
    case "punto":
      return `punto ${item.value}`;
    default:
      return item.value;
  }
}

function relativeText(p: Phrase, item: Item): string {
  if (p.ordinal) return p.ordinal;
  if (p.kind === "paragraph") return `paragraph ${item.value}`;
  if (p.kind === "point") return /^\d/.test(item.value) ? `point ${item.value}` : `point ${item.value}`;
  return finePart(p, item);
}

/** Joins pinpoint parts: "(1)" + "(e)" → "(1)(e)"; "(4)" + "first subparagraph" → "(4), first subparagraph". */
function joinPin(parts: string[]): string {
  let out = "";
  for (const part of parts) {
    if (part === "") continue;
    if (out === "") out = part;
    else if (part.startsWith("(") && out.endsWith(")")) out += part;
    else out += `, ${part}`;
  }
  return out;
}

function product<T>(lists: T[][]): T[][] {
  let acc: T[][] = [[]];
  for (const list of lists) {
    const next: T[][] = [];
    for (const prefix of acc) for (const x of list) if (next.length < MAX_TARGETS) next.push([...prefix, x]);
    acc = next;
  }
  return acc;
}

function buildTargets(ordered: Phrase[], ctx: Required<CrossReferenceContext>, instrument: string | null): CrossReferenceTarget[] {
  const coarseIdx: number[] = [];
  ordered.forEach((p, i) => {
    if (!FINE.has(p.kind)) coarseIdx.push(i);
  });
  const primaryIdx = coarseIdx.length > 0 ? (coarseIdx[coarseIdx.length - 1] ?? -1) : -1;
  const out: CrossReferenceTarget[] = [];
  for (const combo of product(ordered.map((p) => p.items))) {
    const target: CrossReferenceTarget = { label: null };
    if (primaryIdx >= 0) {
      const primary = ordered[primaryIdx];
      const item = combo[primaryIdx];
      if (!primary || !item) continue;
      target.label = coarseLabel(primary.kind, item.value, ctx);
      const within = coarseIdx.slice(0, -1).map((i) => coarseLabel(ordered[i]?.kind ?? "article", combo[i]?.value ?? "", ctx));
      if (within.length > 0) target.within = within;
      const parts = [item.pin];
      ordered.forEach((p, i) => {
        const it = combo[i];
        if (FINE.has(p.kind) && it) parts.push(finePart(p, it));
      });
      const pin = joinPin(parts);
      if (pin !== "") target.pinpoint = pin;
      if (item.rangeInterior) target.rangeInterior = true;
    } else {
      const [first, ...rest] = ordered;
      const firstItem = combo[0];
      if (!first || !firstItem) continue;
      target.relative = relativeText(first, firstItem);
      const pin = joinPin(rest.map((p, i) => finePart(p, combo[i + 1] ?? { value: "", pin: "" })));
      if (pin !== "") target.pinpoint = pin;
      if (firstItem.rangeInterior) target.rangeInterior = true;
    }
    if (instrument !== null) target.external = { instrument };
    out.push(target);
  }
  return out;
}

// ---------- chain parsing ----------

const OF_EN = /\s*,?\s+of\s+(?:the\s+)?/y;
const OF_IT = /\s*,?\s+(?:del|della|dello|dei|degli|delle|dell['’]\s?|di\s+cui\s+(?:al|alla|allo|all['’]\s?|ai|agli|alle))\s*/y;
const COMMA_CONT = /\s*,?\s+|\s*,\s*/y;
const THIS_EN =
  /this\s+(Regulation|Directive|Decision|Article|paragraph|subparagraph|section|part|subpart|subchapter|chapter|Chapter|Section|Title|Annex|Rule|Part|Subpart|publication|document|Chapter)\b/y;
const THIS_IT = /(?:presente|medesimo|stesso)\s+([A-Za-zÀ-ú]+)(?:\s+di\s+gara)?/y;
const INSTRUMENT_WORDS = new Set([
  "regulation",
  "directive",
  "decision",
  "decreto",
  "codice",
  "disciplinare",
  "capitolato",
  "bando",
  "regolamento",
  "document",
  "publication",
  "subchapter",
]);

// Only a strictly finer structural unit may follow after a comma ("Chapter V, Section II");
// "Article 5, Article 6" is two references, not one inside the other.
const RANK: Partial<Record<UnitKind, number>> = { part: 1, title: 1, annex: 1, chapter: 2, subpart: 2, section: 3, article: 4 };
function finerThan(next: UnitKind, prev: UnitKind): boolean {
  const a = RANK[next];
  const b = RANK[prev];
  return a !== undefined && b !== undefined && a > b;
}

const NAMED_ACT =
  /((?:[A-Z][A-Za-z.]*|\d[\d-]*)(?:\s+(?:[A-Z][A-Za-z.]*|\d[\d\s-]*\d|\d+|of|and|for|on|the)){0,7}?(?:\s+(?:Act|Law\s+[\d\s-]*\d|Code|Treaty|Convention|Charter)\b|(?<=\b[A-Z]{3,8})))(?![A-Za-z])/y;
const NOT_ACTS = new Set(["Union", "Member State", "Member States", "Commission", "Board", "European Union"]);

interface Chain {
  ordered: Phrase[];
  end: number;
  instrument: { name: string; anaphoric: boolean } | null;
}

function parseChain(text: string, start: number, ctx: Required<CrossReferenceContext>): Chain | null {
  const first = parsePhrase(text, start, ctx.language);
  if (!first) return null;
  const ordered: Phrase[] = [first.phrase];
  let end = first.end;
  let instrument: Chain["instrument"] = null;
  const ofRe = ctx.language === "it" ? OF_IT : OF_EN;
  const thisRe = ctx.language === "it" ? THIS_IT : THIS_EN;
  for (;;) {
    // ", comma 2", ", point (a)", ", Section II": a following unit is finer than the previous one.
    const cont = sticky(COMMA_CONT, text, end);
    if (cont) {
      const next = parsePhrase(text, end + cont[0].length, ctx.language);
      const prev = ordered[ordered.length - 1];
      if (next && prev && (FINE.has(next.phrase.kind) || (text[end] === "," && finerThan(next.phrase.kind, prev.kind)))) {
        ordered.push(next.phrase);
        end = next.end;
        continue;
      }
    }
    const of = sticky(ofRe, text, end);
    if (!of) break;
    const at = end + of[0].length;
    const next = parsePhrase(text, at, ctx.language);
    if (next) {
      // "point (a) of Article 6(1)": the unit after "of" contains the one before.
      ordered.unshift(next.phrase);
      end = next.end;
      continue;
    }
    const self = sticky(thisRe, text, at);
    if (self) {
      const word = (self[1] ?? "").toLowerCase();
      // "of this Regulation" belongs to the reference but changes nothing; "of this Article"
      // keeps it relative, which is what a missing coarse unit already means.
      if (ctx.language === "en" || INSTRUMENT_WORDS.has(word) || word === "articolo" || word === "comma" || word === "paragrafo") {
        end = at + self[0].length;
      }
      break;
    }
    const instr = matchInstrumentAt(text, at);
    if (instr) {
      instrument = { name: instr.instrument, anaphoric: instr.anaphoric };
      end = instr.end;
    } else if (ctx.language === "en") {
      // "section 3(1) of ERISA", "section 262 of Public Law 104-191": an unknown but named act is
      // still another act; keep its name so the edge is not mistaken for an internal one.
      const named = sticky(NAMED_ACT, text, at);
      const name = named?.[1]?.replace(/\s+/g, " ").trim() ?? "";
      if (named && !NOT_ACTS.has(name)) {
        instrument = { name, anaphoric: false };
        end = at + named[0].length;
      }
    }
    break;
  }
  return { ordered, end, instrument };
}

// ---------- scanning ----------

const EN_TRIGGER =
  /\b(?:Articles?|Arts?\.|Chapters?|Sections?|sections?(?=\s+\d)|Annex(?:es)?|Titles?|[Ss]ubparts?|Parts?|parts?(?=\s+\d)|Appendix|Appendices|Rules?|[Rr]equirements?(?=\s+\d)|paragraphs?|points?|(?:the\s+)?(?:first|second|third|fourth|fifth|sixth|seventh|last|final)\s+(?:subparagraph|paragraph|sentence))(?![A-Za-z])|§|\b\d{1,2}\s+(?:CFR|C\.F\.R\.|U\.?S\.?C)|\b[A-Z]{2,5}\s+Rules?\s+\d/g;
const IT_TRIGGER =
  /(?<![A-Za-zÀ-ú])(?:[Aa]rticol[oi]|[Aa]rtt?\.|[Aa]rt\s+\d|commi|comma|lettere|lettera|lett\.|punti|punto|[Aa]llegat[oi]|[Cc]apo|[Tt]itolo|[Pp]arte|(?:primo|secondo|terzo|quarto|quinto|ultimo)\s+(?:periodo|comma))(?![A-Za-zÀ-ú])|§/g;

function defaultsFor(ctx: CrossReferenceContext): Required<CrossReferenceContext> {
  const kind = ctx.documentKind ?? (ctx.language === "it" ? "italian" : "generic");
  const language = ctx.language ?? (kind === "italian" ? "it" : "en");
  return { documentKind: kind, language };
}

/** Labels of units that are too generic to be a reference without a number shape we trust. */
function plausible(chain: Chain, ctx: Required<CrossReferenceContext>): boolean {
  const only = chain.ordered.length === 1 ? chain.ordered[0] : undefined;
  if (!only) return true;
  // "Title 45" or "Part I" in prose is a weak signal outside CFR/EU acts; NIST and rulebooks print
  // "Part" loosely, so a lone part/title needs an instrument or a CFR document.
  if ((only.kind === "part" || only.kind === "title") && chain.instrument === null) {
    return ctx.documentKind === "cfr" || ctx.documentKind === "eu" || ctx.documentKind === "italian";
  }
  return true;
}

/**
 * Every cross-reference in `text`, in order, non-overlapping. Bare instrument citations
 * ("Directive (EU) 2015/2366") are kept as targets with label null and an external instrument.
 */
export function findCrossReferences(text: string, context: CrossReferenceContext = {}): CrossReference[] {
  const ctx = defaultsFor(context);
  const refs: CrossReference[] = [];
  const trigger = ctx.language === "it" ? IT_TRIGGER : EN_TRIGGER;
  trigger.lastIndex = 0;
  const instruments = findInstruments(text);
  // Held in an object: TypeScript does not track writes made inside the closure below.
  const memory: { lastInstrument: string | null } = { lastInstrument: null };
  let instrIdx = 0;
  const noteInstrumentsBefore = (pos: number): void => {
    while (instrIdx < instruments.length && (instruments[instrIdx]?.start ?? Infinity) < pos) {
      const hit = instruments[instrIdx];
      if (hit) memory.lastInstrument = hit.instrument;
      instrIdx++;
    }
  };

  for (let m = trigger.exec(text); m; m = trigger.exec(text)) {
    const start = m.index;
    const prefixed = parsePrefixed(text, start, ctx);
    const chain = prefixed ?? parseChain(text, start, ctx);
    if (!chain || !plausible(chain, ctx)) continue;
    noteInstrumentsBefore(start);
    let instrument: string | null = chain.instrument?.name ?? null;
    if (chain.instrument?.anaphoric && memory.lastInstrument !== null) instrument = memory.lastInstrument;
    const targets = buildTargets(chain.ordered, ctx, instrument);
    if (targets.length === 0) continue;
    refs.push({ start, end: chain.end, raw: text.slice(start, chain.end), targets });
    trigger.lastIndex = chain.end;
  }

  // Bare instrument citations that no section reference swallowed.
  for (const hit of instruments) {
    if (refs.some((r) => hit.start < r.end && hit.end > r.start)) continue;
    refs.push({ start: hit.start, end: hit.end, raw: text.slice(hit.start, hit.end), targets: [{ label: null, external: { instrument: hit.instrument } }] });
  }
  refs.sort((a, b) => a.start - b.start);
  return refs;
}

// "45 CFR 164.316", "45 CFR part 160", "26 U.S.C. 6011(b)", "GEN Rule 5.5.1": the instrument
// comes first and the unit follows, sometimes without a keyword.
const CFR_PREFIX = /(\d{1,2})\s+(?:CFR|C\.F\.R\.)\s+/y;
const USC_PREFIX = /(\d{1,2})\s+U\.?S\.?C\.?\s+/y;
const RULEBOOK_PREFIX = /([A-Z]{2,5})\s+(?=Rules?\s+\d)/y;
const BARE_SECTION = new RegExp(`(${DOTTED}|\\d{1,5}[a-z]?)(${PIN})`, "y");

function parsePrefixed(text: string, start: number, ctx: Required<CrossReferenceContext>): Chain | null {
  const rulebook = sticky(RULEBOOK_PREFIX, text, start);
  if (rulebook) {
    const chain = parseChain(text, start + rulebook[0].length, { ...ctx, language: "en" });
    return chain ? { ...chain, instrument: { name: rulebook[1] ?? "", anaphoric: false } } : null;
  }
  const cfr = sticky(CFR_PREFIX, text, start);
  const usc = cfr ? null : sticky(USC_PREFIX, text, start);
  const prefix = cfr ?? usc;
  if (!prefix) return null;
  const name = cfr ? `${prefix[1] ?? ""} CFR` : `${prefix[1] ?? ""} U.S.C.`;
  const at = start + prefix[0].length;
  const withKeyword = parseChain(text, at, { ...ctx, language: "en" });
  if (withKeyword) return { ...withKeyword, instrument: { name, anaphoric: false } };
  // Keyword-less "45 CFR 164.316": the number is a § (CFR) or a section (U.S.C.).
  const bare = sticky(BARE_SECTION, text, at);
  if (!bare) return { ordered: [], end: start + collapse(prefix[0]).length, instrument: { name, anaphoric: false } };
  const phrase: Phrase = { kind: "paragraph-sign", items: [{ value: bare[1] ?? "", pin: bare[2] ?? "" }] };
  return { ordered: [phrase], end: at + bare[0].length, instrument: { name, anaphoric: false } };
}
