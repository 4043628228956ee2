// Turns token-level transformer output ([batch, seq, hidden]) into one vector per text, the way
// each model was trained to be used: mean over real tokens (e5) or the first token (bge, "CLS").

export type Pooling = "mean" | "cls";

/**
 * `hidden` is row-major [batch, seq, dim]; `mask` is [batch, seq] with 1 for real tokens.
 * Returns one vector per batch row.
 */
export function poolTokens(hidden: Float32Array, mask: BigInt64Array, batch: number, seq: number, dim: number, pooling: Pooling): Float32Array[] {
  const out: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const vector = new Float32Array(dim);
    if (pooling === "cls") {
      vector.set(hidden.subarray(b * seq * dim, b * seq * dim + dim));
    } else {
      // Accumulate in float64: long sections sum hundreds of token vectors.
      const sum = new Float64Array(dim);
      let count = 0;
      for (let t = 0; t < seq; t++) {
        if (mask[b * seq + t] === 0n) continue;
        count++;
        const base = (b * seq + t) * dim;
        for (let d = 0; d < dim; d++) sum[d] = (sum[d] ?? 0) + (hidden[base + d] ?? 0);
      }
      if (count > 0) for (let d = 0; d < dim; d++) vector[d] = (sum[d] ?? 0) / count;
    }
    out.push(vector);
  }
  return out;
}

/** Scales to unit length in place; a zero vector stays zero (the defined "no known token" result). */
export function l2Normalize(vector: Float32Array): Float32Array {
  let sq = 0;
  for (const x of vector) sq += x * x;
  const norm = Math.sqrt(sq);
  if (norm > 1e-12) for (let d = 0; d < vector.length; d++) vector[d] = (vector[d] ?? 0) / norm;
  return vector;
}
