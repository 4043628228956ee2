import { cosineSimilarity } from "../text/index.ts";
import type { LexicalSpace } from "./lexical-space.ts";
import type { SectionProfile } from "./section-profile.ts";

// The signals a pair of sections is scored by, each a number in natural units (cosines, shares),
// computed only for the candidate pairs (crosswalk-candidates.ts). The model that weighs them is
// in crosswalk-model.ts; the reasons shown beside a match are built from the same numbers.

export const FEATURE_NAMES = [
  /**
   * Cosine of the two stored section vectors (the embedder in use), as standard scores against
   * the cosines of a fixed sample of the two documents' pairs: each embedder has its own scale
   * (the static GloVe model puts any two articles close to 1), the model weighs how far above
   * the usual a pair stands.
   */
  "similarity",

  /** TF-IDF cosine of words and word pairs of heading and body. */
  "lexical",

  /** TF-IDF cosine of the headings the sections sit under, their own included. */
  "heading",
  /** Embedding cosine of the same headings, standardized the same way. */
  "headingSimilarity",
  /** TF-IDF cosine of one side's headings against the other side's text, both ways, averaged. */
  "headingText",

  /** IDF-weighted overlap of the defined terms both use. */
  "terms",
  /** IDF-weighted overlap of their obligations' parties, actions and objects. */
  "parties",

  /** 1 when one cites the other (in its text or its heading). */
  "citation",
  /** 1 when both are the same kind of provision (operative / recital / annex), 0.5 when unsure. */
  "structure",
  /**
   * How much of A the B section relates to: the mean lexical cosine of its 5 nearest A sections.
   * Fitted, it counts for a match: the substantive provisions of a regulation (security of
   * processing, breach notification) are the ones the other act's provisions keep meeting.
   */
  "centrality",
  /** 1 / √rank of A among the lexical neighbours of B (0 beyond them): the match seen from B's side. */
  "reciprocal",
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
export type FeatureVector = Record<FeatureName, number>;

export type CitationDirection = "a-cites-b" | "b-cites-a";

export interface CitationLink {
  direction: CitationDirection;
  /** The citation as printed ("§ 164.308(a)(1)"). */
  raw: string;
  /** Printed in the citing section's heading rather than its text. */
  inHeading: boolean;
}

export interface FeatureContext {
  lexical: LexicalSpace;
  /** Headings ("h:<id>") and texts ("t:<id>") in one space, for the heading features. */
  headingLexical: LexicalSpace;
  /** Stored section vectors (unit length not assumed). */
  vectors: ReadonlyMap<string, Float32Array>;
  headingVectors: ReadonlyMap<string, Float32Array>;
  /** Mean and standard deviation of the cosines of sampled pairs (backgroundCosines). */
  vectorBackground: Background;
  headingBackground: Background;
  /** IDF of defined terms and of obligation words over both sides' sections. */
  termIdf: ReadonlyMap<string, number>;
  partyIdf: ReadonlyMap<string, number>;
  /** A section id → B section id → the citation linking them. */
  citations: ReadonlyMap<string, ReadonlyMap<string, CitationLink>>;
  /** B section id → its centrality (see the feature). */
  centrality: ReadonlyMap<string, number>;
  /** B section id → A section id → rank of A among B's lexical neighbours (1-based). */
  reverseRank: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

export interface Background {
  mean: number;
  sd: number;
}

/** Standard score of a cosine against the background, bounded (0 when there is no vector). */
export function standardized(value: number | null, background: Background): number {
  if (value === null) return 0;
  return Math.max(-20, Math.min(20, (value - background.mean) / (background.sd > 1e-6 ? background.sd : 1)));
}

/** Pairs sampled per A section for the background: few, spread evenly over B. */
const BACKGROUND_PER_SECTION = 16;

/** Cosines of a deterministic sample of A × B pairs: every A section against evenly spaced B sections. */
export function backgroundCosines(aIds: readonly string[], bIds: readonly string[], vectors: ReadonlyMap<string, Float32Array>): Background {
  const a = aIds.filter((id) => vectors.has(id));
  const b = bIds.filter((id) => vectors.has(id));
  const values: number[] = [];
  const step = Math.max(1, Math.floor(b.length / BACKGROUND_PER_SECTION));
  a.forEach((x, i) => {
    for (let j = i % step; j < b.length; j += step) values.push(cosine(vectors.get(x), vectors.get(b[j] ?? "")));
  });
  if (values.length < 2) return { mean: 0, sd: 1 };
  const mean = values.reduce((t, v) => t + v, 0) / values.length;
  const sd = Math.sqrt(values.reduce((t, v) => t + (v - mean) ** 2, 0) / values.length);
  return { mean, sd };
}

export interface PairSignals {
  /** The plain cosines behind similarity and headingSimilarity (null without vectors), for the reasons shown. */
  cosines: { section: number | null; heading: number | null };
  features: FeatureVector;
  sharedTerms: string[];
  sharedParties: string[];
  sharedWords: string[];
  citation: CitationLink | null;
}

export function cosine(a: Float32Array | undefined, b: Float32Array | undefined): number {
  return a === undefined || b === undefined || a.length !== b.length ? 0 : cosineSimilarity(a, b);
}

/** Cosine of two sets of words weighted by IDF; the shared words, heaviest first. */
function weightedOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>, idf: ReadonlyMap<string, number>): { value: number; shared: string[] } {
  if (a.size === 0 || b.size === 0) return { value: 0, shared: [] };
  const weight = (w: string): number => idf.get(w) ?? 0;
  let na = 0;
  for (const w of a) na += weight(w) ** 2;
  let nb = 0;
  for (const w of b) nb += weight(w) ** 2;
  const shared = [...a].filter((w) => b.has(w));
  let dot = 0;
  for (const w of shared) dot += weight(w) ** 2;
  shared.sort((x, y) => weight(y) - weight(x) || (x < y ? -1 : 1));
  return { value: na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0, shared };
}

/** IDF of each item over a list of sets (smoothed, never negative). */
export function idfOf(sets: ReadonlyArray<ReadonlySet<string>>): Map<string, number> {
  const df = new Map<string, number>();
  for (const set of sets) for (const w of set) df.set(w, (df.get(w) ?? 0) + 1);
  const n = sets.length;
  return new Map([...df].map(([w, d]) => [w, Math.log((n + 1) / (d + 1)) + 0.1]));
}

function structureMatch(a: SectionProfile, b: SectionProfile): number {
  if (a.role === "other" || b.role === "other") return 0.5;
  return a.role === b.role ? 1 : 0;
}

export function pairSignals(ctx: FeatureContext, a: SectionProfile, b: SectionProfile): PairSignals {
  const aId = a.section.id;
  const bId = b.section.id;
  const terms = weightedOverlap(a.definedTerms, b.definedTerms, ctx.termIdf);
  const parties = weightedOverlap(a.obligationWords, b.obligationWords, ctx.partyIdf);
  const citation = ctx.citations.get(aId)?.get(bId) ?? null;
  const rank = ctx.reverseRank.get(bId)?.get(aId);
  const va = ctx.vectors.get(aId);
  const vb = ctx.vectors.get(bId);
  const sectionCosine = va === undefined || vb === undefined ? null : cosine(va, vb);
  const ha = ctx.headingVectors.get(aId);
  const hb = ctx.headingVectors.get(bId);
  const headingCosine = ha === undefined || hb === undefined ? null : cosine(ha, hb);
  const features: FeatureVector = {
    similarity: standardized(sectionCosine, ctx.vectorBackground),
    lexical: ctx.lexical.cosine(aId, bId),
    heading: ctx.headingLexical.cosine(`h:${aId}`, `h:${bId}`),
    headingText: (ctx.headingLexical.cosine(`h:${aId}`, `t:${bId}`) + ctx.headingLexical.cosine(`t:${aId}`, `h:${bId}`)) / 2,
    headingSimilarity: standardized(headingCosine, ctx.headingBackground),
    terms: terms.value,
    parties: parties.value,
    citation: citation === null ? 0 : 1,
    structure: structureMatch(a, b),
    centrality: ctx.centrality.get(bId) ?? 0,
    reciprocal: rank === undefined ? 0 : 1 / Math.sqrt(rank),
  };
  return {
    features,
    cosines: { section: sectionCosine, heading: headingCosine },
    sharedTerms: terms.shared.slice(0, 8),
    sharedParties: parties.shared.slice(0, 8),
    sharedWords: ctx.lexical.sharedTerms(aId, bId, 8),
    citation,
  };
}
