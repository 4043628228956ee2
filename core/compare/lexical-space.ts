// TF-IDF vectors of sections over the vocabulary of the documents being compared, and an
// inverted index to find a section's lexical nearest neighbours among another document's
// sections without scoring every pair. IDF comes from the sections of both sides together: a
// word every DORA article uses ("financial entity") weighs little, a word two provisions alone
// share ("backup") weighs much.

export interface LexicalItem {
  id: string;
  terms: readonly string[];
}

interface Vector {
  /** Term ids, ascending. */
  ids: Int32Array;
  /** Unit-length weights, parallel to ids. */
  weights: Float32Array;
}

export interface LexicalNeighbour {
  id: string;
  score: number;
}

export interface LexicalSpace {
  /** Cosine of two items' TF-IDF vectors (0 when either is unknown or empty). */
  cosine(a: string, b: string): number;
  /**
   * The `m` items of `pool` most similar to `query` by cosine, best first, ties by id. Scores
   * only the pool items sharing one of the query's `maxQueryTerms` heaviest terms (the inverted
   * index), so a query costs its terms' postings, not the size of the pool.
   */
  nearest(query: string, pool: string, m: number): LexicalNeighbour[];
  /** The heaviest terms two items share, for the reasons shown beside a match. */
  sharedTerms(a: string, b: string, limit: number): string[];
}

const DEFAULT_QUERY_TERMS = 48;

/**
 * Builds the space over every item (both sides); `pools` names the groups `nearest` searches
 * (e.g. "b" → the other document's section ids).
 */
export function buildLexicalSpace(
  items: readonly LexicalItem[],
  pools: ReadonlyMap<string, readonly string[]>,
  options: { maxQueryTerms?: number } = {},
): LexicalSpace {
  const maxQueryTerms = Math.max(1, options.maxQueryTerms ?? DEFAULT_QUERY_TERMS);
  const termIds = new Map<string, number>();
  const names: string[] = [];
  const counts: Array<Map<number, number>> = [];
  const df: number[] = [];
  for (const item of items) {
    const tf = new Map<number, number>();
    for (const term of item.terms) {
      let id = termIds.get(term);
      if (id === undefined) {
        id = names.length;
        termIds.set(term, id);
        names.push(term);
        df.push(0);
      }
      tf.set(id, (tf.get(id) ?? 0) + 1);
    }
    for (const id of tf.keys()) df[id] = (df[id] ?? 0) + 1;
    counts.push(tf);
  }
  const n = items.length;
  const vectors = new Map<string, Vector>();
  items.forEach((item, i) => {
    const tf = counts[i] ?? new Map<number, number>();
    const ids = Int32Array.from([...tf.keys()].sort((a, b) => a - b));
    const weights = new Float32Array(ids.length);
    let norm = 0;
    ids.forEach((id, j) => {
      // Sublinear tf, smoothed idf: a term in every section still weighs a little.
      const w = (1 + Math.log(tf.get(id) ?? 1)) * Math.log((n + 1) / ((df[id] ?? 0) + 1));
      weights[j] = w;
      norm += w * w;
    });
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < weights.length; j++) weights[j] = (weights[j] ?? 0) * scale;
    vectors.set(item.id, { ids, weights });
  });

  // Postings per pool: term id → [item index within the pool, weight].
  const postings = new Map<string, { ids: string[]; lists: Map<number, Array<[number, number]>> }>();
  for (const [name, members] of pools) {
    const lists = new Map<number, Array<[number, number]>>();
    const ids = members.filter((id) => vectors.has(id));
    ids.forEach((id, index) => {
      const v = vectors.get(id);
      if (!v) return;
      v.ids.forEach((termId, j) => {
        let list = lists.get(termId);
        if (!list) lists.set(termId, (list = []));
        list.push([index, v.weights[j] ?? 0]);
      });
    });
    postings.set(name, { ids, lists });
  }

  const dot = (a: Vector, b: Vector): number => {
    let i = 0;
    let j = 0;
    let sum = 0;
    while (i < a.ids.length && j < b.ids.length) {
      const x = a.ids[i] ?? 0;
      const y = b.ids[j] ?? 0;
      if (x === y) sum += (a.weights[i++] ?? 0) * (b.weights[j++] ?? 0);
      else if (x < y) i++;
      else j++;
    }
    return sum;
  };

  return {
    cosine(a, b) {
      const va = vectors.get(a);
      const vb = vectors.get(b);
      return va && vb ? dot(va, vb) : 0;
    },
    nearest(query, pool, m) {
      const q = vectors.get(query);
      const index = postings.get(pool);
      if (!q || !index || m < 1) return [];
      const order = [...q.ids.keys()].sort((x, y) => (q.weights[y] ?? 0) - (q.weights[x] ?? 0)).slice(0, maxQueryTerms);
      const touched = new Set<number>();
      for (const j of order) for (const [item] of index.lists.get(q.ids[j] ?? -1) ?? []) touched.add(item);
      // Exact cosines for the items the heavy terms reached.
      const scored: LexicalNeighbour[] = [];
      for (const item of touched) {
        const id = index.ids[item] ?? "";
        const v = vectors.get(id);
        if (v) scored.push({ id, score: dot(q, v) });
      }
      return scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, m);
    },
    sharedTerms(a, b, limit) {
      const va = vectors.get(a);
      const vb = vectors.get(b);
      if (!va || !vb) return [];
      const shared: Array<{ term: string; w: number }> = [];
      let i = 0;
      let j = 0;
      while (i < va.ids.length && j < vb.ids.length) {
        const x = va.ids[i] ?? 0;
        const y = vb.ids[j] ?? 0;
        if (x === y) {
          shared.push({ term: names[x] ?? "", w: (va.weights[i] ?? 0) * (vb.weights[j] ?? 0) });
          i++;
          j++;
        } else if (x < y) i++;
        else j++;
      }
      return shared
        .sort((p, q) => q.w - p.w || (p.term < q.term ? -1 : 1))
        .slice(0, limit)
        .map((s) => s.term);
    },
  };
}
