import { isFunctionWord, memoized, stemEnglish, tokenize } from "../text/index.ts";

// Query-term-aware features computed on the candidate pool only (a few hundred sections), so
// they can afford what an inverted index cannot: where in the hierarchy the words occur, how
// close together, how much of the question a section covers as a whole, and which words the
// best candidates share beyond the question's own (pseudo-relevance feedback).

export interface CandidateText {
  id: string;
  /** Body text. */
  text: string;
  /** Own heading and label plus the headings of its ancestors, nearest first. */
  context: string;
}

export interface TermFeatures {
  coverage: number;
  headingCoverage: number;
  proximity: number;
}

/** A text's stems, indexed once: in order, where each occurs, and the distinct ones. */
export interface StemIndex {
  stems: string[];
  positions: Map<string, number[]>;
  distinct: Set<string>;
}

function indexStems(stems: string[]): StemIndex {
  const positions = new Map<string, number[]>();
  stems.forEach((s, i) => {
    const list = positions.get(s);
    if (list) list.push(i);
    else positions.set(s, [i]);
  });
  return { stems, positions, distinct: new Set(positions.keys()) };
}

export interface PoolStats {
  /** Stems of each candidate's text, in order. */
  textStems: Map<string, string[]>;
  /** The same, indexed (positions, distinct stems): what the features read. */
  textIndex: Map<string, StemIndex>;
  contextStems: Map<string, Set<string>>;
  /** IDF of each query stem within the pool. */
  idf: Map<string, number>;
  /** In how many candidates each stem occurs (text or context): the pool's document frequency. */
  df: Map<string, number>;
  size: number;
}

/**
 * Stems of section texts, kept across queries: consecutive questions share many candidates, and
 * tokenizing a pool of ~200 sections is most of the re-scoring time. Keyed by section id and
 * checked against the text, so an edited or re-imported section is never served stale stems.
 */
export class StemCache {
  private readonly entries = new Map<string, { text: string; index: StemIndex }>();
  private readonly stem = memoized(stemEnglish);
  constructor(private readonly capacity = 50_000) {}

  get size(): number {
    return this.entries.size;
  }

  stems(id: string, text: string): string[] {
    return this.index(id, text).stems;
  }

  /**
   * Positions and distinct stems too: re-scoring read every candidate's whole text three times a
   * question (document frequency, proximity, feedback), a large share of a search's time;
   * indexed once, those are set lookups.
   */
  index(id: string, text: string): StemIndex {
    const hit = this.entries.get(id);
    if (hit && hit.text === text) return hit.index;
    const index = indexStems(tokenize(text).map(this.stem));
    // Dropping everything when full is crude but O(1); a corpus rarely exceeds the capacity.
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(id, { text, index });
    return index;
  }
}

/** Tokenizes the pool once and weighs each query stem by its rarity inside the pool. */
export function poolStats(queryStems: readonly string[], candidates: readonly CandidateText[], cache: StemCache = new StemCache()): PoolStats {
  const textStems = new Map<string, string[]>();
  const textIndex = new Map<string, StemIndex>();
  const contextStems = new Map<string, Set<string>>();
  const df = new Map<string, number>();
  const wanted = new Set(queryStems);
  for (const c of candidates) {
    const index = cache.index(c.id, c.text);
    textStems.set(c.id, index.stems);
    textIndex.set(c.id, index);
    const context = cache.index(`${c.id}\u0000context`, c.context).distinct;
    contextStems.set(c.id, context);
    for (const s of index.distinct) df.set(s, (df.get(s) ?? 0) + 1);
    for (const s of context) if (!index.distinct.has(s)) df.set(s, (df.get(s) ?? 0) + 1);
  }
  const n = Math.max(1, candidates.length);
  const idf = new Map<string, number>();
  for (const s of wanted) idf.set(s, Math.log(1 + n / (1 + (df.get(s) ?? 0))));
  return { textStems, textIndex, contextStems, idf, df, size: n };
}

export function termFeatures(queryStems: readonly string[], candidateId: string, stats: PoolStats, window = 3): TermFeatures {
  const unique = [...new Set(queryStems)];
  if (unique.length === 0) return { coverage: 0, headingCoverage: 0, proximity: 0 };
  const context = stats.contextStems.get(candidateId) ?? new Set<string>();
  const positions = stats.textIndex.get(candidateId)?.positions ?? new Map<string, number[]>();
  let total = 0;
  let covered = 0;
  let inContext = 0;
  for (const s of unique) {
    const w = stats.idf.get(s) ?? 0;
    total += w;
    if (positions.has(s)) covered += w;
    if (context.has(s)) inContext += w;
  }
  let pairs = 0;
  let close = 0;
  for (let i = 0; i + 1 < queryStems.length; i++) {
    const a = queryStems[i] ?? "";
    const b = queryStems[i + 1] ?? "";
    if (a === b) continue;
    pairs++;
    const pa = positions.get(a);
    const pb = positions.get(b);
    if (!pa || !pb) continue;
    if (near(pa, pb, window)) close++;
  }
  return {
    coverage: total === 0 ? 0 : covered / total,
    headingCoverage: total === 0 ? 0 : inContext / total,
    proximity: pairs === 0 ? 0 : close / pairs,
  };
}

/** Whether two ascending position lists have a pair within `window` (a merge walk, not all pairs). */
function near(a: readonly number[], b: readonly number[], window: number): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] ?? 0;
    const y = b[j] ?? 0;
    if (Math.abs(x - y) <= window) return true;
    if (x < y) i++;
    else j++;
  }
  return false;
}

export interface FeedbackOptions {
  /** First-pass candidates the expansion words are read from. */
  docs: number;
  /** Expansion words kept. */
  terms: number;
}

export const DEFAULT_FEEDBACK: FeedbackOptions = { docs: 8, terms: 20 };

/**
 * RM3-style relevance model from the best first-pass candidates: each word's weight is its
 * share of each feedback section's length, weighted by that section's first-pass score, times
 * its rarity in the pool (so "rule", "person" do not dominate). The question's own words are
 * left out: coverage already counts them. Returns stem → weight, weights summing to 1.
 */
export function feedbackModel(
  feedback: ReadonlyArray<{ id: string; score: number }>,
  queryStems: readonly string[],
  stats: PoolStats,
  options: FeedbackOptions = DEFAULT_FEEDBACK,
): Map<string, number> {
  const exclude = new Set(queryStems);
  const mass = new Map<string, number>();
  const docs = feedback.filter((f) => f.score > 0).slice(0, options.docs);
  const top = docs[0]?.score ?? 0;
  if (top <= 0) return new Map();
  for (const { id, score } of docs) {
    const stems = stats.textStems.get(id) ?? [];
    if (stems.length === 0) continue;
    const w = score / top / stems.length;
    for (const s of stems) {
      if (s.length < 3 || exclude.has(s) || isFunctionWord(s) || /^\d/.test(s)) continue;
      mass.set(s, (mass.get(s) ?? 0) + w);
    }
  }
  const weighted = [...mass.entries()]
    .map(([s, m]) => ({ s, w: m * Math.log(1 + stats.size / (stats.df.get(s) ?? 1)) }))
    // Words of a single feedback section are its idiosyncrasies, not the topic.
    .filter((x) => (stats.df.get(x.s) ?? 0) >= 2)
    .sort((a, b) => b.w - a.w || (a.s < b.s ? -1 : 1))
    .slice(0, options.terms);
  const total = weighted.reduce((n, x) => n + x.w, 0);
  return new Map(total > 0 ? weighted.map((x) => [x.s, x.w / total]) : []);
}

/** Weighted share of the feedback model's words present in the candidate, in [0, 1]. */
export function feedbackScore(model: ReadonlyMap<string, number>, candidateId: string, stats: PoolStats): number {
  if (model.size === 0) return 0;
  const present = stats.textIndex.get(candidateId)?.distinct ?? new Set<string>();
  const context = stats.contextStems.get(candidateId);
  let score = 0;
  for (const [s, w] of model) if (present.has(s) || context?.has(s)) score += w;
  return score;
}

export interface NeighbourFeatures {
  /** First-pass score (÷ the best) of the section's parent, 0 when the parent is not a candidate. */
  parentScore: number;
  /** Best first-pass score (÷ the best) of another candidate with the same parent. */
  siblingScore: number;
  /** Best first-pass score (÷ the best) of a child among the candidates. */
  childScore: number;
}

/**
 * Passage-neighbour smoothing: rules that answer one question tend to sit together ("6.1.3(a)"
 * and "6.1.3(b)"), so a section whose parent, sibling or child scored well in the first pass
 * deserves a lift even when its own words match less.
 */
export function neighbourFeatures(
  sections: ReadonlyArray<{ id: string; parentId: string | null }>,
  firstPass: ReadonlyMap<string, number>,
): Map<string, NeighbourFeatures> {
  let top = 0;
  for (const s of firstPass.values()) top = Math.max(top, s);
  const norm = (id: string | null): number => (id === null || top <= 0 ? 0 : Math.max(0, firstPass.get(id) ?? 0) / top);
  // Best and second-best child score per parent, so a sibling's own score is not counted.
  const best = new Map<string, { first: number; firstId: string; second: number }>();
  for (const s of sections) {
    if (s.parentId === null) continue;
    const v = norm(s.id);
    const b = best.get(s.parentId);
    if (!b) best.set(s.parentId, { first: v, firstId: s.id, second: 0 });
    else if (v > b.first) best.set(s.parentId, { first: v, firstId: s.id, second: b.first });
    else if (v > b.second) b.second = v;
  }
  const out = new Map<string, NeighbourFeatures>();
  for (const s of sections) {
    const b = s.parentId === null ? undefined : best.get(s.parentId);
    const sibling = b ? (b.firstId === s.id ? b.second : b.first) : 0;
    const kids = best.get(s.id);
    out.set(s.id, { parentScore: norm(s.parentId), siblingScore: sibling, childScore: kids ? kids.first : 0 });
  }
  return out;
}
