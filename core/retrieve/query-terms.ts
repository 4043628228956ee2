import { isFunctionWord, REQUEST_WORDS, stemEnglish, tokenize } from "../text/index.ts";

// Query analysis shared by the BM25 stage and the re-scoring: which words of a question carry
// its topic. Questions are written as requests ("What specific requirements must an Authorised
// Person meet to ensure…"): the request words match nearly every rule and only dilute BM25.

export interface AnalyzedQuery {
  /** The question as typed. */
  raw: string;
  /** Lower-cased content words in order (stopwords and request words removed), unstemmed. */
  words: string[];
  /** Stems of `words`, in the same order. */
  stems: string[];
  /** The text sent to BM25: content words only, or the raw question if nothing is left. */
  bm25Text: string;
}

export interface QueryOptions {
  /** Drop the request vocabulary (default true). */
  dropRequestWords?: boolean;
}

export function analyzeQuery(query: string, options: QueryOptions = {}): AnalyzedQuery {
  const dropRequest = options.dropRequestWords ?? true;
  const words = tokenize(query).filter((w) => !isFunctionWord(w) && !(dropRequest && REQUEST_WORDS.has(w)) && (w.length > 1 || /\d/.test(w)));
  return {
    raw: query,
    words,
    stems: words.map(stemEnglish),
    bm25Text: words.length > 0 ? words.join(" ") : query,
  };
}
