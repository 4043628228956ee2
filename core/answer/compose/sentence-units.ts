import { grammarFamily, MARKER, marksLettere, PinpointTracker, pinpointFamily, pinpointHeads, withinGrammar } from "../../citations/index.ts";
import type { WinkMethods } from "wink-nlp";
import type { LanguageResources } from "../language-resources.ts";
import { partNumber } from "../../structure/part-label.ts";

// Sections are cut into sentence units — what an answer quotes and what a citation's support is
// checked against. wink-nlp finds the boundaries (as in extract/obligations.ts); legal text needs
// two repairs on top: a paragraph number ("1.") or point ("(a)") that wink returns as a sentence
// of its own belongs to what follows, and "Art." / "No." / "p." do not end a sentence.

export interface SentenceUnit {
  /** The sentence as printed (inner whitespace kept). */
  text: string;
  /** Character offsets into the section text, end exclusive. */
  start: number;
  end: number;
  /** The numbered paragraph of an article the sentence sits in ("4"), when the text numbers them. */
  paragraph: string | null;
  /** Paragraph and point markers open at the line it sits in: "(3)(a)", "(c)(1)" (pinpoint.ts); which point it belongs to. */
  pinpoint: string | null;
  /** The same as a citation may print it: null where a level of it is not known (pinpoint.ts), cut back where it breaks its family's grammar (grammar.ts). */
  citable: string | null;
  /** The tracker's pinpoint was cut back by the grammar: it named a level that cannot exist. */
  cut: boolean;
}

/** Longer units (tables, run-on lists) are cut at semicolons so a quote stays readable. */
const MAX_UNIT_CHARS = 900;
/** A point opening a sentence inside a line: "(i) Maintain …", or a chain such as "(e)(1) Standard: …". */
const INLINE_MARKER = new RegExp(String.raw`^(?:${MARKER})+\s+\p{Lu}`, "u");
const MARKER_ONLY = /^\(?(?:\d{1,3}|[a-z]{1,2}|[ivx]{1,5})[.)]$/i;
const ABBREVIATION_END =
  /(?:\b(?:art|artt|arts|no|nos|para|paras|par|p|pp|sec|reg|cf|lett|n|nn|vol|fig|e\.g|i\.e|etc|u\.s|c\.f\.r|u\.s\.c|d\.lgs|dott|dr|sig|avv|ing|prof|tel|fax)|\b\p{Lu})\.$/iu;

/** Sentence strings of one paragraph, aligned back to offsets in it. */
function rawSentences(wink: WinkMethods, line: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let cursor = 0;
  for (const s of wink.readDoc(line).sentences().out()) {
    const piece = String(s).trim();
    if (piece === "") continue;
    const at = line.indexOf(piece, cursor);
    if (at < 0) {
      // wink normalised something we cannot find again: keep the rest of the line as one unit.
      if (cursor < line.length) out.push({ start: cursor, end: line.length });
      return out;
    }
    out.push({ start: at, end: at + piece.length });
    cursor = at + piece.length;
  }
  return out;
}

function mergeFragments(line: string, pieces: Array<{ start: number; end: number }>): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let pending: { start: number; end: number } | null = null;
  for (const p of pieces) {
    const cur: { start: number; end: number } = pending === null ? { ...p } : { start: pending.start, end: p.end };
    const text = line.slice(cur.start, cur.end).trim();
    if (MARKER_ONLY.test(text) || ABBREVIATION_END.test(text)) {
      pending = cur;
      continue;
    }
    pending = null;
    out.push(cur);
  }
  if (pending !== null) out.push(pending);
  return out;
}

function splitLong(line: string, piece: { start: number; end: number }): Array<{ start: number; end: number }> {
  if (piece.end - piece.start <= MAX_UNIT_CHARS) return [piece];
  const out: Array<{ start: number; end: number }> = [];
  let from = piece.start;
  while (piece.end - from > MAX_UNIT_CHARS) {
    const window = line.slice(from, from + MAX_UNIT_CHARS);
    const cut = Math.max(window.lastIndexOf("; "), window.lastIndexOf(", "));
    const end = cut > MAX_UNIT_CHARS / 3 ? from + cut + 1 : from + MAX_UNIT_CHARS;
    out.push({ start: from, end });
    from = end;
    while (from < piece.end && /\s/.test(line[from] ?? "")) from++;
  }
  if (from < piece.end) out.push({ start: from, end: piece.end });
  return out;
}

export interface SentenceUnitOptions {
  /** The section's label: "§ 164.504" numbers its paragraphs as the CFR does (pinpoint.ts). */
  label?: string;
  /** The text of the provision before this section (its earlier parts), whose markers are still open. */
  before?: string;
}

/** The section's sentences in order; paragraphs ("\n") never share a sentence. */
export function sentenceUnits(text: string, resources: LanguageResources, options: SentenceUnitOptions = {}): SentenceUnit[] {
  // One pipeline per engine (language-resources.ts): loading the model is slow and it is only read afterwards.
  const wink = resources.sentencePipeline();
  let lineStart = 0;
  const family = pinpointFamily(options.label);
  const continues = options.label !== undefined && partNumber(options.label) > 1;
  const pinpoints = new PinpointTracker({ ...(family === undefined ? {} : { family }), continues, text, lettere: marksLettere(options.label) });
  if (options.before !== undefined) pinpoints.skim(options.before);
  const units: SentenceUnit[] = [];
  for (const line of text.split("\n")) {
    let citable = pinpoints.line(line);
    let pinpoint = pinpoints.structure();
    const paragraph = pinpoints.paragraphNumber();
    for (const merged of mergeFragments(line, rawSentences(wink, line))) {
      for (const piece of splitLong(line, merged)) {
        const raw = line.slice(piece.start, piece.end);
        const lead = raw.length - raw.trimStart().length;
        const body = raw.trim();
        if (!/\p{L}/u.test(body)) continue;
        // A point run into the line of the paragraph above ("(b)(1) Standard: Documentation. (i)
        // Maintain …") opens where its sentence starts.
        if (piece.start + lead > 0 && INLINE_MARKER.test(body)) {
          citable = pinpoints.line(body);
          pinpoint = pinpoints.structure();
        }
        units.push({
          text: body,
          start: lineStart + piece.start + lead,
          end: lineStart + piece.start + lead + body.length,
          paragraph,
          pinpoint,
          citable,
          cut: false,
        });
      }
    }
    lineStart += line.length + 1;
  }
  return guarded(units, `${options.before ?? ""}\n${text}`, options.label);
}

/**
 * Rule "a pinpoint that breaks its family's grammar is never printed" (citations/grammar.ts): each
 * sentence's pinpoint is checked against its family's order of levels and the lists the provision
 * prints (its earlier parts' text, and this part's pinpoints), and cut back to the level that exists.
 */
function guarded(units: SentenceUnit[], provision: string, label: string | undefined): SentenceUnit[] {
  const grammar = grammarFamily(label);
  const known = new Set(units.flatMap((u) => pinpointHeads(u.citable)));
  const checked = new Map<string, string | null>();
  return units.map((u) => {
    if (u.citable === null) return u;
    if (!checked.has(u.citable)) checked.set(u.citable, withinGrammar(u.citable, grammar, provision, known));
    const printed = checked.get(u.citable) ?? null;
    return printed === u.citable ? u : { ...u, citable: printed, cut: true };
  });
}

/** Sentences of free text (a model's answer): same splitter, without offsets. */
export function splitSentences(text: string, resources: LanguageResources): string[] {
  return sentenceUnits(text, resources).map((u) => u.text);
}
