import { earlierPartsText } from "../../core/answer/compose/earlier-parts.ts";
import type { LanguageResources } from "../../core/answer/language-resources.ts";
import { marksLettere, pinpointFamily, ROMANS, type PinpointFamily } from "../../core/citations/pinpoint.ts";
import { sentenceUnits, type SentenceUnit } from "../../core/answer/compose/sentence-units.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import type { Section } from "../../core/model/section-types.ts";
import { provisionLabel } from "../../core/structure/part-label.ts";

// The numbering grammar of each family of pinpoints, checked on what the answer path would print
// (SentenceUnit.citable): the CFR's (a) → (1) → (i) → (A) → (1) → (i), one level skipped at most
// (45 CFR 164.404(c)(1) lists "(A)" with no "(i)"); the EU's paragraph → (a) → (i), an Italian
// article's comma → lettera ("(1)(lett. b)"), an Italian section's lettera ("Par. 7", "(lett. b)").
// Shared by bench:citations and test/corpus/pinpoint-grammar.test.ts.

/** The families checked: the tracker's, and Italian numbered sections ("Par. 7.2"), whose printed pinpoints are letteras. */
export type GrammarFamily = PinpointFamily | "it";
type Level = "letter" | "digit" | "roman" | "upper";
/** A level of a family's order; an optional one may be passed over without counting as skipped. */
interface Slot {
  level: Level;
  optional?: boolean;
}
const slots = (...levels: Level[]): Slot[] => levels.map((level) => ({ level }));
const ORDERS: Record<GrammarFamily, readonly Slot[]> = {
  cfr: slots("letter", "digit", "roman", "upper", "digit", "roman"),
  // Amending articles number their points under a paragraph: "Art. 60(2), point (6)(a)". A
  // paragraph may number its points at once: DORA Art. 31(8)(i).
  eu: [{ level: "digit" }, { level: "digit", optional: true }, { level: "letter" }, { level: "roman" }],
  // A numbered item of a tender's section may hold letteras: "(4)(lett. a)".
  it: [{ level: "digit", optional: true }, { level: "letter" }],
};
/** Levels a family's first marker may pass over: an EU article without numbered paragraphs lists its points at once ("Art. 2(a)"). */
const TOP_SKIPS: Record<GrammarFamily, number> = { cfr: 0, eu: 1, it: 0 };

/** A lettera's token in a pinpoint: "lett. b". */
const LETTERA_TOKEN = /^lett\. ([a-z])$/;

function fits(value: string, level: Level): boolean {
  if (level === "digit") return /^\d+$/.test(value);
  if (level === "upper") return /^[A-Z]$/.test(value);
  if (level === "roman") return /^[ivxlc]+$/.test(value);
  // An Italian lettera sits where an EU point does, right under the comma.
  return /^[a-z]{1,2}$/.test(value) || LETTERA_TOKEN.test(value);
}

/** The pinpoint's markers follow the family's order of levels (one skipped at most), from its top. */
export function followsGrammar(pinpoint: string, family: GrammarFamily): boolean {
  const order = ORDERS[family];
  const values = [...pinpoint.matchAll(/\(([^)]+)\)/g)].map((m) => m[1] ?? "");
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

/** How a marker value opens a line: "(b)" or "3. "; a lettera "b)" or "b. ". */
function opening(value: string): string {
  const lettera = LETTERA_TOKEN.exec(value)?.[1];
  if (lettera !== undefined) return String.raw`${lettera}[.)]\s`;
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return String.raw`(?:\(${escaped}\)|${escaped}\.\s)`;
}

/** The pinpoint's first marker opens a line or a sentence of the provision ("(e)(1) Standard …", "3. The …", "(21) 'x' means", "b) possedere …"). */
export function opensLine(pinpoint: string, provisionText: string): boolean {
  const first = /^\(([^)]+)\)/.exec(pinpoint)?.[1] ?? "";
  return new RegExp(String.raw`(?:^|\n|[.:;]\s)\s*${opening(first)}`).test(provisionText);
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
  if (/^\d+$/.test(value)) return [String(Number(value) - 1)];
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
  if (/\[Reserved\]|\[Deleted\]|\[soppresso\]/i.test(provisionText)) return true;
  const values = [...pinpoint.matchAll(/\(([^)]+)\)/g)].map((m) => m[1] ?? "");
  let prefix = "";
  for (const value of values) {
    const alternatives = predecessors(value);
    // Known as a pinpoint, or printed run into a line ("(A) Comply …; (B) In accordance …").
    const marker = (b: string): string => (LETTERA_TOKEN.test(b) ? opening(b) : String.raw`\(${b}\)\s`);
    const printed = (b: string): boolean => known.has(`${prefix}(${b})`) || new RegExp(String.raw`(?:^|\n|[.:;]\s)\s*${marker(b)}`).test(provisionText);
    if (alternatives.length > 0 && !alternatives.some(printed)) return false;
    prefix += `(${value})`;
  }
  return true;
}

/** Every sentence of every section, each read after its provision's earlier parts (as engine.ask does). */
export async function documentUnits(sections: readonly Section[], resources: LanguageResources): Promise<Map<Section, SentenceUnit[]>> {
  const byId = new Map(sections.map((s) => [s.id, s]));
  const document = {} as DocumentRecord;
  const store = { getSectionsByIds: async (ids: string[]) => ids.flatMap((id) => (byId.has(id) ? [{ section: byId.get(id) as Section, document }] : [])) };
  const before = await earlierPartsText(store, sections);
  return new Map(sections.map((s) => [s, sentenceUnits(s.text, resources, { label: s.label, ...(before.has(s.id) ? { before: before.get(s.id) } : {}) })]));
}

export interface GrammarBreak {
  label: string;
  pinpoint: string;
  sentence: string;
}

export interface GrammarReport {
  family: GrammarFamily;
  sentences: number;
  /** Sentences a citation may pin (a citable pinpoint). */
  pinned: number;
  distinct: number;
  breaks: GrammarBreak[];
}

/** The pinpoints of one document's pinpointable provisions, checked against their family's grammar. */
export function checkDocument(units: Map<Section, SentenceUnit[]>): GrammarReport[] {
  const provisions = new Map<string, string>();
  for (const section of units.keys()) {
    const base = provisionLabel(section.label);
    provisions.set(base, `${provisions.get(base) ?? ""}\n${section.text}`);
  }
  // Every pinpoint a provision's sentences carry, with its prefixes: the lists it prints.
  const known = new Map<string, Set<string>>();
  for (const [section, list] of units) {
    const base = provisionLabel(section.label);
    const set = known.get(base) ?? new Set<string>();
    known.set(base, set);
    for (const u of list) {
      const parts = [...(u.citable ?? "").matchAll(/\([^)]+\)/g)].map((m) => m[0]);
      for (let i = 1; i <= parts.length; i++) set.add(parts.slice(0, i).join(""));
    }
  }
  const reports = new Map<GrammarFamily, GrammarReport & { seen: Set<string> }>();
  for (const [section, list] of units) {
    const family = pinpointFamily(section.label) ?? (marksLettere(section.label) ? "it" : undefined);
    if (family === undefined) continue;
    const report = reports.get(family) ?? { family, sentences: 0, pinned: 0, distinct: 0, breaks: [], seen: new Set<string>() };
    reports.set(family, report);
    const base = provisionLabel(section.label);
    for (const u of list) {
      report.sentences++;
      // An Italian section's numbered items are lists a citation does not print: its letteras are checked.
      if (u.citable === null || (family === "it" && !u.citable.includes("(lett. "))) continue;
      report.pinned++;
      const key = `${base}${u.citable}`;
      if (report.seen.has(key)) continue;
      report.seen.add(key);
      const text = provisions.get(base) ?? "";
      if (!followsGrammar(u.citable, family) || !opensLine(u.citable, text) || !continuesItsList(u.citable, known.get(base) ?? new Set(), text))
        report.breaks.push({ label: base, pinpoint: u.citable, sentence: u.text.slice(0, 80) });
    }
  }
  return [...reports.values()].map(({ seen, ...r }) => ({ ...r, distinct: seen.size }));
}
