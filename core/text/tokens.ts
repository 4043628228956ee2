// Words as every text tool reads them: letters and digits, lower-cased, in order.

/** A run of letters or digits. */
export const WORD = /[\p{L}\p{N}]+/gu;

/** The text as a regular expression matching it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
/** Code points above ASCII already classified: texts reuse few of them, and a test allocates. */
const wordCodePoints = new Map<number, boolean>();

function isWordCodePoint(cp: number): boolean {
  let known = wordCodePoints.get(cp);
  if (known === undefined) {
    known = LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
    wordCodePoints.set(cp, known);
  }
  return known;
}

/**
 * Lower-cased words of a text, in order: the runs WORD matches, found by a scan of code points
 * (matchAll builds a match object per word, and re-scoring tokenizes a few hundred sections per
 * question).
 */
export function tokenize(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  let start = -1;
  let i = 0;
  while (i < lower.length) {
    const c = lower.charCodeAt(i);
    let width = 1;
    let word: boolean;
    // Lower-cased: ASCII letters are a–z.
    if (c < 0x80) word = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
    else {
      const cp = lower.codePointAt(i) ?? c;
      if (cp > 0xffff) width = 2;
      word = isWordCodePoint(cp);
    }
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(lower.slice(start, i));
      start = -1;
    }
    i += width;
  }
  if (start >= 0) out.push(lower.slice(start));
  return out;
}
