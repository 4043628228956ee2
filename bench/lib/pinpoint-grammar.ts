import { earlierPartsText } from "../../core/answer/compose/earlier-parts.ts";
import type { LanguageResources } from "../../core/answer/language-resources.ts";
import { continuesItsList, followsGrammar, grammarFamily, opensLine, pinpointHeads, type GrammarFamily } from "../../core/citations/grammar.ts";
import { sentenceUnits, type SentenceUnit } from "../../core/answer/compose/sentence-units.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import type { Section } from "../../core/model/section-types.ts";
import { provisionLabel } from "../../core/structure/part-label.ts";

// The grammar itself is the runtime's (core/citations/grammar.ts): here every pinpoint of a
// document is checked against it and against the lists its provision prints, counting the ones
// the runtime had to cut. Shared by bench:citations and test/corpus/pinpoint-grammar.test.ts.

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
  /** Sentences whose tracked pinpoint the runtime cut back to the grammar (each a tracker error caught before print). */
  cut: number;
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
    for (const u of list) for (const head of pinpointHeads(u.citable)) set.add(head);
  }
  const reports = new Map<GrammarFamily, GrammarReport & { seen: Set<string> }>();
  for (const [section, list] of units) {
    const family = grammarFamily(section.label);
    const report = reports.get(family) ?? { family, sentences: 0, pinned: 0, distinct: 0, breaks: [], cut: 0, seen: new Set<string>() };
    reports.set(family, report);
    const base = provisionLabel(section.label);
    for (const u of list) {
      report.sentences++;
      if (u.cut) report.cut++;
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
  const labels = labelBreaks([...units.keys()]);
  const nist = reports.get("nist");
  if (nist !== undefined) nist.breaks.push(...labels);
  return [...reports.values()].map(({ seen, ...r }) => ({ ...r, distinct: seen.size }));
}

const DECIMAL = /^(?:(?:Section|Chapter)\s+)?(\d+(?:\.\d+)*)$/;

/**
 * A NIST document's own labels follow its numbering: requirement "3.1.2" sits in a document that
 * numbers "3.1" (its section) and "3.1.1" (the one before it), or is its list's first.
 */
export function labelBreaks(sections: readonly Section[]): GrammarBreak[] {
  const numbers = new Set<string>();
  const out: GrammarBreak[] = [];
  if (!sections.some((s) => grammarFamily(s.label) === "nist")) return out;
  for (const section of sections) {
    const label = provisionLabel(section.label);
    const number = DECIMAL.exec(label)?.[1];
    if (number === undefined || numbers.has(number)) continue;
    const parts = number.split(".");
    const parent = parts.slice(0, -1).join(".");
    const last = Number(parts.at(-1));
    const before = [...parts.slice(0, -1), String(last - 1)].join(".");
    if ((parent !== "" && !numbers.has(parent)) || (last > 1 && !numbers.has(before)))
      out.push({ label, pinpoint: "", sentence: `${label} without ${parent !== "" && !numbers.has(parent) ? parent : before} before it` });
    numbers.add(number);
  }
  return out;
}
