import { sectionEmbeddingText } from "../embed/embed-derived.ts";
import type { Embedder } from "../model/embedder.ts";
import type { Section } from "../model/section-types.ts";
import { dot, makeRoom } from "../text/index.ts";

// The vector stage only scores its own top hits, so a section found by BM25 alone has no cosine
// and the fusion cannot tell a lexical hit that is also close in meaning from one that is not.
// This gives every candidate its cosine with the question, embedding candidates with the same
// text the index uses. Vectors are kept across queries (100 floats a section: small even for a large library), so
// after the first questions of a session nearly every candidate is a cache hit.

interface Entry {
  text: string;
  vector: Float32Array;
}

export class SectionVectorCache {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly capacity = 100_000) {}

  get size(): number {
    return this.entries.size;
  }

  async vectors(embedder: Embedder, sections: readonly Section[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    const missing: Array<{ key: string; id: string; text: string }> = [];
    for (const s of sections) {
      const text = sectionEmbeddingText(s);
      // The model id is part of the key: a model change must not mix vector spaces.
      const key = `${embedder.id}\u0000${s.id}`;
      const hit = this.entries.get(key);
      if (hit && hit.text === text) out.set(s.id, hit.vector);
      else if (text !== "") missing.push({ key, id: s.id, text });
    }
    if (missing.length === 0) return out;
    const vectors = await embedder.embedDocuments(missing.map((m) => m.text));
    makeRoom(this.entries, this.capacity, missing.length);
    missing.forEach((m, i) => {
      const vector = vectors[i];
      if (!vector) return;
      this.entries.set(m.key, { text: m.text, vector });
      out.set(m.id, vector);
    });
    return out;
  }
}

/**
 * Cosines of the question with each candidate, spread to [0, 1] over the pool: static-vector
 * cosines crowd into a narrow band near 1 for any question, so only their order within the
 * pool carries information. A candidate without a vector gets 0.
 */
export function poolCosines(query: Float32Array, vectors: ReadonlyMap<string, Float32Array>, ids: readonly string[]): Map<string, number> {
  const raw = new Map<string, number>();
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const id of ids) {
    const v = vectors.get(id);
    if (!v) continue;
    const c = dot(query, v);
    raw.set(id, c);
    lo = Math.min(lo, c);
    hi = Math.max(hi, c);
  }
  const out = new Map<string, number>();
  for (const id of ids) {
    const c = raw.get(id);
    out.set(id, c === undefined || hi <= lo ? 0 : (c - lo) / (hi - lo));
  }
  return out;
}
