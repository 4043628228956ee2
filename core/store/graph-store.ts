import type { DocumentOutline, Section } from "../model/section-types.ts";
import type {
  DocumentRecord,
  EmbeddingSpace,
  ExtractionCacheEntry,
  LibraryCheck,
  LiveGraphSchema,
  LlmTripletWrite,
  ReadOnlyRow,
  SearchHit,
  StoreStats,
} from "../model/store-records.ts";
import type { RetrievalStore } from "./retrieval-store.ts";
import type { CrossReferenceRecord, DerivedGraph, ScoredId, TermRecord, TripletRecord } from "../model/graph-records.ts";
import type { ComparisonCacheEntry, ComparisonRecord, ComparisonWrite, SimilarToRecord, VectorQuery, VerdictUpdate } from "../model/comparison-records.ts";

// The engine talks to the database only through this interface. Kuzu upstream is archived, so
// everything Kuzu-specific (Cypher, FTS calls, connection threading) stays behind it.

/** The full-text index's segments (store/kuzu/search-database.ts). */
export interface SearchIndexShape {
  segments: number;
  sections: number;
  /** Buffer pools the open segments may fill. */
  poolBytes: number;
}

export interface GraphStore extends RetrievalStore {
  /** Opens (creating or migrating as needed). Throws DB_LOCKED when another process writes to it. */
  open(): Promise<void>;
  close(): Promise<void>;
  schemaVersion(): Promise<number>;

  findDocumentBySha(sha256: string): Promise<DocumentRecord | null>;
  getDocument(id: string): Promise<DocumentRecord | null>;
  listDocuments(): Promise<DocumentRecord[]>;
  /** All-or-nothing: on any failure no node or edge of this document (or of its graph) remains. */
  insertDocument(doc: DocumentRecord, sections: Section[], derived?: DerivedGraph): Promise<void>;
  /** Replaces the user's alias edits of a document (core/model/document-names.ts). NOT_FOUND when it does not exist. */
  setUserAliases(id: string, edit: { userAliases: string[]; hiddenAliases: string[] }): Promise<DocumentRecord>;
  /** Removes the document and everything derived from it. False when it did not exist. */
  deleteDocument(id: string): Promise<boolean>;
  /** Documents the library lost in part (read-only queries; fast enough to run at every open). */
  checkLibrary(): Promise<LibraryCheck>;

  getSection(id: string): Promise<Section | null>;
  getSections(documentId: string): Promise<Section[]>;
  /**
   * Section labels and opening text of every document, or of these documents only: what an import
   * resolves citations against (the pipeline keeps those it read, documents being immutable).
   */
  getDocumentOutlines(documentIds?: readonly string[]): Promise<DocumentOutline[]>;

  /** Citations leaving or entering any of the sections (resolved or not). */
  getCrossReferences(sectionIds: string[]): Promise<CrossReferenceRecord[]>;
  /** Terms whose normalized form is one of these, across all documents, with where they are used. */
  getTermsByNormalized(normalizedTerms: string[]): Promise<TermRecord[]>;

  /** BM25 over section label, heading and text. Any user text is safe here. */
  searchSections(query: string, k: number): Promise<SearchHit[]>;
  /**
   * The same ranking as ids and scores only: materialising 150 sections (text and spans) inside
   * the query took ~15 of its ~23 ms (p50, ten corpus PDFs); the read cache fills them from memory.
   */
  searchSectionIds(query: string, k: number): Promise<ScoredId[]>;
  /** The triplet vector search as ids and scores only (the read cache fills the triplets from memory). */
  searchTripletIdsByVector(vector: Float32Array, k: number): Promise<ScoredId[]>;
  getTripletsByIds(ids: string[]): Promise<TripletRecord[]>;
  /** Stored section vectors by section id in the embedding space `modelId` (none in another): unit length. */
  sectionVectorsByIds(sectionIds: string[], modelId: string): Promise<Map<string, Float32Array>>;
  stats(): Promise<StoreStats>;

  getTriplets(documentId: string): Promise<TripletRecord[]>;
  /** Triplets whose subject or object has one of these canonical keys, in any document (at most `limit`). */
  getTripletsForEntityKeys(keys: string[], limit: number): Promise<TripletRecord[]>;
  getTermsByIds(ids: string[]): Promise<TermRecord[]>;
  /** The model of the stored vectors; null before anything was embedded. */
  embeddingSpace(): Promise<EmbeddingSpace | null>;
  /**
   * Makes the database hold vectors of this model. With a different model already recorded, its
   * vectors are dropped (`changed: true`): the caller re-embeds with putEmbeddings.
   */
  useEmbeddingSpace(space: EmbeddingSpace): Promise<{ changed: boolean }>;
  /** Ids of documents that have sections without a vector (after a model change or an interrupted re-embed). */
  documentsMissingEmbeddings(): Promise<string[]>;
  /** Adds vectors for a stored document's sections and triplets, all or nothing; existing rows are kept. */
  putEmbeddings(documentId: string, sections: ReadonlyMap<string, Float32Array>, triplets: ReadonlyMap<string, Float32Array>): Promise<void>;
  /** Builds any missing search index now (BM25 and vectors) so the next query does not wait. */
  refreshSearchIndex(): Promise<void>;
  /**
   * Waits until no merge of full-text segments is under way or wanted (they run in the background
   * after imports into a large library), and says what the index is made of. Benches and tests.
   */
  searchIndexSettled(): Promise<SearchIndexShape>;
  /**
   * Runs the caller's own write task (an import reads and parses a file before it stores it) as part
   * of a batch: until it ends, a search that finds the full-text index stale is answered by the last
   * index built instead of waiting for a rebuild; the caller rebuilds it once the batch is done
   * (refreshSearchIndex). Without it, a search after a write rebuilds the index first.
   */
  batchWrites<T>(work: () => Promise<T>): Promise<T>;

  /** Cached LLM extractions by key (absent keys are left out). */
  getExtractionCache(keys: string[]): Promise<Map<string, string>>;
  /** Stores (or overwrites) one cached extraction; durable when it returns. */
  putExtractionCache(entry: ExtractionCacheEntry): Promise<void>;
  /** Replaces the document's LLM triplets (and their vectors) in one transaction. NOT_FOUND when the document is gone. */
  replaceLlmTriplets(documentId: string, write: LlmTripletWrite): Promise<{ triplets: number; entities: number }>;

  // Graph questions (schema v8, core/graph-query/).
  /** The catalog's node and relationship tables and their properties. */
  graphSchema(): Promise<LiveGraphSchema>;
  /**
   * One statement the graph-query gate accepted, on a connection of its own inside a read-only
   * transaction, stopped after `timeoutMs` (DB_ERROR); a write is refused (FORBIDDEN).
   */
  readOnlyQuery(cypher: string, params: Record<string, string | number | boolean | string[]>, options: { timeoutMs: number }): Promise<ReadOnlyRow[]>;

  // Comparisons (schema v7, core/compare/).
  /** Stored section vectors of these documents, by section id. */
  getSectionVectors(documentIds: string[]): Promise<Map<string, Float32Array>>;
  /** Per query, the k nearest sections of these documents through the HNSW index (store/kuzu/vector-neighbours.ts). */
  nearestSections(queries: VectorQuery[], k: number, documentIds: string[]): Promise<Map<string, ScoredId[]>>;
  getComparison(id: string): Promise<ComparisonRecord | null>;
  /** Newest first. */
  listComparisons(): Promise<ComparisonRecord[]>;
  /** Its SIMILAR_TO edges, by A section then rank ([] when it does not exist). */
  getComparisonEdges(id: string): Promise<SimilarToRecord[]>;
  /** Creates the comparison node (status "computing"), or marks an existing one so; NOT_FOUND when a document is gone. */
  startComparison(comparison: ComparisonRecord): Promise<void>;
  /** Replaces the edges of some A sections and records the comparison's state, in one transaction. */
  writeComparison(write: ComparisonWrite): Promise<{ deleted: number; created: number }>;
  /** Sets model verdicts on existing edges and records the comparison's state. */
  setComparisonVerdicts(comparison: ComparisonRecord, verdicts: VerdictUpdate[]): Promise<number>;
  /** Removes a comparison and its edges. False when it did not exist. */
  deleteComparison(id: string): Promise<boolean>;
  getComparisonCache(keys: string[]): Promise<Map<string, string>>;
  /** Durable when it returns. */
  putComparisonCache(entry: ComparisonCacheEntry): Promise<void>;
}
