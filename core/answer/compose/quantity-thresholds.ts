// "500 or more individuals" and "less than 500 individuals" share every word a lexical score sees,
// and the HIPAA breach rule (§ 164.408(b) and (c)) gives each its own deadline: asked about 500 or
// more, the answer led with the paragraph for fewer than 500 (labelled question hipaa-04). A
// threshold here is a number with the side of it that a provision covers; a sentence stating the
// question's number on the same side answers it, on the other side it answers the other case.

export type ThresholdSide = "at-least" | "at-most";

export interface Threshold {
  /** The number's digits, separators dropped ("10 000 000" and "10,000,000" are "10000000"). */
  value: string;
  side: ThresholdSide;
}

const NUMBER = String.raw`(\d(?:[\d,.]|\s(?=\d{3}\b))*)`;
// Each pattern captures one number; the side is the pattern's. English, then Italian.
const PATTERNS: ReadonlyArray<[RegExp, ThresholdSide]> = [
  [new RegExp(String.raw`${NUMBER}\s+(?:\p{L}+\s+)?or\s+(?:more|greater|above|over|higher)\b`, "giu"), "at-least"],
  [new RegExp(String.raw`${NUMBER}\s+(?:\p{L}+\s+)?or\s+(?:fewer|less|below|under|lower)\b`, "giu"), "at-most"],
  // "do not have more than 15 members" caps at 15: a denied "more than" is the other side.
  [new RegExp(String.raw`(?<!\b(?:not|no|never)\s+(?:\p{L}+\s+){0,2})\b(?:more|greater|higher)\s+than\s+${NUMBER}`, "giu"), "at-least"],
  [new RegExp(String.raw`\b(?:not|no|never)\s+(?:\p{L}+\s+){0,2}?(?:more|greater|higher)\s+than\s+${NUMBER}`, "giu"), "at-most"],
  [new RegExp(String.raw`\b(?:at\s+least|not\s+less\s+than|not\s+fewer\s+than|a\s+minimum\s+of|exceeding|over)\s+${NUMBER}`, "giu"), "at-least"],
  [new RegExp(String.raw`\b(?:less|fewer|lower)\s+than\s+${NUMBER}`, "giu"), "at-most"],
  [new RegExp(String.raw`\b(?:at\s+most|not\s+more\s+than|a\s+maximum\s+of|up\s+to|under|below)\s+${NUMBER}`, "giu"), "at-most"],
  // In plain words: "in excess of 500", "upwards of 500"; "short of 500", and a nearness denied
  // ("none involving anywhere near 500 people", "nowhere near 500").
  [new RegExp(String.raw`\b(?:in\s+excess\s+of|upwards\s+of|north\s+of)\s+${NUMBER}`, "giu"), "at-least"],
  [new RegExp(String.raw`\b(?:short\s+of|nowhere\s+near|not\s+(?:anywhere\s+)?near)\s+${NUMBER}`, "giu"), "at-most"],
  [new RegExp(String.raw`\b(?:no|none|not|never)\b[^.?!;]{0,40}?\banywhere\s+near\s+${NUMBER}`, "giu"), "at-most"],
  [new RegExp(String.raw`\b(?:pari\s+o\s+)?superiore\s+a(?:l(?:la|le|l')?)?\s+(?:€\s*)?${NUMBER}`, "giu"), "at-least"],
  [new RegExp(String.raw`\b(?:almeno|oltre)\s+${NUMBER}`, "giu"), "at-least"],
  [new RegExp(String.raw`\b(?:pari\s+o\s+)?inferiore\s+a(?:l(?:la|le|l')?)?\s+(?:€\s*)?${NUMBER}`, "giu"), "at-most"],
  [new RegExp(String.raw`\b(?:fino\s+a|non\s+oltre)\s+(?:€\s*)?${NUMBER}`, "giu"), "at-most"],
];

/** The thresholds a text states ("500 or more", "fewer than 250", "pari o superiore a € 40.000"). */
export function thresholdsIn(text: string): Threshold[] {
  const out: Threshold[] = [];
  for (const [pattern, side] of PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const value = (m[1] ?? "").replace(/[^\d]/g, "");
      if (value !== "") out.push({ value, side });
    }
  }
  return out;
}

// Rule "a count in the question is on one side of a threshold": an auditor gives the number of
// people, records or members concerned ("a laptop with files on roughly 700 people"), not the
// provision's threshold. A number followed by a word that is not a unit of time, money or a
// share is such a count; a year, a section number ("§ 164.408", "Article 33", "SP 800-171") or a
// number inside a stated threshold is not.
const COUNT = new RegExp(
  String.raw`(?<![\d.,§-]|\b(?:article|articolo|art|section|sezione|part|parte|paragraph|paragrafo|chapter|capo|annex|allegato|sp|iso|no|n)\.?\s)\b(\d{1,3}(?:,\d{3})+|\d+)(?![\d.,%-])\s+(?!(?:days?|hours?|weeks?|months?|years?|minutes?|seconds?|calendar|business|working|per\s*cent|percent|euros?|dollars?|giorni|ore|settimane|mesi|anni|minuti|per\s+cento|euro)\b)\p{L}`,
  "giu",
);

/** The counts a question states ("700 people", "a plan with 12 members"), as numbers. */
export function countsIn(text: string): number[] {
  const inThresholds = new Set(thresholdsIn(text).map((t) => t.value));
  const out: number[] = [];
  for (const m of text.matchAll(COUNT)) {
    const digits = (m[1] ?? "").replace(/[^\d]/g, "");
    const value = Number(digits);
    // 1900–2099 read as a year; 0 and 1 count nothing a threshold separates.
    if (digits === "" || inThresholds.has(digits) || value < 2 || (digits.length === 4 && value >= 1900 && value <= 2099)) continue;
    out.push(value);
  }
  return out;
}

const onSide = (count: number, t: Threshold): boolean => (t.side === "at-least" ? count >= Number(t.value) : count <= Number(t.value));

/**
 * 1 when the sentence states one of the question's thresholds on the same side, −1 when it states
 * the number only on the other side (the other case of the rule), 0 otherwise. Without a stated
 * threshold, the question's counts decide: 1 when a count falls on the side a sentence's
 * threshold covers, −1 when its thresholds leave every count out.
 */
export function thresholdAgreement(asked: readonly Threshold[], sentence: string, counts: readonly number[] = []): number {
  if (asked.length === 0 && counts.length === 0) return 0;
  const stated = thresholdsIn(sentence);
  if (asked.length > 0) {
    if (stated.some((s) => asked.some((a) => a.value === s.value && a.side === s.side))) return 1;
    if (stated.some((s) => asked.some((a) => a.value === s.value))) return -1;
    return 0;
  }
  if (stated.length === 0) return 0;
  if (stated.some((s) => counts.some((c) => onSide(c, s)))) return 1;
  return -1;
}
