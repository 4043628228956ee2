import model from "wink-eng-lite-web-model";

// The Porter2 stemmer that ships with wink's English model (already a dependency of the
// obligation extractor): "restoration" meets "restore", "reporting" "report", "trained"
// "training". Regulations on one subject phrase it in different word forms; folding them raised
// the labelled crosswalk's hit@3 (README, "Comparing regulations"). Stems are cached: a
// comparison asks for the same few thousand words again and again.

type Stemmer = (word: string) => string;

function loadStemmer(): Stemmer | null {
  const addons: unknown = (model as { addons?: unknown }).addons;
  if (typeof addons !== "object" || addons === null) return null;
  const stem: unknown = (addons as { stem?: unknown }).stem;
  return typeof stem === "function" ? (word: string) => String((stem as (w: string) => unknown)(word)) : null;
}

const stemmer = loadStemmer();
const cache = new Map<string, string>();
const CACHE_LIMIT = 200_000;

/** The stem of a lowercase English word (the word itself when no stemmer is available). */
export function englishStem(word: string): string {
  if (stemmer === null) return word;
  let stem = cache.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(word, stem);
  }
  return stem;
}
