import type { ErrorInfo } from "./errors.ts";
import type { ProgressListener } from "./jobs/job.ts";
import type { DocumentRecord, StoreStats } from "./store/graph-store.ts";
import type { Section } from "./structure/types.ts";

// The engine's public surface: what the CLI, the tests, the web host and the Electron utility
// process call. Everything here is plain data so it can cross a process boundary unchanged.

export interface ImportOptions {
  password?: string;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

export interface ImportResult {
  file: string;
  documentId: string | null;
  sha256: string | null;
  title: string | null;
  pages: number;
  sections: number;
  status: "ok" | "skipped" | "error";
  /** Why it was skipped ("already imported as …") or non-fatal observations. */
  warnings: string[];
  error?: ErrorInfo;
}

export interface SearchOptions {
  k?: number;
}

export interface SearchResult {
  sectionId: string;
  documentId: string;
  file: string;
  label: string;
  heading: string;
  path: string[];
  pageStart: number;
  pageEnd: number;
  score: number;
  /** A snippet of the section text around the query terms. */
  text: string;
}

export interface DeleteResult {
  deleted: boolean;
  documentId: string | null;
  file: string | null;
}

export type EngineStats = StoreStats;

export interface Engine {
  readonly dataDir: string;
  importFiles(files: string[], options?: ImportOptions): Promise<ImportResult[]>;
  search(query: string, options?: SearchOptions): Promise<SearchResult[]>;
  listDocuments(): Promise<DocumentRecord[]>;
  getSection(id: string): Promise<Section | null>;
  getSections(documentId: string): Promise<Section[]>;
  /** By document id, or by the file path / file name it was imported from. */
  deleteDocument(idOrFile: string): Promise<DeleteResult>;
  stats(): Promise<EngineStats>;
  close(): Promise<void>;
}
