import type { EmbeddingSpace } from "../../model/store-records.ts";

// The embedding space and the vectors of each document.

/** Which model the vectors are of, and what is missing. */
export interface VectorReads {
  /** The model of the stored vectors; null before anything was embedded. */
  embeddingSpace(): Promise<EmbeddingSpace | null>;
  /** Ids of documents that have sections without a vector (after a model change or an interrupted re-embed). */
  documentsMissingEmbeddings(): Promise<string[]>;
}

/** Changing the model and adding vectors. */
export interface VectorWrites {
  /**
   * Makes the database hold vectors of this model. With a different model already recorded, its
   * vectors are dropped (`changed: true`): the caller re-embeds with putEmbeddings.
   */
  useEmbeddingSpace(space: EmbeddingSpace): Promise<{ changed: boolean }>;
  /** Adds vectors for a stored document's sections and triplets, all or nothing; existing rows are kept. */
  putEmbeddings(documentId: string, sections: ReadonlyMap<string, Float32Array>, triplets: ReadonlyMap<string, Float32Array>): Promise<void>;
}
