import type { SourceFormat } from "./ingest-types.ts";
import type { OcrSummary } from "./ocr-types.ts";
import type { Section } from "./section-types.ts";
import type { EntityRecord, TripletRecord } from "./graph-records.ts";

// What the store keeps and reports about documents, searches and the library's health: the
// records the engine, the contract and the renderer share (the GraphStore interface that reads
// and writes them is core/store/graph-store.ts).

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

/** A cached per-section LLM extraction (see core/llm-extract/cache-key.ts). */
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
