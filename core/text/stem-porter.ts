import model from "wink-eng-lite-web-model";

// The Porter2 stemmer that ships with wink's English model (already a dependency of the
// obligation extractor): "restoration" meets "restore", "reporting" "report", "trained"
// "training". Crosswalks use it: two regulations on one subject phrase it in different word
// forms, and folding them harder than the light stemmer does raised the labelled crosswalk's
// hit@3 (docs/comparing.md). Stems are cached: a comparison asks for the same few thousand words
// again and again.

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

/** Porter2 is slow uncached; the cache makes repeated words nearly free. */
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
