// Martin Porter's original 1980 stemmer, as Snowball states it ("porter", not "english"):
// the stemmer the full-text index has always used, so terms indexed before and after keep
// meeting. Written from the published algorithm; R1/R2 stand for its measure conditions
// (m > 0: the suffix starts in R1; m > 1: in R2). Non-ASCII letters count as consonants, as
// in Snowball's UTF-8 build.

const VOWEL = new Set(["a", "e", "i", "o", "u", "y"]);
/** Letters that may not end a short syllable's stem: vowels, w, x, and a y taken as a consonant. */
const V_WXY = new Set(["a", "e", "i", "o", "u", "y", "w", "x", "Y"]);

const isVowel = (c: string | undefined): boolean => c !== undefined && VOWEL.has(c);

type Rule = readonly [suffix: string, replacement: string];

/** Step 1a, longest suffix first. */
const STEP_1A: readonly Rule[] = [
  ["sses", "ss"],
  ["ies", "i"],
  ["ss", "ss"],
  ["s", ""],
];
const STEP_2: readonly Rule[] = longestFirst([
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["abli", "able"],
  ["entli", "ent"],
  ["eli", "e"],
  ["izer", "ize"],
  ["ization", "ize"],
  ["ational", "ate"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alli", "al"],
  ["alism", "al"],
  ["aliti", "al"],
  ["fulness", "ful"],
  ["ousli", "ous"],
  ["ousness", "ous"],
  ["iveness", "ive"],
  ["iviti", "ive"],
  ["biliti", "ble"],
]);
const STEP_3: readonly Rule[] = longestFirst([
  ["alize", "al"],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ative", ""],
  ["ful", ""],
  ["ness", ""],
]);
const STEP_4 = longestFirst("al ance ence er ic able ible ant ement ment ent ou ism ate iti ous ive ize ion".split(" ").map((s): Rule => [s, ""]));
const DOUBLES = new Set(["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"]);

function longestFirst(rules: readonly Rule[]): Rule[] {
  return [...rules].sort((a, b) => b[0].length - a[0].length);
}

function endsWith(w: readonly string[], suffix: string): boolean {
  if (suffix.length > w.length) return false;
  const start = w.length - suffix.length;
  for (let i = 0; i < suffix.length; i++) if (w[start + i] !== suffix[i]) return false;
  return true;
}

/** The longest rule whose suffix ends the word (Snowball's `among`): a failed condition on it does not try shorter ones. */
function longestMatch(w: readonly string[], rules: readonly Rule[]): Rule | null {
  for (const rule of rules) if (endsWith(w, rule[0])) return rule;
  return null;
}

function replaceEnd(w: string[], length: number, by: string): void {
  w.splice(w.length - length, length, ...by);
}

/** A short syllable ends at `end`: consonant, vowel, then a consonant other than w, x or Y. */
function shortSyllable(w: readonly string[], end: number): boolean {
  const last = w[end - 1];
  return end >= 3 && last !== undefined && !V_WXY.has(last) && isVowel(w[end - 2]) && !isVowel(w[end - 3]);
}

/** Where the region after the first vowel-consonant pair from `from` starts (the length when there is none). */
function regionAfter(w: readonly string[], from: number): number {
  let i = from;
  while (i < w.length && !isVowel(w[i])) i++;
  if (i >= w.length) return w.length;
  while (i < w.length && isVowel(w[i])) i++;
  return i >= w.length ? w.length : i + 1;
}

function hasVowelBefore(w: readonly string[], end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(w[i])) return true;
  return false;
}

/** The Porter stem of a lowercase word. */
export function porterStem(word: string): string {
  const w = Array.from(word);
  // A y at the start or after a vowel is a consonant (marked Y until the end).
  let marked = false;
  for (let i = 0; i < w.length; i++) {
    if (w[i] === "y" && (i === 0 || isVowel(w[i - 1]))) {
      w[i] = "Y";
      marked = true;
    }
  }
  const p1 = regionAfter(w, 0);
  const p2 = p1 >= w.length ? w.length : regionAfter(w, p1);
  const inR1 = (suffix: string): boolean => w.length - suffix.length >= p1;
  const inR2 = (suffix: string): boolean => w.length - suffix.length >= p2;

  const s1a = longestMatch(w, STEP_1A);
  if (s1a !== null) replaceEnd(w, s1a[0].length, s1a[1]);

  // Step 1b.
  if (endsWith(w, "eed")) {
    if (inR1("eed")) replaceEnd(w, 3, "ee");
  } else {
    const suffix = endsWith(w, "ing") ? "ing" : endsWith(w, "ed") ? "ed" : null;
    if (suffix !== null && hasVowelBefore(w, w.length - suffix.length)) {
      replaceEnd(w, suffix.length, "");
      const tail = w.slice(-2).join("");
      if (tail === "at" || tail === "bl" || tail === "iz") w.push("e");
      else if (DOUBLES.has(tail)) w.pop();
      else if (w.length === p1 && shortSyllable(w, w.length)) w.push("e");
    }
  }

  // Step 1c.
  const last = w[w.length - 1];
  if ((last === "y" || last === "Y") && hasVowelBefore(w, w.length - 1)) w[w.length - 1] = "i";

  const s2 = longestMatch(w, STEP_2);
  if (s2 !== null && inR1(s2[0])) replaceEnd(w, s2[0].length, s2[1]);
  const s3 = longestMatch(w, STEP_3);
  if (s3 !== null && inR1(s3[0])) replaceEnd(w, s3[0].length, s3[1]);
  const s4 = longestMatch(w, STEP_4);
  if (s4 !== null && inR2(s4[0])) {
    const before = w[w.length - 4];
    if (s4[0] !== "ion" || before === "s" || before === "t") replaceEnd(w, s4[0].length, "");
  }

  // Step 5a: a final e goes in R2, or in R1 when it does not follow a short syllable.
  if (w[w.length - 1] === "e" && (inR2("e") || (inR1("e") && !shortSyllable(w, w.length - 1)))) w.pop();
  // Step 5b: ll in R2 becomes l.
  if (w[w.length - 1] === "l" && inR2("l") && w[w.length - 2] === "l") w.pop();

  if (marked) for (let i = 0; i < w.length; i++) if (w[i] === "Y") w[i] = "y";
  return w.join("");
}
