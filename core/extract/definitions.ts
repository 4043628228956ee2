import { normalizeEntity } from "./normalize-entity.ts";

// Deterministic definition and acronym finder. Only forms that regulations use to define terms are
// accepted: a quoted term followed by "means"/"si intende", CFR's unquoted "Term means" at the start
// of a paragraph, Italian «term»: in a lettered list. Prose such as "this control refers to" is left
// alone on purpose (low precision).

export interface Definition {
  term: string;
  normalizedTerm: string;
  /** Text of the definition, from after the defining verb to its end, trimmed of ";" / "and". */
  definition: string;
  /** Span of the whole definition (term through definition), end exclusive. */
  span: { start: number; end: number };
}

export interface Acronym {
  acronym: string;
  expansion: string;
  span: { start: number; end: number };
}

const OPEN = "[‘'\"“«]";
const CLOSE = "[’'\"”»]";
const TERM = "[^‘’'\"“”«»\\n]{1,120}?";
// The term is quoted and must start a clause: start, newline, "(1)", "a)", or after ":" / ";".
// … or after a bracketed source in a glossary: "[45 C.F.R. Sec. 160.103] “business associate” means".
const BEFORE = String.raw`(?:^|(?<=[\n(:;]\s{0,3})|(?<=[)\]]\s{1,3})|(?<=\bterm\s))`;

const EN_QUOTED = new RegExp(
  `${BEFORE}(${OPEN})(${TERM})${CLOSE}\\s*(?:,\\s*)?(means|shall mean|refers to|is defined as|has the meaning(?: given)?(?: to it)?(?: in)?|includes)\\b[:\\s]*`,
  "gmu",
);
// HIPAA/CFR: "Covered entity means:", "Health care provider means a provider …" at paragraph start.
const EN_CFR =
  /(?:^|(?<=\n)|(?<=\.\s))((?!(?:The|This|These|That|Those|Such|Each|Any|It|A|An|Which|What|Where|If|When|For)\s)[A-Z][A-Za-z0-9’'()/-]*(?:\s+[a-zA-Z0-9’'()/-]+){0,7}?)\s+(?:means|is defined as|stands for)\b[:\s]*/gmu;
// CFR definitions lists also write a long definition as "Business associate: (1) Except as …",
// its parts numbered. Only inside a definitions list, where a capitalized "X:" line is a term.
const EN_CFR_COLON =
  /(?:^|(?<=\n))((?!(?:Note|Example|Examples|Exception|Exceptions|Authority|Source|See|Effective date)\s*:)[A-Z][A-Za-z0-9’'/-]*(?:\s+[a-zA-Z0-9’'/-]+){0,6}):\s+(?=\((?:1|a|i)\)\s)/gmu;
const DEFINITIONS_LIST = /\b(?:following\s+definitions\s+apply|definitions\s+apply|as\s+used\s+in\s+this\s+(?:part|subpart|subchapter|section))\b/iu;
const IT_INTENDE_PER = new RegExp(`(?:si\\s+intende|si\\s+intendono)\\s+per\\s+(${OPEN})(${TERM})${CLOSE}\\s*[,:]?\\s*`, "giu");
const IT_PER_SI_INTENDE = new RegExp(`\\b[Pp]er\\s+(${OPEN})(${TERM})${CLOSE}\\s*,?\\s*si\\s+intend(?:e|ono)\\s+`, "gu");
const IT_PER_UNQUOTED = /(?:^|(?<=[\n.;]\s{0,3}))Per\s+([a-zà-ú'’ ]{3,80}?)\s+si\s+intend(?:e|ono)\s+(?!che\b)/gu;
const IT_COLON = new RegExp(
  `(?:^|(?<=\\n)|(?<=\\b[a-z]{1,2}\\)\\s{0,3})|(?<=\\(\\d{1,3}\\)\\s{0,3})|(?<=\\b\\d{1,3}\\)\\s{0,3})|(?<=;\\s{0,3}))(«|“|")(${TERM})(?:»|”|")\\s*:\\s*`,
  "gmu",
);

/** Where a definition's text stops: next numbered/lettered item, or the end of its sentence. */
function definitionEnd(text: string, from: number, listStyle: boolean): number {
  const rest = text.slice(from);
  const item = /;?\s*\n\s*(?:\(\d{1,3}\)|\d{1,3}\)|[a-z]{1,2}\)|\([a-z]{1,2}\))\s/.exec(rest);
  const nextQuoted = new RegExp(`;\\s*(?:and\\s+|or\\s+)?(?:\\(\\d{1,3}\\)|[a-z]{1,2}\\))\\s*${OPEN}`, "u").exec(rest);
  let end = rest.length;
  if (item) end = Math.min(end, item.index);
  if (nextQuoted) end = Math.min(end, nextQuoted.index);
  if (!listStyle) {
    // Prose definitions end with their sentence; "e.g." and "i.e." are not sentence ends.
    const sentence = /(?<!\b(?:e\.g|i\.e|etc|No|n|art|artt|lett|cfr|ss))\.(?=\s+[A-Z«“"‘(]|\s*\n|\s*$)/u.exec(rest);
    if (sentence) end = Math.min(end, sentence.index + 1);
  }
  return from + end;
}

function cleanDefinition(raw: string): string {
  return raw
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[,;:]\s*/u, "")
    .replace(/(?:;|,)?\s*(?:and|or|e|o)$/u, "")
    .replace(/[;,:]\s*$/u, "")
    .trim();
}

/** "threat-led penetration testing (TLPT)" → term without the acronym. */
function splitTermAcronym(term: string): string {
  return term.replace(/\s*\([A-Z][A-Za-z0-9&-]{1,10}\)\s*$/u, "").trim();
}

interface Candidate {
  start: number;
  term: string;
  defStart: number;
  listStyle: boolean;
  /** "Covered entity means:" introduces a list that runs until the next definition or paragraph. */
  colonList: boolean;
}

function colonListEnd(text: string, from: number): number {
  const re = /\n/g;
  re.lastIndex = from;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const next = text.slice(m.index + 1, m.index + 12);
    if (!/^\s*(?:\(\d{1,3}\)|\([a-z]{1,2}\)|[a-z]{1,2}\)|\d{1,3}\))/.test(next)) return m.index;
  }
  return text.length;
}

function toDefinition(text: string, c: Candidate, limit: number, language: "en" | "it"): Definition | null {
  const natural = c.colonList ? colonListEnd(text, c.defStart) : definitionEnd(text, c.defStart, c.listStyle);
  const end = Math.min(natural, limit);
  const definition = cleanDefinition(text.slice(c.defStart, end));
  const term = splitTermAcronym(c.term.replace(/\s+/g, " ").trim());
  if (definition.length < 3 || term.length === 0) return null;
  return { term, normalizedTerm: normalizeEntity(term, { language }), definition, span: { start: c.start, end } };
}

/** Looks like a definitions list ("(1) 'x' means …; (2) …", "a) «x»: …") rather than running prose. */
function isListStyle(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 8), at);
  return /(?:\(\d{1,3}\)|\b\d{1,3}\)|\b[a-z]{1,2}\)|\([a-z]{1,2}\))\s*$/.test(before) || /(?:^|\n)\s*$/.test(before);
}

/** Definitions in order of appearance. */
export function findDefinitions(text: string, language: "en" | "it" = "en"): Definition[] {
  const candidates: Candidate[] = [];
  const run = (re: RegExp, termGroup: number, listStyle: (m: RegExpExecArray) => boolean): void => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const start = m.index;
      if (candidates.some((c) => c.start <= start && start < c.defStart)) continue;
      candidates.push({
        start,
        term: m[termGroup] ?? "",
        defStart: start + m[0].length,
        listStyle: listStyle(m),
        colonList: /:\s*$/.test(m[0]) && !/[»”"]\s*:\s*$/.test(m[0]),
      });
    }
  };
  if (language === "en") {
    run(EN_QUOTED, 2, (m) => isListStyle(text, m.index));
    run(EN_CFR, 1, () => false);
    if (DEFINITIONS_LIST.test(text)) run(EN_CFR_COLON, 1, () => false);
  } else {
    run(IT_INTENDE_PER, 2, () => false);
    run(IT_PER_SI_INTENDE, 2, () => false);
    run(IT_PER_UNQUOTED, 1, () => false);
    run(IT_COLON, 2, () => true);
    // Quoted English-style definitions also occur in Italian documents translated from EU acts.
    run(EN_QUOTED, 2, (m) => isListStyle(text, m.index));
  }
  candidates.sort((a, b) => a.start - b.start);
  const out: Definition[] = [];
  candidates.forEach((c, i) => {
    // A definition never runs into the next one.
    const d = toDefinition(text, c, candidates[i + 1]?.start ?? text.length, language);
    if (d) out.push(d);
  });
  return out;
}

// ---------- acronyms ----------

const ACRONYM_PAREN =
  /\(\s*(?:di\s+seguito(?:\s+denominat[oaie])?\s*[:,]?\s*|hereinafter\s+(?:referred\s+to\s+as\s+)?|the\s+)?[«“"‘]?([A-Z][A-Za-z0-9&-]{1,11})[»”"’]?\s*\)/gu;
const STOP = new Set([
  "of",
  "and",
  "the",
  "for",
  "to",
  "in",
  "on",
  "or",
  "di",
  "e",
  "o",
  "del",
  "della",
  "dei",
  "degli",
  "delle",
  "dell'",
  "dell",
  "per",
  "a",
  "al",
  "cui",
  "gli",
  "il",
  "la",
  "le",
  "lo",
  "i",
]);

/**
 * Schwartz–Hearst style match: the acronym's letters, right to left, found in the preceding words,
 * the first letter at the start of a word. Returns the expansion or null.
 */
function expansionFor(acronym: string, before: string): string | null {
  const letters = acronym.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  if (letters.replace(/[^a-z]/g, "").length < 2) return null;
  const words = before.trimEnd().split(/\s+/);
  const window = words.slice(-Math.min(words.length, letters.length + 5, letters.length * 2 + 2));
  const candidate = window.join(" ");
  let li = letters.length - 1;
  let ci = candidate.length - 1;
  for (; li >= 0; li--) {
    const ch = letters[li] ?? "";
    for (;;) {
      if (ci < 0) return null;
      const c = candidate[ci]?.toLowerCase() ?? "";
      const atWordStart = ci === 0 || !/[a-z0-9]/i.test(candidate[ci - 1] ?? "");
      if (c === ch && (li > 0 || atWordStart)) break;
      ci--;
    }
    ci--;
  }
  let start = ci + 1;
  while (start > 0 && /[a-z0-9-]/i.test(candidate[start - 1] ?? "")) start--;
  const expansion = candidate
    .slice(start)
    .replace(/[\s,;:(‘“«"']+$/u, "")
    .replace(/^[\s‘“«"']+/u, "");
  const expWords = expansion.split(/\s+/).filter((w) => !STOP.has(w.toLowerCase()));
  if (expWords.length === 0 || expWords.length > letters.length + 2) return null;
  // "(CE)" after "di cui al regolamento": an expansion never starts with a function word.
  if (STOP.has((expansion.split(/\s+/)[0] ?? "").toLowerCase())) return null;
  if (expansion.toLowerCase() === acronym.toLowerCase()) return null;
  return expansion;
}

/** "information and communication technology (ICT)" → { acronym: "ICT", expansion: … }. First definition wins. */
export function findAcronyms(text: string): Acronym[] {
  const out: Acronym[] = [];
  const seen = new Set<string>();
  ACRONYM_PAREN.lastIndex = 0;
  for (let m = ACRONYM_PAREN.exec(text); m; m = ACRONYM_PAREN.exec(text)) {
    const acronym = m[1] ?? "";
    if ((acronym.match(/[A-Z]/g) ?? []).length < 2 || seen.has(acronym)) continue;
    const before = text.slice(Math.max(0, m.index - 200), m.index);
    const expansion = expansionFor(acronym, before);
    if (expansion === null) continue;
    seen.add(acronym);
    const start = m.index - (before.length - before.lastIndexOf(expansion.split(" ")[0] ?? expansion));
    out.push({ acronym, expansion: expansion.replace(/\s+/g, " "), span: { start: Math.max(0, start), end: m.index + m[0].length } });
  }
  return out;
}

/** Acronym → expansion map, for normalizeEntity. */
export function acronymMap(acronyms: Acronym[]): Map<string, string> {
  return new Map(acronyms.map((a) => [a.acronym, a.expansion.toLowerCase()]));
}
