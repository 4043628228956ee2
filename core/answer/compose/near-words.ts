import { isZeroVector, type Embedder } from "../../model/embedder.ts";
// Word vectors are L2-normalised (Embedder contract): their dot product is their cosine.
import { dot, makeRoom, tokenize } from "../../text/index.ts";
import { contentStems, isFunctionWord } from "./lexical.ts";

// Rule "a near word covers the question's word": auditors say "guests", "recycling", "bank"
// where the provision says "visitors", "reuse", "financial entity". A question word a sentence
// lacks is partly covered by the sentence word nearest to it in a static model's word vectors,
// when that word is near enough to be a paraphrase rather than a neighbour in topic. The credit
// is a feature of its own (`nearWords`), so the answer's fit weighs it against exact coverage.

/** Cosine of two word vectors from which one word can stand for the other; below it, words are only on the same topic. */
export const NEAR_WORD_FLOOR = 0.55;
/** Words whose vectors are kept between questions: a library's vocabulary fits, memory stays bounded (~10 MB at 100 dimensions). */
const CACHE_CAPACITY = 25_000;
/** Shorter words are mostly abbreviations and numbers, whose vectors mean little. */
const MIN_WORD_LENGTH = 3;

const cache = new Map<string, Float32Array | null>();

type EmbedWords = (words: string[]) => Promise<Float32Array[]>;

/** The vectors of these words (null for a word the model does not know), cached per model. */
async function vectorsOf(modelId: string, embedWords: EmbedWords, words: readonly string[]): Promise<Map<string, Float32Array | null>> {
  const out = new Map<string, Float32Array | null>();
  const missing: string[] = [];
  for (const w of words) {
    const hit = cache.get(`${modelId}\u0000${w}`);
    if (hit === undefined) missing.push(w);
    else out.set(w, hit);
  }
  if (missing.length > 0) {
    const vectors = await embedWords(missing);
    makeRoom(cache, CACHE_CAPACITY, missing.length);
    missing.forEach((w, i) => {
      const v = vectors[i];
      const known = v !== undefined && !isZeroVector(v) ? v : null;
      cache.set(`${modelId}\u0000${w}`, known);
      out.set(w, known);
    });
  }
  return out;
}

/** A text's content words as written (lower case), each with its stem. */
function contentWords(text: string): Array<{ word: string; stem: string }> {
  return tokenize(text)
    .filter((w) => w.length >= MIN_WORD_LENGTH && /^\p{L}+$/u.test(w) && !isFunctionWord(w))
    .map((word) => ({ word, stem: contentStems(word)[0] ?? word }));
}

export interface NearWordsInput {
  question: string;
  /** The question's stems that coverage counts (QueryTerms.required). */
  required: ReadonlySet<string>;
  idf: (stem: string) => number;
  /** Each sentence's text and its stems. */
  sentences: ReadonlyArray<{ text: string; stems: ReadonlySet<string> }>;
}

/**
 * Per sentence, the IDF-weighted share of the question's words it lacks but says in a near word:
 * each such word counts (cosine − floor) / (1 − floor) of its weight. 0 for every sentence when the
 * embedder has no word vectors.
 */
export async function nearWordCoverage(embedder: Embedder | null, input: NearWordsInput): Promise<number[]> {
  const zero = input.sentences.map(() => 0);
  const embedWords = embedder?.embedWords?.bind(embedder);
  if (embedder === null || embedWords === undefined) return zero;
  const asked = new Map<string, string>();
  for (const { word, stem } of contentWords(input.question)) if (input.required.has(stem) && !asked.has(stem)) asked.set(stem, word);
  let total = 0;
  for (const s of input.required) total += input.idf(s);
  if (asked.size === 0 || total === 0) return zero;
  const perSentence = input.sentences.map((s) => contentWords(s.text));
  const vocabulary = new Set<string>(asked.values());
  for (const words of perSentence) for (const { word } of words) vocabulary.add(word);
  const vectors = await vectorsOf(embedder.id, embedWords, [...vocabulary]);
  return input.sentences.map((sentence, i) => {
    let got = 0;
    for (const [stem, word] of asked) {
      if (sentence.stems.has(stem)) continue;
      const q = vectors.get(word);
      if (q === null || q === undefined) continue;
      let best = 0;
      for (const w of perSentence[i] ?? []) {
        if (w.stem === stem) continue;
        const v = vectors.get(w.word);
        if (v !== null && v !== undefined) best = Math.max(best, dot(q, v));
      }
      if (best >= NEAR_WORD_FLOOR) got += (input.idf(stem) * (best - NEAR_WORD_FLOOR)) / (1 - NEAR_WORD_FLOOR);
    }
    return Math.min(1, got / total);
  });
}
