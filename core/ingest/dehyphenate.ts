// Typesetters split words at line ends ("regu-" / "lation"); search and sentence splitting need
// the word whole. The second half of the word moves up to the first line, so lines still join
// with a single space. A hyphen at a line end is only removed when the split looks like a
// typesetting break: the document itself spells the word without the hyphen elsewhere, or it
// does not print the hyphenated form either, the halves are not two words of its own and both
// are lowercase. "ICT-" / "related" stays "ICT-related", "post-" / "financial" stays
// "post-financial", and so does any compound printed hyphenated mid-line ("risk-based").

const LETTER = /\p{L}/u;
const HYPHENS = "\\-\u2010\u00ad";
const TRAILING_WORD = new RegExp(`([\\p{L}\\p{N}][\\p{L}\\p{N}${HYPHENS}]*)[${HYPHENS}]$`, "u");
/** Shorter halves ("in-", "re-") are prefixes, not words of a compound. */
const MIN_COMPOUND_PART = 3;
const LEADING_WORD = /^(\p{L}[\p{L}\p{N}'’-]*)(\S*)/u;

/** Lowercased words of the document, hyphenated compounds kept as one word. */
export function buildVocabulary(texts: Iterable<string>): Set<string> {
  const vocab = new Set<string>();
  for (const text of texts) {
    // A word split at this line's end is not evidence of how the document spells it.
    const body = text.replace(/\S*[-\u2010\u00ad]$/u, "");
    for (const m of body.matchAll(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu)) vocab.add(m[0].toLowerCase());
  }
  return vocab;
}

function isLower(ch: string | undefined): boolean {
  return ch !== undefined && LETTER.test(ch) && ch === ch.toLowerCase() && ch !== ch.toUpperCase();
}

/** Decides how "head-" + "tail" join: without the hyphen, or keeping it. */
export function joinSplitWord(head: string, tail: string, vocab: Set<string>, softHyphen: boolean): string {
  if (softHyphen) return head + tail;
  const joined = (head + tail).toLowerCase();
  const hyphenated = `${head}-${tail}`.toLowerCase();
  if (vocab.has(joined)) return head + tail;
  if (vocab.has(hyphenated)) return `${head}-${tail}`;
  // Two real words ("post-" / "financial") make a compound; a syllable ("regu-") does not.
  const wordLike = (w: string): boolean => w.length >= MIN_COMPOUND_PART && vocab.has(w.toLowerCase());
  if (wordLike(head) && wordLike(tail)) return `${head}-${tail}`;
  const lastHeadLetter = [...head].reverse().find((c) => LETTER.test(c));
  return isLower(lastHeadLetter) && isLower(tail[0]) ? head + tail : `${head}-${tail}`;
}

/**
 * Joins words split across consecutive lines (across columns and pages too), in place of
 * the first line; lines emptied by the move are dropped. Returns new arrays of new objects.
 */
export function dehyphenate<T extends { text: string }>(pages: T[][], vocab: Set<string>): T[][] {
  const out = pages.map((lines) => lines.map((l) => ({ ...l })));
  const flat: Array<{ page: number; index: number }> = [];
  out.forEach((lines, page) => lines.forEach((_, index) => flat.push({ page, index })));
  const emptied = new Set<T>();
  for (let k = 0; k + 1 < flat.length; k++) {
    const a = flat[k];
    const b = flat[k + 1];
    if (a === undefined || b === undefined) continue;
    const first = out[a.page]?.[a.index];
    const second = out[b.page]?.[b.index];
    if (first === undefined || second === undefined) continue;
    const end = TRAILING_WORD.exec(first.text);
    const start = LEADING_WORD.exec(second.text);
    if (end === null || start === null || end[1] === undefined || start[1] === undefined) continue;
    // "- " dashes and list bullets are not split words: the hyphen must touch a word.
    const head = end[1].replace(new RegExp(`[${HYPHENS}]+$`, "u"), "");
    if (head.length === 0) continue;
    const softHyphen = first.text.endsWith("\u00ad");
    const word = joinSplitWord(head, start[1], vocab, softHyphen);
    first.text = first.text.slice(0, end.index) + word + (start[2] ?? "");
    second.text = second.text.slice(start[0].length).trim();
    if (second.text.length === 0) emptied.add(second);
  }
  return out.map((lines) => lines.filter((l) => !emptied.has(l)));
}
