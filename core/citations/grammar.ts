import { marksLettere, MAX_JUMP, pinpointFamily, ROMANS, type PinpointFamily } from "./pinpoint.ts";
import { provisionLabel } from "../structure/part-label.ts";

// The numbering grammar of each family of pinpoints, as a citation prints them: the CFR's
// (a) → (1) → (i) → (A) → (1) → (i), one level skipped at most (45 CFR 164.404(c)(1) lists "(A)"
// with no "(i)"); the EU's paragraph → (a) → (i), an Italian article's comma → lettera
// ("(1)(lett. b)"), an Italian section's lettera ("Par. 7", "(lett. b)"); NIST's numbered
// requirement or section ("3.1.1", "Section 2.3.1", a control "AC-2") whose lists number, then
// letter, then count in numerals, never one kind inside itself. The tracker (pinpoint.ts) reads
// markers; this grammar says which of the pinpoints it reads may exist, so that one it got wrong
// is cut back to the nearest level that may (`withinGrammar`) instead of being printed.

/** The families whose grammar is known; "list" is a document of none, whose lists still nest by kind. */
export type GrammarFamily = PinpointFamily | "it" | "nist" | "list";
type Level = "letter" | "digit" | "roman" | "upper";
/** A level of a family's order; an optional one may be passed over without counting as skipped. */
interface Slot {
  level: Level;
  optional?: boolean;
}
const slots = (...levels: Level[]): Slot[] => levels.map((level) => ({ level }));
const optional = (...levels: Level[]): Slot[] => levels.map((level) => ({ level, optional: true }));
const ORDERS: Record<GrammarFamily, readonly Slot[]> = {
  cfr: slots("letter", "digit", "roman", "upper", "digit", "roman"),
  // Amending articles number their points under a paragraph: "Art. 60(2), point (6)(a)". A
  // paragraph may number its points at once: DORA Art. 31(8)(i).
  eu: [{ level: "digit" }, { level: "digit", optional: true }, { level: "letter" }, { level: "roman" }],
  // A numbered item of a tender's section may hold letteras: "(4)(lett. a)".
  it: [{ level: "digit", optional: true }, { level: "letter" }],
  // A requirement's or section's own lists (800-66's numbered key activities), or a control's enhancement "(1)".
  nist: optional("digit", "letter", "roman", "upper"),
  list: optional("digit", "letter", "roman", "upper"),
};
/** Levels a family's first marker may pass over: an EU article without numbered paragraphs lists its points at once ("Art. 2(a)"). */
const TOP_SKIPS: Record<GrammarFamily, number> = { cfr: 0, eu: 1, it: 0, nist: 0, list: 0 };

/** A NIST label: a requirement "3.1.1", a numbered section "Section 2.3.1" (a regulation's "Section 1" of a chapter is not), a task "Task 1-3", a control "AC-2" or its enhancement "AC-2(1)". */
const NIST_LABEL = /^(?:Section\s+\d+(?:\.\d+)+|\d+(?:\.\d+)+|Task\s+\d+-\d+|[A-Z]{2}-\d+(?:\(\d+\))?)$/;

/** The grammar a section's pinpoints follow, from its label ("§ 164.504" the CFR's, "Par. 7" a tender's, "3.1.1" NIST's). */
export function grammarFamily(label: string | undefined): GrammarFamily {
  const family = pinpointFamily(label);
  if (family !== undefined) return family;
  if (marksLettere(label)) return "it";
  return label !== undefined && NIST_LABEL.test(provisionLabel(label)) ? "nist" : "list";
}

/** A lettera's token in a pinpoint: "lett. b". */
const LETTERA_TOKEN = /^lett\. ([a-z])$/;

function fits(value: string, level: Level): boolean {
  if (level === "digit") return /^\d+$/.test(value);
  if (level === "upper") return /^[A-Z]$/.test(value);
  if (level === "roman") return /^[ivxlc]+$/.test(value);
  // An Italian lettera sits where an EU point does, right under the comma.
  return /^[a-z]{1,2}$/.test(value) || LETTERA_TOKEN.test(value);
}

/** A pinpoint's heads, itself included: "(3)(a)" → "(3)", "(3)(a)"; the lists a pinpoint shows printed. */
export function pinpointHeads(pinpoint: string | null): string[] {
  const parts = pinpoint?.match(/\([^)]+\)/g) ?? [];
  return parts.map((_, i) => parts.slice(0, i + 1).join(""));
}

const valuesOf = (pinpoint: string): string[] => [...pinpoint.matchAll(/\(([^)]+)\)/g)].map((m) => m[1] ?? "");

/** The pinpoint's markers follow the family's order of levels (one skipped at most), from its top. */
export function followsGrammar(pinpoint: string, family: GrammarFamily): boolean {
  const order = ORDERS[family];
  const values = valuesOf(pinpoint);
  let at = -1;
  for (const value of values) {
    let next: number | undefined;
    let skipped = 0;
    for (let j = at + 1; j < order.length && skipped <= (at < 0 ? TOP_SKIPS[family] : 1); j++) {
      const slot = order[j];
      if (slot !== undefined && fits(value, slot.level)) {
        next = j;
        break;
      }
      if (slot?.optional !== true) skipped++;
    }
    if (next === undefined) return false;
    at = next;
  }
  return values.length > 0;
}

/** Where a marker may stand: at the start of a line, or of a sentence. */
const AT = String.raw`(?:^|\n|[.:;]\s)\s*`;
const PAREN_AT = new RegExp(String.raw`${AT}\(([^)\s]{1,6})\)([\s(])?`, "g");
/** A paragraph number as printed: "3. ", or with its space or dot lost ("4.Il", "4 In"; paragraphs.ts), never a decimal ("1.1"). */
const NUMBER_AT = new RegExp(String.raw`${AT}(\d{1,3})(?:\.(?![\d.])|\s(?=\p{Lu}\p{Ll}))`, "gu");
/** A letter or numeral with a dot ("b. "); a lettera "b)" or "b. ". */
const DOTTED_AT = new RegExp(String.raw`${AT}([a-z]{1,2}|[ivxlc]{1,6}|[A-Z])\.\s`, "g");
const LETTERA_AT = new RegExp(String.raw`${AT}([a-z])[.)]\s`, "g");

/**
 * The markers a provision prints where a marker may stand, read once per text: "(e)" ("(e)+" when
 * a space or another marker follows), "4." for a number however its mark was printed, "b." for a
 * dotted letter, "lett. b" for a lettera.
 */
function printedMarkers(text: string): ReadonlySet<string> {
  const cached = printedCache.get(text);
  if (cached !== undefined) return cached;
  const out = new Set<string>();
  // A provision marking numbers [Reserved] may skip any of them.
  if (/\[Reserved\]|\[Deleted\]|\[soppresso\]/i.test(text)) out.add(RESERVED);
  for (const m of text.matchAll(PAREN_AT)) {
    out.add(`(${m[1] ?? ""})`);
    if (m[2] !== undefined) out.add(`(${m[1] ?? ""})+`);
  }
  for (const m of text.matchAll(NUMBER_AT)) out.add(`${m[1] ?? ""}.`);
  for (const m of text.matchAll(DOTTED_AT)) out.add(`${m[1] ?? ""}.`);
  for (const m of text.matchAll(LETTERA_AT)) out.add(`lett. ${m[1] ?? ""}`);
  // A few provisions are checked over and over while an answer is built: the last ones are kept.
  if (printedCache.size >= PRINTED_CACHE) printedCache.delete(printedCache.keys().next().value ?? "");
  printedCache.set(text, out);
  return out;
}
const PRINTED_CACHE = 16;
const RESERVED = "[reserved]";
const printedCache = new Map<string, ReadonlySet<string>>();

/** Whether the marker `value` opens a line or sentence of the text: "(b)" or "b. ", "3." however printed, a lettera "b)" or "b. ". */
function opensWith(printed: ReadonlySet<string>, value: string, spaced: boolean): boolean {
  const lettera = LETTERA_TOKEN.exec(value)?.[1];
  if (lettera !== undefined) return printed.has(`lett. ${lettera}`);
  return printed.has(spaced ? `(${value})+` : `(${value})`) || printed.has(`${value}.`);
}

/** The pinpoint's first marker opens a line or a sentence of the provision ("(e)(1) Standard …", "3. The …", "(21) 'x' means", "b) possedere …"). */
export function opensLine(pinpoint: string, provisionText: string): boolean {
  const first = /^\(([^)]+)\)/.exec(pinpoint)?.[1] ?? "";
  return opensWith(printedMarkers(provisionText), first, false);
}

const FIRST_VALUES = new Set(["a", "1", "i", "A"]);

/** The values that may come before `value` in its list: "b" → "a", "3" → "2", "v" → "iv" (a numeral) or "u" (a letter); "lett. l" → "lett. k" or "lett. i" (Italian lists skip j, k, w, x, y). */
function predecessors(value: string): string[] {
  const lettera = LETTERA_TOKEN.exec(value)?.[1];
  if (lettera !== undefined) {
    if (lettera === "a") return [];
    const before = (c: string): string => String.fromCharCode(c.charCodeAt(0) - 1);
    let italian = before(lettera);
    while (/[jkwxy]/.test(italian)) italian = before(italian);
    return [...new Set([before(lettera), italian])].map((c) => `lett. ${c}`);
  }
  if (FIRST_VALUES.has(value)) return [];
  // A numbered list may jump a few numbers (reserved, or printed without their dot: "4 In sede …").
  if (/^\d+$/.test(value)) return Array.from({ length: Math.min(MAX_JUMP, Number(value) - 1) }, (_, i) => String(Number(value) - 1 - i));
  const out: string[] = [];
  const roman = ROMANS.indexOf(value);
  if (roman > 0) out.push(ROMANS[roman - 1] ?? "");
  if (/^[A-Za-z]$/.test(value)) out.push(String.fromCharCode(value.charCodeAt(0) - 1));
  else if (/^([a-z])\1$/.test(value)) out.push(value === "aa" ? "z" : String.fromCharCode(value.charCodeAt(0) - 1).repeat(2));
  return out;
}

/**
 * Every marker of the pinpoint continues a list the provision prints: "(v)" needs its "(u)" (or
 * its "(iv)", read as a numeral), unless the provision marks numbers [Reserved]. "§ 164.528(v)(2)"
 * broke this: a "(v)" read as a letter where "(iv)" had lost its space in print.
 */
export function continuesItsList(pinpoint: string, known: ReadonlySet<string>, provisionText: string): boolean {
  const markers = printedMarkers(provisionText);
  if (markers.has(RESERVED)) return true;
  let prefix = "";
  let last: string | undefined;
  for (const value of valuesOf(pinpoint)) {
    // A list never holds itself: "(i)(i)" is the ninth letter's first numeral only where "(h)"
    // is printed (DORA Art. 5(2)(i)(i)); else one list was read twice, a second list's "(i)" after
    // a lead-in taken for a deeper level (NIST SP 800-30 Section 2.3.1).
    const alternatives = value === last ? (value === "i" ? ["h"] : [value]) : predecessors(value);
    last = value;
    // Known as a pinpoint, or printed run into a line ("(A) Comply …; (B) In accordance …").
    const printed = (b: string): boolean => known.has(`${prefix}(${b})`) || opensWith(markers, b, true);
    if (alternatives.length > 0 && !alternatives.some((b) => b !== value && printed(b))) return false;
    prefix += `(${value})`;
  }
  return true;
}

/**
 * Rule "a pinpoint that breaks its family's grammar is never printed": the longest head of it
 * that follows the grammar, opens a line of the provision and continues lists the provision
 * prints; null when none does, or when a list was read twice (the sentence is cited by its provision).
 */
export function withinGrammar(pinpoint: string, family: GrammarFamily, provisionText: string, known: ReadonlySet<string> = new Set()): string | null {
  const heads = pinpointHeads(pinpoint);
  const values = valuesOf(pinpoint);
  // A list read twice leaves no level known: the tracker took a second list for a deeper one.
  const repeated = values.findIndex((v, i) => i > 0 && v === values[i - 1]);
  if (repeated > 0 && !continuesItsList(heads[repeated] ?? "", known, provisionText)) return null;
  for (const head of heads.reverse()) {
    if (followsGrammar(head, family) && opensLine(head, provisionText) && continuesItsList(head, known, provisionText)) return head;
  }
  return null;
}
