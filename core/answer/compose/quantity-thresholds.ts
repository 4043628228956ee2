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
  [new RegExp(String.raw`\b(?:more|greater|higher)\s+than\s+${NUMBER}`, "giu"), "at-least"],
  [new RegExp(String.raw`\b(?:at\s+least|not\s+less\s+than|not\s+fewer\s+than|a\s+minimum\s+of|exceeding|over)\s+${NUMBER}`, "giu"), "at-least"],
  [new RegExp(String.raw`\b(?:less|fewer|lower)\s+than\s+${NUMBER}`, "giu"), "at-most"],
  [new RegExp(String.raw`\b(?:at\s+most|not\s+more\s+than|a\s+maximum\s+of|up\s+to|under|below)\s+${NUMBER}`, "giu"), "at-most"],
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

/**
 * 1 when the sentence states one of the question's thresholds on the same side, −1 when it states
 * the number only on the other side (the other case of the rule), 0 otherwise.
 */
export function thresholdAgreement(asked: readonly Threshold[], sentence: string): number {
  if (asked.length === 0) return 0;
  const stated = thresholdsIn(sentence);
  if (stated.some((s) => asked.some((a) => a.value === s.value && a.side === s.side))) return 1;
  if (stated.some((s) => asked.some((a) => a.value === s.value))) return -1;
  return 0;
}
