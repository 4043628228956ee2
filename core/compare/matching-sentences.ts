import { splitSentences } from "../structure/sentences.ts";
import type { Span } from "../model/compare-schemas.ts";
import { lexicalTerms, type CompareLanguage } from "./compare-text.ts";
import type { EnglishStems } from "../text/index.ts";

// Which sentences of two aligned sections say the same thing: the highlights of the side-by-side
// view, the evidence an export cites (paragraph and page), and the sentences a model is shown.
// Each sentence is a TF-IDF vector over the two sections' sentences (words and word pairs); the
// best pairs by cosine are kept, each sentence used once.

export interface SentenceUnit extends Span {
  text: string;
}

/** A paragraph or point number the splitter leaves on its own ("1.", "(a)"). */
const MARKER = /^\(?[0-9ivxlcA-Za-z]{1,4}[.)]$/;

/**
 * Sentences with their character spans: lines first (list items are sentences of their own), then
 * sentence ends; a paragraph number stays with the sentence it opens.
 */
export function sentenceUnits(text: string): SentenceUnit[] {
  const out: SentenceUnit[] = [];
  let offset = 0;
  for (const line of text.split("\n")) {
    let cursor = 0;
    let pending: number | null = null;
    for (const sentence of splitSentences(line)) {
      const at = line.indexOf(sentence, cursor);
      if (at < 0) continue;
      cursor = at + sentence.length;
      if (sentence.trim() === "") continue;
      if (MARKER.test(sentence.trim())) {
        pending ??= at;
        continue;
      }
      const start = pending ?? at;
      pending = null;
      out.push({ start: offset + start, end: offset + at + sentence.length, text: line.slice(start, at + sentence.length) });
    }
    offset += line.length + 1;
  }
  return out;
}

interface Weighted {
  unit: SentenceUnit;
  weights: Map<string, number>;
}

function vectors(units: readonly SentenceUnit[], language: CompareLanguage, stems: EnglishStems, df: Map<string, number>, n: number): Weighted[] {
  return units.map((unit) => {
    const tf = new Map<string, number>();
    for (const t of lexicalTerms(unit.text, language, stems)) tf.set(t, (tf.get(t) ?? 0) + 1);
    const weights = new Map<string, number>();
    let norm = 0;
    for (const [t, c] of tf) {
      const w = (1 + Math.log(c)) * Math.log((n + 1) / ((df.get(t) ?? 0) + 1));
      weights.set(t, w);
      norm += w * w;
    }
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (const [t, w] of weights) weights.set(t, w * scale);
    return { unit, weights };
  });
}

export interface SentencePair {
  a: SentenceUnit;
  b: SentenceUnit;
  score: number;
}

/** The best-matching sentence pairs of two texts, at most `limit`, best first, no sentence twice. */
export function matchingSentences(aText: string, bText: string, language: CompareLanguage, stems: EnglishStems, limit = 3): SentencePair[] {
  const aUnits = sentenceUnits(aText);
  const bUnits = sentenceUnits(bText);
  if (aUnits.length === 0 || bUnits.length === 0) return [];
  const df = new Map<string, number>();
  for (const u of [...aUnits, ...bUnits]) for (const t of new Set(lexicalTerms(u.text, language, stems))) df.set(t, (df.get(t) ?? 0) + 1);
  const n = aUnits.length + bUnits.length;
  const av = vectors(aUnits, language, stems, df, n);
  const bv = vectors(bUnits, language, stems, df, n);
  const pairs: SentencePair[] = [];
  for (const x of av) {
    for (const y of bv) {
      let dot = 0;
      const [small, large] = x.weights.size <= y.weights.size ? [x.weights, y.weights] : [y.weights, x.weights];
      for (const [t, w] of small) dot += w * (large.get(t) ?? 0);
      if (dot > 0) pairs.push({ a: x.unit, b: y.unit, score: dot });
    }
  }
  pairs.sort((p, q) => q.score - p.score || p.a.start - q.a.start || p.b.start - q.b.start);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  const out: SentencePair[] = [];
  for (const p of pairs) {
    if (out.length >= limit) break;
    if (usedA.has(p.a.start) || usedB.has(p.b.start)) continue;
    usedA.add(p.a.start);
    usedB.add(p.b.start);
    out.push(p);
  }
  return out;
}
