import { setImmediate as yieldToEvents } from "node:timers/promises";
import { createTermStems, forEachIndexTerm } from "./fulltext-terms.ts";

// One segment's inverted index, held in typed arrays: the rows (sections) with their lengths in
// terms, the sorted term dictionary, and for each term the rows it occurs in with its count.
// Scores are Okapi BM25 as Kuzu's full-text index computed them (k1 = 1.2, b = 0.75, idf =
// log10((N − df + 0.5) / (df + 0.5) + 1), N and the mean length over rows that hold a term), so
// rankings are those of the indexes built before; the lookups no longer cost a database query.

/** BM25's term-frequency saturation and length normalisation, as before. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** Rows indexed between two yields to the event loop: a build never holds the engine for long. */
const ROWS_PER_YIELD = 250;

/** A row of the index: one section's fields, all searched as one text. */
export interface IndexedRow {
  id: string;
  documentId: string;
  fields: readonly string[];
}

export interface FullTextIndex {
  /** Section id of each row. */
  readonly ids: readonly string[];
  /** Document id of each row, as an index into `documentIds`. */
  readonly documentOf: Uint32Array;
  readonly documentIds: readonly string[];
  /** Terms in each row. */
  readonly lengths: Uint32Array;
  /** Rows that hold at least one term, and their mean length (BM25's N and avgdl). */
  readonly scoredRows: number;
  readonly meanLength: number;
  /** Sorted terms; term t's postings are [starts[t], starts[t + 1]). */
  readonly terms: readonly string[];
  readonly starts: Uint32Array;
  readonly postingRows: Uint32Array;
  readonly postingCounts: Uint32Array;
}

export interface ScoredRow {
  row: number;
  score: number;
}

/** Builds the index of `rows`, yielding to the event loop as it goes; `stop` says to give up. */
export async function buildFullTextIndex(rows: readonly IndexedRow[], stop: () => boolean = () => false): Promise<FullTextIndex> {
  const stems = createTermStems();
  const postings = new Map<string, number[]>();
  const lengths = new Uint32Array(rows.length);
  const documentIndex = new Map<string, number>();
  const documentOf = new Uint32Array(rows.length);
  const counts = new Map<string, number>();
  for (let r = 0; r < rows.length; r++) {
    if (r % ROWS_PER_YIELD === 0 && r > 0) {
      await yieldToEvents();
      if (stop()) throw new Error("the full-text build was stopped");
    }
    const row = rows[r];
    if (row === undefined) continue;
    let doc = documentIndex.get(row.documentId);
    if (doc === undefined) {
      doc = documentIndex.size;
      documentIndex.set(row.documentId, doc);
    }
    documentOf[r] = doc;
    counts.clear();
    let length = 0;
    const count = (term: string): void => {
      counts.set(term, (counts.get(term) ?? 0) + 1);
      length++;
    };
    for (const field of row.fields) forEachIndexTerm(field, stems, count);
    lengths[r] = length;
    for (const [term, n] of counts) {
      let list = postings.get(term);
      if (list === undefined) postings.set(term, (list = []));
      list.push(r, n);
    }
  }
  const terms = [...postings.keys()].sort(compareTerms);
  const starts = new Uint32Array(terms.length + 1);
  let total = 0;
  for (let t = 0; t < terms.length; t++) {
    starts[t] = total;
    total += (postings.get(terms[t] ?? "")?.length ?? 0) / 2;
  }
  starts[terms.length] = total;
  const postingRows = new Uint32Array(total);
  const postingCounts = new Uint32Array(total);
  for (let t = 0; t < terms.length; t++) {
    const list = postings.get(terms[t] ?? "") ?? [];
    let at = starts[t] ?? 0;
    for (let i = 0; i < list.length; i += 2) {
      postingRows[at] = list[i] ?? 0;
      postingCounts[at] = list[i + 1] ?? 0;
      at++;
    }
  }
  return withStatistics({
    ids: rows.map((r) => r.id),
    documentOf,
    documentIds: [...documentIndex.keys()],
    lengths,
    terms,
    starts,
    postingRows,
    postingCounts,
  });
}

/** The index with BM25's collection statistics computed from its lengths. */
export function withStatistics(parts: Omit<FullTextIndex, "scoredRows" | "meanLength">): FullTextIndex {
  let scoredRows = 0;
  let totalLength = 0;
  for (const length of parts.lengths) {
    if (length > 0) scoredRows++;
    totalLength += length;
  }
  return { ...parts, scoredRows, meanLength: scoredRows === 0 ? 0 : totalLength / scoredRows };
}

/** Code-unit order, the same at build and lookup. */
export function compareTerms(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function findTerm(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = terms[mid] ?? "";
    if (at === term) return mid;
    if (at < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Per-index scratch for one query at a time (queries are serial): the rows touched and their scores. */
interface Scratch {
  scores: Float64Array;
  touched: Uint32Array;
  /** Each row's `k1 · (1 − b + b · length / meanLength)`, BM25's denominator less the term frequency. */
  k1Norms: Float64Array;
}
const scratchOf = new WeakMap<FullTextIndex, Scratch>();

function scratchFor(index: FullTextIndex): Scratch {
  let scratch = scratchOf.get(index);
  if (scratch === undefined) {
    const rows = index.ids.length;
    const k1Norms = new Float64Array(rows);
    for (let row = 0; row < rows; row++) k1Norms[row] = BM25_K1 * (1 - BM25_B + BM25_B * ((index.lengths[row] ?? 0) / index.meanLength));
    scratch = { scores: new Float64Array(rows), touched: new Uint32Array(rows), k1Norms };
    scratchOf.set(index, scratch);
  }
  return scratch;
}

/**
 * The `top` best rows for a query's distinct terms (fulltext-terms.ts queryIndexTerms), best
 * first; rows `keep` refuses (a deleted document's) are skipped. Equal scores go to the earlier row.
 * `keep` is asked only about rows good enough to enter the best so far: a common term touches
 * most rows of a segment.
 */
export function searchFullText(index: FullTextIndex, terms: readonly string[], top: number, keep: (row: number) => boolean): ScoredRow[] {
  if (top < 1 || index.scoredRows === 0) return [];
  const { scores, touched, k1Norms } = scratchFor(index);
  let touchedCount = 0;
  const n = index.scoredRows;
  const { postingRows, postingCounts } = index;
  for (const term of terms) {
    const t = findTerm(index.terms, term);
    if (t < 0) continue;
    const from = index.starts[t] ?? 0;
    const to = index.starts[t + 1] ?? from;
    const df = to - from;
    const idf = Math.log10((n - df + 0.5) / (df + 0.5) + 1);
    for (let p = from; p < to; p++) {
      const row = postingRows[p] ?? 0;
      const tf = postingCounts[p] ?? 0;
      const before = scores[row] ?? 0;
      if (before === 0) touched[touchedCount++] = row;
      scores[row] = before + idf * ((tf * (BM25_K1 + 1)) / (tf + (k1Norms[row] ?? 0)));
    }
  }
  const best = new TopRows(Math.floor(top));
  for (let i = 0; i < touchedCount; i++) {
    const row = touched[i] ?? 0;
    const score = scores[row] ?? 0;
    scores[row] = 0;
    if (best.accepts(row, score) && keep(row)) best.offer(row, score);
  }
  return best.sorted();
}

/** A bounded min-heap of the best rows seen: worse = lower score, then later row. */
class TopRows {
  private readonly heap: ScoredRow[] = [];
  constructor(private readonly size: number) {}

  private static worse(a: ScoredRow, b: ScoredRow): boolean {
    return a.score < b.score || (a.score === b.score && a.row > b.row);
  }

  /** Whether `offer` would keep this row now. */
  accepts(row: number, score: number): boolean {
    const root = this.heap[0];
    return this.heap.length < this.size || root === undefined || root.score < score || (root.score === score && root.row > row);
  }

  offer(row: number, score: number): void {
    const item = { row, score };
    const heap = this.heap;
    if (heap.length < this.size) {
      heap.push(item);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        const p = heap[parent];
        if (p === undefined || !TopRows.worse(item, p)) break;
        heap[i] = p;
        i = parent;
      }
      heap[i] = item;
      return;
    }
    const root = heap[0];
    if (root === undefined || !TopRows.worse(root, item)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) break;
      const left = heap[l];
      const right = heap[l + 1];
      const child = right !== undefined && left !== undefined && TopRows.worse(right, left) ? l + 1 : l;
      const c = heap[child];
      if (c === undefined || !TopRows.worse(c, item)) break;
      heap[i] = c;
      i = child;
    }
    heap[i] = item;
  }

  sorted(): ScoredRow[] {
    return [...this.heap].sort((a, b) => b.score - a.score || a.row - b.row);
  }
}
