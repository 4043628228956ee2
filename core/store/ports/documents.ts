import type { DocumentOutline, Section } from "../../model/section-types.ts";
import type { DocumentRecord, LibraryCheck, StoreStats } from "../../model/store-records.ts";
import type { DerivedGraph } from "../../model/graph-records.ts";

// Documents and their sections.

/** What a library holds: documents, sections, outlines, its health and counts. */
export interface DocumentReads {
  schemaVersion(): Promise<number>;
  findDocumentBySha(sha256: string): Promise<DocumentRecord | null>;
  getDocument(id: string): Promise<DocumentRecord | null>;
  listDocuments(): Promise<DocumentRecord[]>;
  /** Documents the library lost in part (read-only queries; fast enough to run at every open). */
  checkLibrary(): Promise<LibraryCheck>;
  getSection(id: string): Promise<Section | null>;
  getSections(documentId: string): Promise<Section[]>;
  /**
   * Section labels and opening text of every document, or of these documents only: what an import
   * resolves citations against (the pipeline keeps those it read, documents being immutable).
   */
  getDocumentOutlines(documentIds?: readonly string[]): Promise<DocumentOutline[]>;
  stats(): Promise<StoreStats>;
}

/** Adding, renaming and removing documents. */
export interface DocumentWrites {
  /** All-or-nothing: on any failure no node or edge of this document (or of its graph) remains. */
  insertDocument(doc: DocumentRecord, sections: Section[], derived?: DerivedGraph): Promise<void>;
  /** Replaces the user's alias edits of a document (core/model/document-names.ts). NOT_FOUND when it does not exist. */
  setUserAliases(id: string, edit: { userAliases: string[]; hiddenAliases: string[] }): Promise<DocumentRecord>;
  /** Removes the document and everything derived from it. False when it did not exist. */
  deleteDocument(id: string): Promise<boolean>;
}
