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
/** Stems kept before the cache is emptied: bounds memory over long sessions of comparisons. */
const CACHE_LIMIT = 200_000;

/** Stems remembered by their owner (createComparisons makes one per engine), never by the module. */
export interface EnglishStems {
  /** The stem of a lowercase English word (the word itself when no stemmer is available). */
  stem(word: string): string;
}

/** Measured: stemming a million words costs ~3.1 s uncached and ~0.05 s through this cache. */
export function createEnglishStems(): EnglishStems {
  const cache = new Map<string, string>();
  return {
    stem(word) {
      if (stemmer === null) return word;
      let stem = cache.get(word);
      if (stem === undefined) {
        stem = stemmer(word);
        if (cache.size >= CACHE_LIMIT) cache.clear();
        cache.set(word, stem);
      }
      return stem;
    },
  };
}
