import type { DocumentRecord, SearchHit } from "../model/store-records.ts";
import type { CrossReferenceRecord, ScoredId, TermRecord, TripletRecord, TripletVectorHit } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";

// What hybrid retrieval needs from the database. The Kuzu store implements it; retrieval stages
// depend only on this, so each can be tested and benchmarked on its own.
export interface RetrievalStore {
  /** BM25 over sections (label, heading, text). */
  searchSections(query: string, k: number): Promise<SearchHit[]>;
  /**
   * HNSW cosine search over section embeddings; score = similarity (higher is better). A vector
   * with no direction (the embedding of a text with no known word) matches nothing: [].
   */
  searchSectionsByVector(vector: Float32Array, k: number): Promise<ScoredId[]>;
  /**
   * Cosine search over triplet embeddings, each hit with the section it is stated in; [] for a
   * vector with no direction, as above. Retrieval needs no more of the triplet: reading the rows
   * scanned the triplet table once per search (most of a search at ten times the corpus).
   */
  searchTripletIdsByVector(vector: Float32Array, k: number): Promise<TripletVectorHit[]>;
  getSectionsByIds(ids: string[]): Promise<Array<{ section: Section; document: DocumentRecord }>>;
  /** Children (PART_OF) of the given sections, in document order. */
  getChildSectionIds(sectionIds: string[]): Promise<Map<string, string[]>>;
  /** Cross-references leaving or entering any of the sections. */
  getCrossReferences(sectionIds: string[]): Promise<CrossReferenceRecord[]>;
  /** Terms whose normalizedTerm is one of these (across all documents). */
  getTermsByNormalized(normalizedTerms: string[]): Promise<TermRecord[]>;
  getTripletsForSections(sectionIds: string[]): Promise<TripletRecord[]>;
  /**
   * Stored section vectors by section id, when they are in the embedding space `modelId` (else
   * none): what the re-scoring compares the question with. Optional: a store without vectors
   * leaves retrieval to embed the candidates itself.
   */
  sectionVectorsByIds?(sectionIds: string[], modelId: string): Promise<Map<string, Float32Array>>;
}
