// Turns user text into the query of the full-text index (fulltext-index.ts), and numbers into
// words the index can hold.
//
// What survives here is only runs of Unicode letters and combining marks, joined by single
// spaces: no quote, backslash, wildcard or control character reaches the index (a habit from the
// Kuzu index this one replaced, whose query was embedded in Cypher text).
//
// Why numbers are rewritten: the index cuts words at every non-letter, so "Article 33" would
// search for "article" alone. Each run of ASCII digits becomes a letters-only token (`33` →
// `qnff`) in a dedicated indexed field and in the query, which keeps citations like "Article
// 33", "§ 164.308" or "2016/679" findable. The letters are consonants without `s` and `y`, so
// the Porter stemmer leaves the tokens unchanged (checked for 0–999).

/** Longest user input looked at; longer questions are cut, not rejected. */
export const MAX_QUERY_CHARS = 2000;
/** Most terms of a query: each one is a dictionary lookup and a posting-list scan. */
export const MAX_QUERY_TERMS = 64;
/** Longest single term kept; longer runs are noise (hashes, base64) rather than words. */
export const MAX_TERM_CHARS = 64;
/** Digit runs longer than this are identifiers, not citations: not indexed. */
export const MAX_NUMBER_DIGITS = 12;

const DIGIT_LETTERS = "bcdfghjklm";
const NUMBER_PREFIX = "qn";

// Letters (any script) with their combining marks, or a run of ASCII digits.
const TOKEN = /[\p{L}\p{M}]+|[0-9]+/gu;
const DIGITS = /^[0-9]+$/;

/** `33` → `qnff`: a token made of letters only, identical at index and query time. */
export function encodeNumber(digits: string): string {
  let out = NUMBER_PREFIX;
  for (const ch of digits) out += DIGIT_LETTERS[ch.charCodeAt(0) - 48] ?? "";
  return out;
}

/** The encoded number tokens of a text, in order, space-separated (for the indexed column). */
export function numberTerms(text: string): string {
  const out: string[] = [];
  for (const match of text.matchAll(/[0-9]+/g)) {
    const digits = match[0];
    if (digits.length <= MAX_NUMBER_DIGITS) out.push(encodeNumber(digits));
  }
  return out.join(" ");
}

/**
 * User text → the terms to search for. Empty when nothing searchable is left (the caller must
 * then return no hits without querying).
 */
export function ftsQueryTerms(input: string): string[] {
  const text = input.slice(0, MAX_QUERY_CHARS).normalize("NFC");
  const terms: string[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    if (DIGITS.test(token)) {
      if (token.length <= MAX_NUMBER_DIGITS) terms.push(encodeNumber(token));
    } else if (token.length <= MAX_TERM_CHARS && /\p{L}/u.test(token)) {
      terms.push(token.toLowerCase());
    }
    if (terms.length >= MAX_QUERY_TERMS) break;
  }
  return terms;
}

/** The sanitized query as it is embedded between single quotes; "" when nothing is searchable. */
export function ftsQueryLiteral(input: string): string {
  return ftsQueryTerms(input).join(" ");
}
