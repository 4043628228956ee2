import { memoStemmer, tokenize } from "./query-terms.ts";

// Query-term-aware features computed on the candidate pool only (a few hundred sections), so
// they can afford what an inverted index cannot: where in the hierarchy the words occur, how
// close together, and how much of the question a section covers as a whole.

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

export interface PoolStats {
  /** Stems of each candidate's text, in order. */
  textStems: Map<string, string[]>;
  contextStems: Map<string, Set<string>>;
  /** IDF of each query stem within the pool. */
  idf: Map<string, number>;
}

/** Tokenizes the pool once and weighs each query stem by its rarity inside the pool. */
export function poolStats(queryStems: readonly string[], candidates: readonly CandidateText[]): PoolStats {
  const textStems = new Map<string, string[]>();
  const contextStems = new Map<string, Set<string>>();
  const df = new Map<string, number>();
  const wanted = new Set(queryStems);
  const stem = memoStemmer();
  for (const c of candidates) {
    const stems = tokenize(c.text).map(stem);
    textStems.set(c.id, stems);
    const context = new Set(tokenize(c.context).map(stem));
    contextStems.set(c.id, context);
    const seen = new Set<string>();
    for (const s of stems) if (wanted.has(s)) seen.add(s);
    for (const s of context) if (wanted.has(s)) seen.add(s);
    for (const s of seen) df.set(s, (df.get(s) ?? 0) + 1);
  }
  const n = Math.max(1, candidates.length);
  const idf = new Map<string, number>();
  for (const s of wanted) idf.set(s, Math.log(1 + n / (1 + (df.get(s) ?? 0))));
  return { textStems, contextStems, idf };
}

export function termFeatures(queryStems: readonly string[], candidateId: string, stats: PoolStats, window = 3): TermFeatures {
  const unique = [...new Set(queryStems)];
  if (unique.length === 0) return { coverage: 0, headingCoverage: 0, proximity: 0 };
  const text = stats.textStems.get(candidateId) ?? [];
  const context = stats.contextStems.get(candidateId) ?? new Set<string>();
  const positions = new Map<string, number[]>();
  text.forEach((s, i) => {
    const list = positions.get(s);
    if (list) list.push(i);
    else positions.set(s, [i]);
  });
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
    if (pa.some((x) => pb.some((y) => Math.abs(x - y) <= window))) close++;
  }
  return {
    coverage: total === 0 ? 0 : covered / total,
    headingCoverage: total === 0 ? 0 : inContext / total,
    proximity: pairs === 0 ? 0 : close / pairs,
  };
}
