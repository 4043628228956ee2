import { isFunctionWord, makeRoom, stemEnglish, STEM_MEMO_WORDS, tokenize } from "../text/index.ts";

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

/**
 * A text's stems, indexed once, as numbers of its cache's dictionary: in order, and the distinct
 * ones sorted. Numbers, not strings in maps: the cache holds tens of thousands of sections, and
 * strings with their positions in maps took several times the memory of the sections' text.
 */
export interface StemIndex {
  ids: Uint32Array;
  distinct: Uint32Array;
}

/** Whether a sorted array holds `value`. */
function holds(sorted: Uint32Array, value: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid] ?? 0;
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

function indexOf(ids: Uint32Array): StemIndex {
  const sorted = ids.slice().sort();
  let kept = 0;
  for (let i = 0; i < sorted.length; i++) {
    const n = sorted[i] ?? 0;
    if (kept === 0 || sorted[kept - 1] !== n) sorted[kept++] = n;
  }
  return { ids, distinct: sorted.slice(0, kept) };
}

export interface PoolStats {
  /** Each candidate's text, indexed. */
  textIndex: Map<string, StemIndex>;
  /** Each candidate's headings, indexed. */
  contextIndex: Map<string, StemIndex>;
  /** IDF of each query stem within the pool. */
  idf: Map<string, number>;
  /** In how many candidates each stem (by number) occurs, text or context: the pool's document frequency. */
  df: Map<number, number>;
  size: number;
  /** The dictionary the indexes are numbered by. */
  cache: StemCache;
  /** Positions of the query's stems in each candidate, found when first asked. */
  positions: Map<string, Map<number, number[]>>;
}

/**
 * Stems of section texts, kept across queries: consecutive questions share many candidates, and
 * tokenizing a pool of ~200 sections is most of the re-scoring time. Keyed by section id and
 * checked against the text, so an edited or re-imported section is never served stale stems.
 */
export class StemCache {
  private readonly entries = new Map<string, { text: string; index: StemIndex }>();
  /** Word → number of its stem, and each number's stem. */
  private readonly numbers = new Map<string, number>();
  private readonly stemOf = new Map<string, number>();
  private readonly words: string[] = [];
  /** Per stem number: may be a feedback word (not short, a function word or a number). */
  private readonly content: boolean[] = [];
  constructor(
    private readonly capacity = 50_000,
    private readonly dictionaryWords = STEM_MEMO_WORDS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Starts a pool: a dictionary grown past its bound is emptied here, never while a pool is indexed. */
  beginPool(): void {
    if (this.numbers.size <= this.dictionaryWords) return;
    this.entries.clear();
    this.numbers.clear();
    this.stemOf.clear();
    this.words.length = 0;
    this.content.length = 0;
  }

  /** The number of a stem, if any text indexed since the dictionary was last emptied has it. */
  numberOf(stem: string): number | undefined {
    return this.stemOf.get(stem);
  }

  word(n: number): string {
    return this.words[n] ?? "";
  }

  isContentStem(n: number): boolean {
    return this.content[n] ?? false;
  }

  stems(id: string, text: string): string[] {
    return Array.from(this.index(id, text).ids, (n) => this.word(n));
  }

  private number(word: string): number {
    let n = this.numbers.get(word);
    if (n !== undefined) return n;
    const stem = stemEnglish(word);
    n = this.stemOf.get(stem);
    if (n === undefined) {
      n = this.words.length;
      this.words.push(stem);
      this.content.push(stem.length >= 3 && !isFunctionWord(stem) && !/^\d/.test(stem));
      this.stemOf.set(stem, n);
    }
    this.numbers.set(word, n);
    return n;
  }

  /**
   * Positions and distinct stems too: re-scoring read every candidate's whole text three times a
   * question (document frequency, proximity, feedback), a large share of a search's time;
   * indexed once, those are lookups.
   */
  index(id: string, text: string): StemIndex {
    const hit = this.entries.get(id);
    if (hit && hit.text === text) return hit.index;
    const words = tokenize(text);
    const ids = new Uint32Array(words.length);
    for (let i = 0; i < words.length; i++) ids[i] = this.number(words[i] ?? "");
    const index = indexOf(ids);
    makeRoom(this.entries, this.capacity);
    this.entries.set(id, { text, index });
    return index;
  }
}

/** Tokenizes the pool once and weighs each query stem by its rarity inside the pool. */
export function poolStats(queryStems: readonly string[], candidates: readonly CandidateText[], cache: StemCache = new StemCache()): PoolStats {
  cache.beginPool();
  const textIndex = new Map<string, StemIndex>();
  const contextIndex = new Map<string, StemIndex>();
  const df = new Map<number, number>();
  for (const c of candidates) {
    const index = cache.index(c.id, c.text);
    textIndex.set(c.id, index);
    const context = cache.index(`${c.id}\u0000context`, c.context);
    contextIndex.set(c.id, context);
    for (const n of index.distinct) df.set(n, (df.get(n) ?? 0) + 1);
    for (const n of context.distinct) if (!holds(index.distinct, n)) df.set(n, (df.get(n) ?? 0) + 1);
  }
  const size = Math.max(1, candidates.length);
  const idf = new Map<string, number>();
  for (const s of new Set(queryStems)) {
    const n = cache.numberOf(s);
    idf.set(s, Math.log(1 + size / (1 + (n === undefined ? 0 : (df.get(n) ?? 0)))));
  }
  return { textIndex, contextIndex, idf, df, size, cache, positions: new Map() };
}

/** Number of stems in a candidate's text (0 when it is not in the pool). */
export function textLength(stats: PoolStats, candidateId: string): number {
  return stats.textIndex.get(candidateId)?.ids.length ?? 0;
}

/** Where each of these stems occurs in the candidate's text, ascending (one pass over its stems). */
function positionsOf(stats: PoolStats, candidateId: string, numbers: ReadonlySet<number>): Map<number, number[]> {
  let found = stats.positions.get(candidateId);
  const missing = [...numbers].filter((n) => found === undefined || !found.has(n));
  if (found !== undefined && missing.length === 0) return found;
  found ??= new Map();
  for (const n of missing) found.set(n, []);
  const wanted = new Set(missing);
  const ids = stats.textIndex.get(candidateId)?.ids ?? new Uint32Array(0);
  for (let i = 0; i < ids.length; i++) {
    const n = ids[i] ?? 0;
    if (wanted.has(n)) found.get(n)?.push(i);
  }
  stats.positions.set(candidateId, found);
  return found;
}

export function termFeatures(queryStems: readonly string[], candidateId: string, stats: PoolStats, window = 3): TermFeatures {
  const unique = [...new Set(queryStems)];
  if (unique.length === 0) return { coverage: 0, headingCoverage: 0, proximity: 0 };
  const numbers = new Map<string, number>();
  for (const s of unique) {
    const n = stats.cache.numberOf(s);
    if (n !== undefined) numbers.set(s, n);
  }
  const context = stats.contextIndex.get(candidateId)?.distinct ?? new Uint32Array(0);
  const positions = positionsOf(stats, candidateId, new Set(numbers.values()));
  const at = (s: string): number[] | undefined => {
    const n = numbers.get(s);
    const list = n === undefined ? undefined : positions.get(n);
    return list === undefined || list.length === 0 ? undefined : list;
  };
  let total = 0;
  let covered = 0;
  let inContext = 0;
  for (const s of unique) {
    const w = stats.idf.get(s) ?? 0;
    total += w;
    if (at(s) !== undefined) covered += w;
    const n = numbers.get(s);
    if (n !== undefined && holds(context, n)) inContext += w;
  }
  let pairs = 0;
  let close = 0;
  for (let i = 0; i + 1 < queryStems.length; i++) {
    const a = queryStems[i] ?? "";
    const b = queryStems[i + 1] ?? "";
    if (a === b) continue;
    pairs++;
    const pa = at(a);
    const pb = at(b);
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
  const mass = new Map<number, number>();
  const docs = feedback.filter((f) => f.score > 0).slice(0, options.docs);
  const top = docs[0]?.score ?? 0;
  if (top <= 0) return new Map();
  const { cache } = stats;
  for (const { id, score } of docs) {
    const ids = stats.textIndex.get(id)?.ids ?? new Uint32Array(0);
    if (ids.length === 0) continue;
    const w = score / top / ids.length;
    for (const n of ids) {
      if (!cache.isContentStem(n) || exclude.has(cache.word(n))) continue;
      mass.set(n, (mass.get(n) ?? 0) + w);
    }
  }
  const weighted = [...mass.entries()]
    // Words of a single feedback section are its idiosyncrasies, not the topic.
    .filter(([n]) => (stats.df.get(n) ?? 0) >= 2)
    .map(([n, m]) => ({ s: cache.word(n), w: m * Math.log(1 + stats.size / (stats.df.get(n) ?? 1)) }))
    .sort((a, b) => b.w - a.w || (a.s < b.s ? -1 : 1))
    .slice(0, options.terms);
  const total = weighted.reduce((n, x) => n + x.w, 0);
  return new Map(total > 0 ? weighted.map((x) => [x.s, x.w / total]) : []);
}

/** Weighted share of the feedback model's words present in the candidate, in [0, 1]. */
export function feedbackScore(model: ReadonlyMap<string, number>, candidateId: string, stats: PoolStats): number {
  if (model.size === 0) return 0;
  const present = stats.textIndex.get(candidateId)?.distinct ?? new Uint32Array(0);
  const context = stats.contextIndex.get(candidateId)?.distinct ?? new Uint32Array(0);
  let score = 0;
  for (const [s, w] of model) {
    const n = stats.cache.numberOf(s);
    if (n !== undefined && (holds(present, n) || holds(context, n))) score += w;
  }
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
