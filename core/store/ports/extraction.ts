import type { ExtractionCacheEntry, LlmTripletWrite } from "../../model/store-records.ts";

// The LLM triplet job's cache and its triplets.

/** Cached extractions. */
export interface ExtractionReads {
  /** Cached LLM extractions by key (absent keys are left out). */
  getExtractionCache(keys: string[]): Promise<Map<string, string>>;
}

/** Caching an extraction and replacing a document's LLM triplets. */
export interface ExtractionWrites {
  /** Stores (or overwrites) one cached extraction; durable when it returns. */
  putExtractionCache(entry: ExtractionCacheEntry): Promise<void>;
  /** Replaces the document's LLM triplets (and their vectors) in one transaction. NOT_FOUND when the document is gone. */
  replaceLlmTriplets(documentId: string, write: LlmTripletWrite): Promise<{ triplets: number; entities: number }>;
}
