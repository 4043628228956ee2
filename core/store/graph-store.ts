import type { SourceFormat } from "../ingest/types.ts";
import type { Section } from "../structure/types.ts";

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
}

export interface GraphStore {
  /** Opens (creating or migrating as needed). Throws DB_LOCKED when another process writes to it. */
  open(): Promise<void>;
  close(): Promise<void>;
  schemaVersion(): Promise<number>;

  findDocumentBySha(sha256: string): Promise<DocumentRecord | null>;
  getDocument(id: string): Promise<DocumentRecord | null>;
  listDocuments(): Promise<DocumentRecord[]>;
  /** All-or-nothing: on any failure no node or edge of this document remains. */
  insertDocument(doc: DocumentRecord, sections: Section[]): Promise<void>;
  /** Removes the document and everything derived from it. False when it did not exist. */
  deleteDocument(id: string): Promise<boolean>;

  getSection(id: string): Promise<Section | null>;
  getSections(documentId: string): Promise<Section[]>;

  /** BM25 over section label, heading and text. Any user text is safe here. */
  searchSections(query: string, k: number): Promise<SearchHit[]>;
  stats(): Promise<StoreStats>;
}
