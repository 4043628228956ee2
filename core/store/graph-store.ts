import type { SourceFormat } from "../ingest/types.ts";
import type { Section } from "../structure/types.ts";
import type { CrossReferenceRecord, DerivedGraph, TermRecord } from "./graph-types.ts";

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
}

export interface GraphStore {
  /** Opens (creating or migrating as needed). Throws DB_LOCKED when another process writes to it. */
  open(): Promise<void>;
  close(): Promise<void>;
  schemaVersion(): Promise<number>;

  findDocumentBySha(sha256: string): Promise<DocumentRecord | null>;
  getDocument(id: string): Promise<DocumentRecord | null>;
  listDocuments(): Promise<DocumentRecord[]>;
  /** All-or-nothing: on any failure no node or edge of this document (or of its graph) remains. */
  insertDocument(doc: DocumentRecord, sections: Section[], derived?: DerivedGraph): Promise<void>;
  /** Removes the document and everything derived from it. False when it did not exist. */
  deleteDocument(id: string): Promise<boolean>;

  getSection(id: string): Promise<Section | null>;
  getSections(documentId: string): Promise<Section[]>;

  /** Citations leaving or entering any of the sections (resolved or not). */
  getCrossReferences(sectionIds: string[]): Promise<CrossReferenceRecord[]>;
  /** Terms whose normalized form is one of these, across all documents, with where they are used. */
  getTermsByNormalized(normalizedTerms: string[]): Promise<TermRecord[]>;

  /** BM25 over section label, heading and text. Any user text is safe here. */
  searchSections(query: string, k: number): Promise<SearchHit[]>;
  stats(): Promise<StoreStats>;
}
