import type { SectionKind } from "../model/section-types.ts";
import type { FlowLine } from "./flow.ts";
import type { LayoutStats } from "./layout-stats.ts";

// Contract between the per-family detectors and the builder. A detector only says what a line
// would be if it were a heading; whether it really is one is decided by the scanner from the
// whole document (styling majority, numbering order, document phase).

/** How the heading's title is found when it is not on the label's line. */
export type TitleMode =
  /** Following lines printed like a heading (bold/centred/larger, or one short line in plain text). */
  | "next-lines"
  /** The title is on the label line only. */
  | "inline"
  /** The rest of the line is body text, not a title (run-in captions such as "SUMMARY:"). */
  | "run-in";

export interface HeadingCandidate {
  kind: SectionKind;
  /** Citation label, e.g. "Article 19". */
  label: string;
  /** Nesting rank: lower encloses higher. */
  rank: number;
  /** Title text found on the label line, "" when none. */
  inlineTitle: string;
  titleMode: TitleMode;
  /** For run-in headings: characters of the label line that are the label, not body text. */
  runInPrefix?: number;
  /** Lines of the same group share a styling vote and an ordering guard. */
  group: string;
  /** Ordering key (e.g. [19] for Article 19, [3, 1, 2] for 3.1.2); undefined: no order check. */
  order?: number[];
  /**
   * How `order` must relate to the previous accepted heading of the group: "next" = exactly +1
   * (recitals), "increasing" = any larger number (articles may skip repealed ones), "successor" =
   * decimal numbering that continues the outline (3.1 → 3.2, 3.2 → 3.2.1 or 4).
   */
  sequence?: "next" | "increasing" | "successor";
  /** Headings sharing a key share one ordering state (a decimal outline spans depths). */
  sequenceKey?: string;
  /** "parent": numbering restarts inside each enclosing heading (sections within a chapter). */
  scope?: "document" | "parent";
  /** Groups that can no longer start once this heading is accepted (recitals end at Article 1). */
  closes?: string[];
  /** True when the heading text itself states the rule (NIST requirements): keep it in the body. */
  titleIsBody?: boolean;
  /** The label line must look like a heading (bold or larger) even in documents where most don't. */
  needsStyle?: boolean;
  /** Decimal headings whose title turns out to be a sentence are requirements ("3.1.1 Limit …."). */
  requirementIfSentence?: boolean;
}

export interface DetectContext {
  stats: LayoutStats;
  /** The stream, for detectors that look at neighbours. */
  lines: readonly FlowLine[];
  /** BCP-47 primary language of the document ("en", "it", "und"): labels are cited in it. */
  language: string;
}

export interface HeadingDetector {
  /** Family name, used by the profile chooser. */
  family: string;
  detect(line: FlowLine, ctx: DetectContext): HeadingCandidate | undefined;
}

/** Table-of-contents entries: dot leaders or a trailing page reference, never a heading. */
export function isTocLine(text: string): boolean {
  return /(\.\s?){4,}\s*(pag\.?\s*)?\d*\s*$/i.test(text) || /…{2,}\s*\d*\s*$/.test(text) || /\.{3,}\s*\d+\s*$/.test(text);
}

const ROMAN: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };

/** Roman numeral → number; NaN when the string is not a roman numeral. */
export function romanToNumber(roman: string): number {
  const s = roman.toUpperCase();
  if (!/^[IVXLCDM]+$/.test(s)) return Number.NaN;
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const v = ROMAN[s[i] ?? ""] ?? 0;
    const next = ROMAN[s[i + 1] ?? ""] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

const WORD_NUMBERS = [
  "ZERO",
  "ONE",
  "TWO",
  "THREE",
  "FOUR",
  "FIVE",
  "SIX",
  "SEVEN",
  "EIGHT",
  "NINE",
  "TEN",
  "ELEVEN",
  "TWELVE",
  "THIRTEEN",
  "FOURTEEN",
  "FIFTEEN",
  "SIXTEEN",
  "SEVENTEEN",
  "EIGHTEEN",
  "NINETEEN",
  "TWENTY",
];

/** "III", "3", "THREE" → 3; NaN otherwise. */
export function parseOrdinal(token: string): number {
  if (/^\d+$/.test(token)) return Number(token);
  const word = WORD_NUMBERS.indexOf(token.toUpperCase());
  if (word > 0) return word;
  return romanToNumber(token);
}

/** "CHAPTER" → "Chapter": labels are written the way they are cited, not the way they are set. */
export function titleCaseWord(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** Splits "Art. 2 – CONFORMITA'" style remainders: drops the separator before the title. */
export function cleanInlineTitle(rest: string): string {
  return rest.replace(/^\s*[-–—:.)]+\s*/, "").trim();
}
