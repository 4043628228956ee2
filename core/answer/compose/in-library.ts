import type { InLibraryFeature, InLibraryRule } from "../../model/answer-rules.ts";
import { isFunctionWord, contentStems } from "./lexical.ts";
import type { SentencePool } from "./sentence-pool.ts";
import { tokenize } from "../../text/index.ts";

// Whether the library answers a question at all. The named rules of IN_LIBRARY_RULES
// (answer-rules.ts) are tried in order: a question naming what was never imported is refused by
// its names; otherwise a logistic decision on two measurements of the retrieved sentences says how
// likely it is that the library answers it. The weights and the refusal threshold are fitted by
// `npm run bench:fit-refusal` on in-library against out-of-library questions (the labelled set,
// the read parts of auditor dev and of our plain-language set, ObliQA dev,
// bench/lib/ood-corpus-questions.ts).
// Below REFUSE_BELOW the question is refused, saying which of its words no nearby section has;
// below UNSURE_BELOW it is answered from the closest provisions, and the answer says so.

export type InLibraryFeatures = Record<InLibraryFeature, number>;

/** Fitted by bench:fit-refusal (its output prints these lines). */
export const IN_LIBRARY_MODEL: { readonly weights: Readonly<InLibraryFeatures>; readonly bias: number } = {
  weights: { coverage: 3.4345, answeringSentences: 0.9599 },
  bias: -3.4997,
};
/** The largest threshold refusing at most 0.5 % of each in-library fit set (bench:fit-refusal). */
export const REFUSE_BELOW = 0.039;
/** Below even odds the library more likely lacks the answer than has it: the answer says so. */
export const UNSURE_BELOW = 0.5;

export interface InLibraryDecision {
  rule: InLibraryRule;
  /** The fitted probability that the library answers the question; null when a rule before the fitted one decided. */
  probability: number | null;
  features: InLibraryFeatures | null;
}

/** The measurements of IN_LIBRARY_FEATURES on a question's sentence pool. */
export function inLibraryFeatures(pool: SentencePool): InLibraryFeatures {
  let coverage = 0;
  let answering = 0;
  for (const c of pool.candidates) {
    coverage = Math.max(coverage, c.features.coverage);
    if (c.relevant) answering++;
  }
  return { coverage, answeringSentences: Math.log1p(answering) };
}

export function inLibraryProbability(features: Readonly<InLibraryFeatures>, model = IN_LIBRARY_MODEL): number {
  let z = model.bias;
  for (const [name, value] of Object.entries(features) as Array<[InLibraryFeature, number]>) z += model.weights[name] * value;
  return 1 / (1 + Math.exp(-z));
}

/** The fitted rules, once the question's names left it to them. */
export function decideInLibrary(pool: SentencePool, thresholds = { refuseBelow: REFUSE_BELOW, unsureBelow: UNSURE_BELOW }): InLibraryDecision {
  if (pool.results.length === 0) return { rule: "nothing-retrieved", probability: null, features: null };
  const features = inLibraryFeatures(pool);
  const probability = inLibraryProbability(features);
  const rule: InLibraryRule =
    probability < thresholds.refuseBelow ? "outside-the-library" : probability < thresholds.unsureBelow ? "closest-provisions" : "in-the-library";
  return { rule, probability, features };
}

/** The question's words that no sentence of the nearest sections has, as the question spells them (at most `max`). */
export function wordsNoSectionHas(pool: SentencePool, language: "en" | "it", max = 3): string[] {
  const seen = new Set<string>();
  for (const c of pool.candidates) {
    for (const s of contentStems(`${c.result.section.heading} ${c.unit.text}`, language)) seen.add(s);
  }
  const out: string[] = [];
  for (const word of tokenize(pool.question)) {
    if (isFunctionWord(word) || word.length < 3 || /^\d+$/.test(word)) continue;
    const [stem] = contentStems(word, language);
    if (stem === undefined || !pool.terms.required.has(stem) || seen.has(stem)) continue;
    if (!out.includes(word)) out.push(word);
    if (out.length === max) break;
  }
  return out;
}
