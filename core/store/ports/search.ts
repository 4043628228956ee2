import type { SearchHit } from "../../model/store-records.ts";
import type { ScoredId, TripletVectorHit } from "../../model/graph-records.ts";
import type { VectorQuery } from "../../model/comparison-records.ts";

// Full-text and vector search.

/** Ranked ids and scores (the read cache fills the rows from memory). */
export interface SearchReads {
  /** BM25 over section label, heading and text. Any user text is safe here. */
  searchSections(query: string, k: number): Promise<SearchHit[]>;
  /**
   * The same ranking as ids and scores only: materialising 150 sections (text and spans) inside
   * the query took most of its time; the read cache fills them from memory.
   */
  searchSectionIds(query: string, k: number): Promise<ScoredId[]>;
  /** The triplet vector search as ids and scores only (the read cache fills the triplets from memory). */
  searchTripletIdsByVector(vector: Float32Array, k: number): Promise<TripletVectorHit[]>;
  /** Stored section vectors by section id in the embedding space `modelId` (none in another): unit length. */
  sectionVectorsByIds(sectionIds: string[], modelId: string): Promise<Map<string, Float32Array>>;
  /** Stored section vectors of these documents, by section id. */
  getSectionVectors(documentIds: string[]): Promise<Map<string, Float32Array>>;
  /** Per query, the k nearest sections of these documents through the HNSW index (store/kuzu/vector-neighbours.ts). */
  nearestSections(queries: VectorQuery[], k: number, documentIds: string[]): Promise<Map<string, ScoredId[]>>;
}
