import type { EnglishStems } from "./english-stem.ts";

// The words a crosswalk compares sections by. Two regulations on the same subject share its
// vocabulary ("backup", "incident", "notify", "contract") far more than the static embedding
// (bag of GloVe vectors, averaged over a whole article) shows: on the labelled DORA↔GDPR and
// DORA↔NIST SP 800-171 pairs the gold section ranked in the top 3 by vector cosine for 13 of
// 48 pairs, by a TF-IDF cosine of these tokens for 27. Function words and the vocabulary every
// provision uses ("shall", "article", "paragraph", "referred") are dropped; English plurals are
// folded so "incidents" meets "incident".

const ENGLISH_STOP = (
  "a an the and or nor but if then else of to in on at by for with from into onto upon about as than so such that this these those there " +
  "here it its itself they them their theirs we us our you your he she his her him i me my be is are was were been being am do does did " +
  "doing done have has had having can could may might must shall should will would what which who whom whose when where why how whether " +
  "any all each every some no not only also other others same very more most less least much many under over between within without " +
  "during before after above below through per via out up down off again further once both either neither own too just one two three " +
  "i.e e.g etc ii iii iv v vi vii viii ix x"
).split(/\s+/);

// Words of legal drafting rather than of the subject: present in nearly every provision of every act.
const DRAFTING_STOP = (
  "article articles paragraph paragraphs subparagraph subparagraphs point points section sections chapter chapters annex annexes " +
  "regulation regulations directive decision referred pursuant accordance provided provide laid down set forth thereof therein " +
  "hereby herein whereas accordingly apply applies applied applicable including include includes included particular relevant " +
  "appropriate necessary ensure ensuring take taken account respect regard relation"
).split(/\s+/);

const ITALIAN_STOP = (
  "il lo la i gli le l un uno una di a da in con su per tra fra del dello della dei degli delle al allo alla ai agli alle dal dallo " +
  "dalla dai dagli dalle nel nello nella nei negli nelle sul sullo sulla sui sugli sulle col coi e ed o od ma se che chi cui ne ci si " +
  "vi mi ti è sono essere sia siano stato stata stati ha hanno deve devono può possono ogni tutti tutte tutto tutta anche più meno " +
  "suo sua suoi loro art comma lettera articolo decreto"
).split(/\s+/);

const STOPWORDS = new Set([...ENGLISH_STOP, ...DRAFTING_STOP, ...ITALIAN_STOP]);

// Hyphenated compounds are split: "subject-matter" must meet "subject matter", "ICT-related" "related".
const WORD = /[\p{L}][\p{L}\p{N}'’]*/gu;

export type CompareLanguage = "en" | "it";

/** One token of a text, or null where a stopword or number stood (bigrams never cross those). */
export type TokenSlot = string | null;

/** Lowercased words in order, stopwords as null, English words stemmed (english-stem.ts). */
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
