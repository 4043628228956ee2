// Opening, closing, batching writes and building the search index: neither reads nor writes rows.

/** The full-text index's segments (store/search/search-database.ts). */
export interface SearchIndexShape {
  segments: number;
  sections: number;
  /** What their indexes take in memory. */
  bytes: number;
}

/** What the store holds in memory beside its rows (bench:soak watches that it stays flat). */
export interface StoreMemory {
  /** Rows of the vector tables' in-memory mirrors (a table too large for one has none). */
  vectorMirrorRows: number;
  searchSegments: number;
  /** What the full-text segments' indexes take in memory. */
  searchIndexBytes: number;
  /** The library's buffer pool, which Kuzu may fill. */
  poolBytes: number;
}

export interface StoreLifecycle {
  /** Opens (creating or migrating as needed). Throws DB_LOCKED when another process writes to it. */
  open(): Promise<void>;
  close(): Promise<void>;
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
  memoryUse(): StoreMemory;
  /**
   * Between writes: when the library's file has grown far past its live rows (deletes and
   * re-imports), writes them into a fresh file that replaces it. Rows are unchanged. The file's
   * sizes before and after when it compacted, else null.
   */
  compactIfGrown(): Promise<{ beforeBytes: number; afterBytes: number } | null>;
  /**
   * Reads into memory, in the background, what searches otherwise read at their first need (the
   * warm-up at open): never a reason to fail. `stop` is asked between steps (the engine closing).
   */
  warmReads(stop: () => boolean): Promise<void>;
  /**
   * Begins reading what every search needs before its first result (the embedding space, the
   * vector mirrors, the citations and terms across documents), each once; resolves when they are
   * held. A first question starts this before it analyses its words, so the reads go on beside
   * that work. Never a reason to fail.
   */
  prepareSearch(): Promise<void>;
}
