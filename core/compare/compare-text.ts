import { DRAFTING_WORDS, ENGLISH_FUNCTION_WORDS, ITALIAN_FUNCTION_WORDS, ROMAN_NUMERALS, type EnglishStems } from "../text/index.ts";

// The words a crosswalk compares sections by. Two regulations on the same subject share its
// vocabulary ("backup", "incident", "notify", "contract") far more than the static embedding
// (bag of GloVe vectors, averaged over a whole article) shows: on the labelled pairs a TF-IDF
// cosine of these tokens ranks the gold section far more often in the top 3 than the vector
// cosine does (docs/comparing.md). Function words and the vocabulary every
// provision uses ("shall", "article", "paragraph", "referred") are dropped; English plurals are
// folded so "incidents" meets "incident".

// Function words, list numerals and the vocabulary every provision uses; "three" too, which
// questions keep (a deadline's "three months") but crosswalks need not.
const STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH_FUNCTION_WORDS, ...ITALIAN_FUNCTION_WORDS, ...ROMAN_NUMERALS, ...DRAFTING_WORDS, "three"]);

// Hyphenated compounds are split: "subject-matter" must meet "subject matter", "ICT-related" "related".
const WORD = /[\p{L}][\p{L}\p{N}'’]*/gu;

export type CompareLanguage = "en" | "it";

/** One token of a text, or null where a stopword or number stood (bigrams never cross those). */
export type TokenSlot = string | null;

/** Lowercased words in order, stopwords as null, English words stemmed (core/text/stem-porter.ts). */
export function tokenSlots(text: string, language: CompareLanguage, stems: EnglishStems): TokenSlot[] {
  const out: TokenSlot[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const word = m[0].replace(/['’]+(?:s)?$/u, "");
    if (word.length < 3 || STOPWORDS.has(word)) {
      out.push(null);
      continue;
    }
    out.push(language === "en" ? stems.stem(word) : word);
  }
  return out;
}

/** Content words of a text (no stopwords), in order. */
export function contentWords(text: string, language: CompareLanguage, stems: EnglishStems): string[] {
  return tokenSlots(text, language, stems).filter((t): t is string => t !== null);
}

/**
 * Terms of a text for the lexical space: content words, and pairs of adjacent content words
 * ("data breach", "third-party provider"), which carry the phrases regulations share.
 */
export function lexicalTerms(text: string, language: CompareLanguage, stems: EnglishStems): string[] {
  const slots = tokenSlots(text, language, stems);
  const out: string[] = [];
  for (let i = 0; i < slots.length; i++) {
    const t = slots[i];
    if (t === null || t === undefined) continue;
    out.push(t);
    const next = slots[i + 1];
    if (next !== null && next !== undefined) out.push(`${t} ${next}`);
  }
  return out;
}
