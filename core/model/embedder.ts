// What the engine needs from any text embedder, whatever runs underneath (the built-in static
// GloVe model, a transformer such as bge-small or e5-small, or a test double).
//
// Vectors are L2-normalised, so a dot product is the cosine similarity. A text with no known token
// (empty, only numbers, only unknown words) embeds to the all-zero vector: its similarity to
// everything is 0, and callers that index vectors should skip zero vectors rather than store them
// (cosine distance to a zero vector is undefined in most vector indexes).
export interface Embedder {
  /** The model id from the manifest, e.g. "glove-static-100d"; stored with vectors to detect a model change. */
  readonly id: string;
  readonly dimensions: number;
  /** Embeds search queries (adds the model's query prefix, e.g. "query: " for e5). */
  embedQueries(texts: string[]): Promise<Float32Array[]>;
  /** Embeds passages to index (adds the model's document prefix, e.g. "passage: " for e5). */
  embedDocuments(texts: string[]): Promise<Float32Array[]>;
  /**
   * One vector per word, for models whose words have vectors of their own (a static model: a
   * word's vector is its row). A transformer has none worth the cost, so it leaves this out.
   */
  embedWords?(words: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** True when every component is 0: the defined result for a text with no known token. */
export function isZeroVector(vector: Float32Array): boolean {
  for (const x of vector) if (x !== 0) return false;
  return true;
}
