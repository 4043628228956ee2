import type { Embedder } from "../../core/model/embedder.ts";

/**
 * Words hashed into `dims` buckets, L2-normalised: deterministic, and similar texts get similar
 * vectors. `delayMs` per batch makes the embedding stage of an import last a moment (cancel tests).
 */
export function hashEmbedder(id: string, dims: number, delayMs = 0): Embedder & { calls: number } {
  const embed = (texts: string[]): Float32Array[] =>
    texts.map((text) => {
      const v = new Float32Array(dims);
      for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
        let h = 0;
        for (const c of word) h = (h * 31 + (c.codePointAt(0) ?? 0)) >>> 0;
        v[h % dims] = (v[h % dims] ?? 0) + 1;
      }
      const norm = Math.hypot(...v);
      return norm === 0 ? v : v.map((x) => x / norm);
    });
  const pause = (): Promise<void> => (delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, delayMs)) : Promise.resolve());
  const embedder = {
    id,
    dimensions: dims,
    calls: 0,
    async embedQueries(texts: string[]) {
      return embed(texts);
    },
    async embedDocuments(texts: string[]) {
      embedder.calls += texts.length;
      await pause();
      return embed(texts);
    },
    async close() {},
  };
  return embedder;
}
