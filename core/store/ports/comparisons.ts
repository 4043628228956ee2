import type { ComparisonCacheEntry, ComparisonRecord, ComparisonWrite, SimilarToRecord, VerdictUpdate } from "../../model/comparison-records.ts";

// Crosswalks between documents.

/** Stored comparisons, their edges and the verdict cache. */
export interface ComparisonReads {
  getComparison(id: string): Promise<ComparisonRecord | null>;
  /** Newest first. */
  listComparisons(): Promise<ComparisonRecord[]>;
  /** Its SIMILAR_TO edges, by A section then rank ([] when it does not exist). */
  getComparisonEdges(id: string): Promise<SimilarToRecord[]>;
  getComparisonCache(keys: string[]): Promise<Map<string, string>>;
}

/** Running, storing and removing comparisons. */
export interface ComparisonWrites {
  /** Creates the comparison node (status "computing"), or marks an existing one so; NOT_FOUND when a document is gone. */
  startComparison(comparison: ComparisonRecord): Promise<void>;
  /** Replaces the edges of some A sections and records the comparison's state, in one transaction. */
  writeComparison(write: ComparisonWrite): Promise<{ deleted: number; created: number }>;
  /** Sets model verdicts on existing edges and records the comparison's state. */
  setComparisonVerdicts(comparison: ComparisonRecord, verdicts: VerdictUpdate[]): Promise<number>;
  /** Removes a comparison and its edges. False when it did not exist. */
  deleteComparison(id: string): Promise<boolean>;
  /** Durable when it returns. */
  putComparisonCache(entry: ComparisonCacheEntry): Promise<void>;
}
