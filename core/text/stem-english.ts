// The light English stemmer questions and sections are matched with: plurals, -ing, -ed,
// -ation, -ment …, enough to meet "notify" with "notified" and "obligations" with "obligation".
// It need not agree with the full-text index's Porter stemmer: both sides of each comparison go
// through this one.

const SUFFIX_RULES: ReadonlyArray<readonly [string, string]> = [
  ["izations", "iz"],
  ["ization", "iz"],
  ["ations", "at"],
  ["ation", "at"],
  ["ments", ""],
  ["ment", ""],
  ["ities", ""],
  ["ity", ""],
  ["ings", ""],
  ["ing", ""],
  ["ies", "i"],
  ["ied", "i"],
  ["ed", ""],
  ["es", ""],
  ["s", ""],
  ["ly", ""],
  ["ive", ""],
  ["al", ""],
  ["e", ""],
  ["y", "i"],
];

/** One suffix stripped, keeping at least three letters; a doubled final consonant folded. */
export function stemEnglish(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3 || /^\d/.test(w)) return w;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  for (const [suffix, replacement] of SUFFIX_RULES) {
    if (!w.endsWith(suffix)) continue;
    if (suffix === "s" && (w.endsWith("ss") || w.endsWith("us") || w.endsWith("is"))) continue;
    const base = w.slice(0, w.length - suffix.length) + replacement;
    if (base.length >= 3) {
      w = base;
      break;
    }
  }
  // A doubled final consonant left by -ing/-ed ("submitted" → "submitt") folds to one.
  if (/([bdfglmnprt])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

/**
 * The folds answers add to stemEnglish, where one word form must meet another inside a sentence.
 * Search keeps the plain stemmer: measured there, the folds moved answers the wrong way
 * (docs/benchmarks/answers.md). The folds:
 * "notify"/"notification" and "apply"/"application" meet; "apply", "comply" are not adverbs; a
 * final y after a consonant as "carries" has it ("carrying out" / "carry out"); "contractual" as
 * "contract"; "-ness" dropped first ("lawfulness" / "lawful").
 */
export function stemEnglishFolded(word: string): string {
  return (/ply$/.test(word) ? word : stemEnglish(word.replace(/(?<=[a-z]{4})ness$/, "")))
    .replace(/icat$/, "i")
    .replace(/([^aeiou])y$/, "$1i")
    .replace(/(?<=[a-z]{5})tu$/, "t");
}

/**
 * Words a memoized stemmer remembers before it starts again: a language's working vocabulary
 * fits many times over, and an engine that runs for weeks over ever new text (or text of random
 * tokens) cannot grow its memo without bound.
 */
export const STEM_MEMO_WORDS = 200_000;

/** A stemmer that remembers: a candidate pool repeats the same words many times. */
export function memoized(stem: (word: string) => string, capacity = STEM_MEMO_WORDS): (word: string) => string {
  const memo = new Map<string, string>();
  return (word) => {
    let s = memo.get(word);
    if (s === undefined) {
      s = stem(word);
      if (memo.size >= capacity) memo.clear();
      memo.set(word, s);
    }
    return s;
  };
}
