import { escapeRegExp } from "../text/index.ts";
import { identifierKey, identifierKeys } from "./instrument-keys.ts";
import { INSTRUMENTS, instrumentById, type InstrumentEntry } from "./instrument-registry.ts";

// Finding the registry's instruments in a text (a question, a document's title): by short name
// ("DORA", "the security rule", "Codice dei contratti pubblici"), by identifier ("Regolamento (UE)
// 2016/679", "45 CFR Part 164", "SP 800-171 Rev. 2") or, for a document's own title, by the
// official title's words. Overlapping matches keep the longest ("UK GDPR" is not also "GDPR").

export interface InstrumentMention {
  entry: InstrumentEntry;
  /** As written in the text. */
  text: string;
  start: number;
  end: number;
  by: "name" | "identifier" | "title" | "description";
}

/** Lower case, accents and punctuation folded to single spaces, padded: word sequences compare as substrings. */
export function foldWords(text: string): string {
  return ` ${text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
}

/** "DORA", "NIS2", "eIDAS", "MiCA": one word with two or more capitals. */
const isAcronym = (name: string): boolean => !/\s/.test(name) && (name.match(/\p{Lu}/gu)?.length ?? 0) >= 2;
/**
 * Acronyms that are also words ("mica" is Italian for "not at all", "sox", "cad"): found only
 * as capitalised in the text. Other acronyms are found in any case ("under dora").
 */
const WORD_LIKE = new Set(["mica", "micar", "sox", "cad", "csf"]);

interface NamePattern {
  entry: InstrumentEntry;
  re: RegExp;
  /** Matched against the accent-folded text in its own case (acronyms that are words) or lower-cased. */
  caseless: boolean;
}

/**
 * A name as a pattern over the accent-folded text: its words in order, any punctuation or space
 * between. ASCII classes on purpose: the patterns with `\p{L}` classes took V8 seconds to compile
 * (measured), paid by the first question; these compile orders of magnitude faster.
 */
function namePattern(name: string, caseless: boolean): RegExp {
  // Case-sensitive names keep their own capitals ("MiCA"); the others are matched lower-cased.
  const words = (caseless ? foldWords(name) : ` ${name.replace(/[^A-Za-z0-9]+/g, " ")} `).trim().split(" ").map(escapeRegExp);
  const letter = caseless ? "a-z0-9" : "A-Za-z0-9";
  return new RegExp(`(?<![${letter}])${words.join(`[^${letter}]{1,3}`)}(?![${letter}])`, "g");
}

const NAME_PATTERNS: NamePattern[] = INSTRUMENTS.flatMap((entry) =>
  entry.names.map((name) => {
    const caseless = !isAcronym(name) || !WORD_LIKE.has(name.toLowerCase());
    return { entry, re: namePattern(name, caseless), caseless };
  }),
);

/** A phrase of words as a pattern source over lower-cased folded text: any punctuation or space between words. */
function phraseSource(phrase: string): string {
  return foldWords(phrase).trim().split(" ").map(escapeRegExp).join("[^a-z0-9]{1,3}");
}

/** Up to two other words between the parts of a description ("the EU's new digital-resilience law"). */
const GAP = "(?:[^a-z0-9]{1,3}[a-z0-9]+){0,2}?[^a-z0-9]{1,3}";

/**
 * Rule "a description names an instrument": issuer or jurisdiction, then subject, then kind of
 * text, a few words apart at most ("the EU digital-resilience law", "the federal CUI standard",
 * "NIST's risk-assessment guide"). The parts come from the registry (describedAs), so the rule
 * holds for any instrument described there.
 */
const DESCRIPTION_PATTERNS: Array<{ entry: InstrumentEntry; re: RegExp }> = INSTRUMENTS.flatMap((entry) => {
  const d = entry.describedAs;
  if (d === undefined) return [];
  const alt = (items: readonly string[]): string =>
    `(?:${[...items]
      .sort((a, b) => b.length - a.length)
      .map(phraseSource)
      .join("|")})`;
  return [{ entry, re: new RegExp(`(?<![a-z0-9])${alt(d.by)}${GAP}${alt(d.subjects)}${GAP}${alt(d.kinds)}(?![a-z0-9])`, "g") }];
});

/** Identifier key → instrument (a key with a subpart falls back to its part: "cfr:45/164/A" → HIPAA). */
const BY_KEY = new Map<string, InstrumentEntry>();
for (const entry of INSTRUMENTS) {
  for (const identifier of entry.identifiers) {
    const key = identifierKey(identifier);
    if (key !== null && !BY_KEY.has(key)) BY_KEY.set(key, entry);
  }
}

export function instrumentForKey(key: string): InstrumentEntry | undefined {
  return BY_KEY.get(key) ?? BY_KEY.get(key.replace(/\/[A-Z]$/, ""));
}

/** Text with accents folded (and lower-cased when asked) but every character kept in place, so match offsets stay valid. */
export function foldAccents(text: string, lower = false): string {
  let out = "";
  for (const ch of text) {
    const base = ch.length === 1 ? ch.normalize("NFD").replace(/\p{M}/gu, "").slice(0, 1) || ch : ch;
    const cased = lower ? base.toLowerCase() : base;
    out += cased.length === base.length ? cased : base;
  }
  return out;
}

/** Instruments the text names, in order of appearance, overlapping matches resolved to the longest. */
export function findInstrumentMentions(text: string, options: { titlePhrases?: boolean } = {}): InstrumentMention[] {
  const original = foldAccents(text, false);
  const lowered = foldAccents(text, true);
  const found: InstrumentMention[] = [];
  for (const { entry, re, caseless } of NAME_PATTERNS) {
    const folded = caseless ? lowered : original;
    re.lastIndex = 0;
    for (let m = re.exec(folded); m !== null; m = re.exec(folded))
      found.push({ entry, text: text.slice(m.index, m.index + m[0].length), start: m.index, end: m.index + m[0].length, by: "name" });
  }
  for (const m of identifierKeys(text)) {
    const entry = instrumentForKey(m.key);
    if (entry) found.push({ entry, text: m.text, start: m.start, end: m.end, by: "identifier" });
  }
  for (const { entry, re } of DESCRIPTION_PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(lowered); m !== null; m = re.exec(lowered))
      found.push({ entry, text: text.slice(m.index, m.index + m[0].length), start: m.index, end: m.index + m[0].length, by: "description" });
  }
  if (options.titlePhrases === true) {
    const words = foldWords(text);
    for (const entry of INSTRUMENTS) {
      for (const phrase of entry.titlePhrases ?? []) {
        if (words.includes(foldWords(phrase))) found.push({ entry, text: phrase, start: -1, end: -1, by: "title" });
      }
    }
  }
  // Longest first; a match inside a longer one is dropped ("UK GDPR" ⊃ "GDPR", "NIST SP 800-53" ⊃ "800-53").
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: InstrumentMention[] = [];
  for (const m of found) {
    if (m.start >= 0 && kept.some((k) => k.start >= 0 && m.start < k.end && k.start < m.end)) continue;
    if (m.start < 0 && kept.some((k) => k.start < 0 && k.entry.id === m.entry.id)) continue;
    kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** Distinct instruments among mentions, in order of first mention. */
export function distinctEntries(mentions: readonly InstrumentMention[]): InstrumentEntry[] {
  const out = new Map<string, InstrumentEntry>();
  for (const m of mentions) if (!out.has(m.entry.id)) out.set(m.entry.id, m.entry);
  return [...out.values()];
}

/** The instrument and every instrument it contains, transitively. */
export function withContained(entry: InstrumentEntry): InstrumentEntry[] {
  const out = new Map<string, InstrumentEntry>([[entry.id, entry]]);
  const queue = [...(entry.contains ?? [])];
  while (queue.length > 0) {
    const id = queue.shift() ?? "";
    const child = instrumentById(id);
    if (!child || out.has(id)) continue;
    out.set(id, child);
    queue.push(...(child.contains ?? []));
  }
  return [...out.values()];
}

/** The instrument a stored alias names exactly ("DORA", "Regulation (EU) 2022/2554"), if any. */
export function instrumentForAlias(alias: string): InstrumentEntry | undefined {
  const mentions = findInstrumentMentions(alias);
  const [only] = mentions;
  if (mentions.length !== 1 || only === undefined) return undefined;
  // The whole alias must be the name, not a longer phrase containing it ("DORA guide" is a user name).
  return foldWords(only.text) === foldWords(alias) ? only.entry : undefined;
}
