import type { LiveGraphSchema, ReadOnlyRow } from "../../model/store-records.ts";
import type { CrossDocumentRows, CrossReferenceRecord, TermRecord, TripletRecord } from "../../model/graph-records.ts";

// The facts drawn from documents: citations, terms, triplets, and the graph questions' queries.

/** Citations, terms, triplets; the live schema and the gate's read-only queries. */
export interface GraphReads {
  /** Citations leaving or entering any of the sections (resolved or not). */
  getCrossReferences(sectionIds: string[]): Promise<CrossReferenceRecord[]>;
  /** The citations a document makes, in order (citing section, span, id). */
  getDocumentReferences(documentId: string): Promise<CrossReferenceRecord[]>;
  /** Ids of the citations resolved into any of these sections, with the citing document: no citation row is read. */
  getReferenceIdsInto(sectionIds: string[]): Promise<Array<{ id: string; documentId: string }>>;
  /** Terms whose normalized form is one of these, across all documents, with where they are used. */
  getTermsByNormalized(normalizedTerms: string[]): Promise<TermRecord[]>;
  getTripletsByIds(ids: string[]): Promise<TripletRecord[]>;
  getTriplets(documentId: string): Promise<TripletRecord[]>;
  /** Triplets whose subject or object has one of these canonical keys, in any document (at most `limit`). */
  getTripletsForEntityKeys(keys: string[], limit: number): Promise<TripletRecord[]>;
  getTermsByIds(ids: string[]): Promise<TermRecord[]>;
  /**
   * Every resolved citation and every term with where it is used, in a few statements; null when
   * they are more than `maxRows` rows together.
   */
  getCrossDocumentRows(maxRows: number): Promise<CrossDocumentRows | null>;
  /** The catalog's node and relationship tables and their properties. */
  graphSchema(): Promise<LiveGraphSchema>;
  /**
   * One statement the graph-query gate accepted, on a connection of its own inside a read-only
   * transaction, stopped after `timeoutMs` (DB_ERROR); a write is refused (FORBIDDEN).
   */
  readOnlyQuery(cypher: string, params: Record<string, string | number | boolean | string[]>, options: { timeoutMs: number }): Promise<ReadOnlyRow[]>;
}
