import type { SourceFormat } from "../ingest/types.ts";
import type { OcrSummary } from "../ingest/ocr/ocr-types.ts";
import type { Section } from "../structure/types.ts";
import type { RetrievalStore } from "../retrieve/retrieval-store.ts";
import type { CrossReferenceRecord, DerivedGraph, EntityRecord, ScoredId, TermRecord, TripletRecord } from "./graph-types.ts";
import type { ComparisonCacheEntry, ComparisonRecord, ComparisonWrite, SimilarToRecord, VectorQuery, VerdictUpdate } from "./comparison-records.ts";

// The engine talks to the database only through this interface. Kuzu upstream is archived, so
// everything Kuzu-specific (Cypher, FTS calls, connection threading) stays behind it.

export interface DocumentRecord {
  /** First 16 hex chars of the file's SHA-256: stable and short enough to type in the CLI. */
  id: string;
  sha256: string;
  /** Absolute path the file was imported from. */
  file: string;
  /** Base name, for display and for `delete <file>`. */
  fileName: string;
  title: string;
  format: SourceFormat;
  language: string;
  pages: number;
  bytes: number;
  sections: number;
  /** ISO-8601 time of import. */
  importedAt: string;
  /** Names found for it in the instrument registry at import ("DORA", "Regulation (EU) 2022/2554"): core/names/. */
  aliases?: string[];
  /** Names the user gave it (clausegraph aliases, the library pane); carried over by a rebuild. */
  userAliases?: string[];
  /** Registry aliases the user removed; carried over by a rebuild. */
  hiddenAliases?: string[];
  /** Present when pages were read with OCR (core/ingest/ocr/): which, how surely, in which language. */
  ocr?: OcrSummary;
}

export interface SearchHit {
  section: Section;
  document: DocumentRecord;
  score: number;
}

export interface StoreStats {
  documents: number;
  sections: number;
  /** Citations found in section text, resolved or not. */
  crossReferences: number;
  /** Citations resolved to a section of an imported document. */
  resolvedCrossReferences: number;
  terms: number;
  /** Subject–predicate–object triplets (rule-based and, with a model, LLM-extracted). */
  triplets: number;
  entities: number;
  /** Sections that have a vector of the current embedding model. */
  embeddedSections: number;
  /** The embedding model the vectors belong to ("" when none). */
  embeddingModel: string;
}

/** One section an LLM triplet is stated in, with the span of its evidence there (a STATED_IN edge). */
export interface StatedInRecord {
  tripletId: string;
  sectionId: string;
  start: number;
  end: number;
}

/** A document's LLM triplets, replacing the previous ones (rule triplets are never touched). */
export interface LlmTripletWrite {
  /** Entities the triplets link; ones the document already has (e.g. from rule triplets) are reused. */
  entities: EntityRecord[];
  /** All with source "llm", ids starting with the document id. */
  triplets: TripletRecord[];
  /** Every section each triplet is stated in, its own section included. */
  statedIn: StatedInRecord[];
  /** Per triplet id; stored only when `embeddingModel` is the model of the database's vectors. */
  tripletEmbeddings: ReadonlyMap<string, Float32Array>;
  embeddingModel: string | null;
}

/** A cached per-section LLM extraction (see core/extract/llm/cache-key.ts). */
export interface ExtractionCacheEntry {
  key: string;
  modelId: string;
  promptVersion: string;
  json: string;
}

/** Which embedding model the stored vectors come from. */
export interface EmbeddingSpace {
  modelId: string;
  dimensions: number;
}

/**
 * A document the library holds only in part, found by the consistency check: "lost" when rows
 * derived from it (sections, citations, triplets, vectors …) exist without its Document row,
 * "incomplete" when it is listed but fewer sections are linked to it than it records.
 */
export interface DamagedDocument {
  documentId: string;
  problem: "lost" | "incomplete";
  /** The rows still stored under its id, per table. */
  rows: Record<string, number>;
  /** Sections it records and sections linked to it (incomplete ones only). */
  recordedSections?: number;
  linkedSections?: number;
}

export interface LibraryCheck {
  documents: number;
  damaged: DamagedDocument[];
}

/** A damaged document as the engine reports it: what it was, and whether it can be re-imported. */
export interface DamagedDocumentInfo extends DamagedDocument {
  /** Its name when imported, from the record kept beside its copy (null when none is left). */
  fileName: string | null;
  /** The path it was imported from. */
  originalFile: string | null;
  /** The kept copy a repair re-imports; null when there is none (a repair then only removes its rows). */
  sourceFile: string | null;
  /** What happened, in words. */
  message: string;
}

export interface LibraryHealth {
  documents: number;
  damaged: DamagedDocumentInfo[];
}

/** A value a read-only graph query returns: scalars, lists, maps, and nodes/relationships as maps (`_label`, `_id`, properties). */
export type GraphValue = null | boolean | number | bigint | string | Date | GraphValue[] | { [key: string]: GraphValue };
export type ReadOnlyRow = Record<string, GraphValue>;

/** The tables of the live database with their properties: what a graph query may name (core/graph-query/). */
export interface LiveGraphSchema {
  nodes: Array<{ name: string; properties: Array<{ name: string; type: string }> }>;
  relationships: Array<{ name: string; properties: Array<{ name: string; type: string }>; ends: Array<{ from: string; to: string }> }>;
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
  /** Replaces the user's alias edits of a document (core/names/document-names.ts). NOT_FOUND when it does not exist. */
  setUserAliases(id: string, edit: { userAliases: string[]; hiddenAliases: string[] }): Promise<DocumentRecord>;
  /** Removes the document and everything derived from it. False when it did not exist. */
  deleteDocument(id: string): Promise<boolean>;
  /** Documents the library lost in part (read-only queries; fast enough to run at every open). */
  checkLibrary(): Promise<LibraryCheck>;

  getSection(id: string): Promise<Section | null>;
  getSections(documentId: string): Promise<Section[]>;

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
  /** Per query, the k nearest sections of these documents through the HNSW index (store/vector-neighbours.ts). */
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
