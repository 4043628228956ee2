// Similarity of vectors and of word sets, one definition each.

/** Dot product over the shorter of two vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s = 0;
  for (let i = 0; i < n; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

/** Cosine similarity of two vectors of the same width; 0 when either has no direction. */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  let product = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    product += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : product / Math.sqrt(na * nb);
}

/** Shared members over all members; 0 for two empty sets. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let both = 0;
  for (const s of a) if (b.has(s)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 0 : both / union;
}
