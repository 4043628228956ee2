import { memoized, porterStem, SEARCH_STOP_WORDS } from "../../text/index.ts";

// The terms of the full-text index: a text is cut at every character that is not a letter (so
// digits, punctuation, typographic apostrophes and quotes, dashes and § all separate words, and
// "dell’appalto" is two terms), lower-cased, stripped of stop words and Porter-stemmed. Numbers
// are indexed as the letter tokens of fts-query.ts, in their own field.

// Letters of the scripts regulations are written in, with their combining marks; everything else separates.
const SEPARATORS =
  /[^\u{41}-\u{5a}\u{61}-\u{7a}\u{c0}-\u{d6}\u{d8}-\u{f6}\u{f8}-\u{2af}\u{300}-\u{36f}\u{370}-\u{1fff}\u{2c00}-\u{2dff}\u{3040}-\u{d7ff}\u{f900}-\u{fdff}\u{fb00}-\u{fb4f}\u{fe70}-\u{fefe}\u{ff21}-\u{ff3a}\u{ff41}-\u{ff5a}\u{10000}-\u{1efff}\u{20000}-\u{3ffff}]+/u;

/** Stems of lower-case words, remembered by their owner (one per build or per search database). */
export interface TermStems {
  stem(word: string): string;
}

export function createTermStems(): TermStems {
  return { stem: memoized(porterStem) };
}

/** Calls `onTerm` with each indexed term of `text`, in order. */
export function forEachIndexTerm(text: string, stems: TermStems, onTerm: (term: string) => void): void {
  for (const piece of text.split(SEPARATORS)) {
    if (piece === "") continue;
    const word = piece.toLowerCase();
    if (SEARCH_STOP_WORDS.has(word)) continue;
    onTerm(stems.stem(word));
  }
}

/**
 * The distinct terms of a sanitized query (fts-query.ts). Stop words are not removed: they are
 * not in the index, so they match nothing, as before.
 */
export function queryIndexTerms(literal: string, stems: TermStems): string[] {
  const terms = new Set<string>();
  for (const piece of literal.split(SEPARATORS)) {
    if (piece !== "") terms.add(stems.stem(piece.toLowerCase()));
  }
  return [...terms];
}
