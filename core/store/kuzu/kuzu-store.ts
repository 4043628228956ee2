import path from "node:path";
import type { GraphStore } from "../graph-store.ts";
import { DEFAULT_MIN_FREE_BYTES } from "../free-space.ts";
import { createStoreComparisons } from "./kuzu-store-comparisons.ts";
import { createStoreCore } from "./kuzu-store-core.ts";
import { createStoreDocuments } from "./kuzu-store-documents.ts";
import { createStoreLibrary } from "./kuzu-store-library.ts";
import { createStoreReads } from "./kuzu-store-reads.ts";
import { createStoreSearch } from "./kuzu-store-search.ts";
import { poolCeiling } from "./memory-plan.ts";
import type { BeforeMigrate, Migration } from "./migrations.ts";

// The Kuzu library behind GraphStore. The store decides who may use which connection when
// (lanes.ts), keeps what lives beside the database (the vectors' mirrors and space in
// library-vectors.ts, the search database's freshness) in step with the writes, and wraps every
// write in the store's rules: read-only libraries and full disks refuse before Kuzu starts,
// deletions anchor the surviving edges (rel-checkpoint-guard.ts), and a checkpoint follows each
// write. The statements themselves are in readers/ and writers/, the Kuzu workarounds each in a
// file of its own.
//
// Its parts share one StoreCore (kuzu-store-core.ts: the open library, the lanes, the write
// rules): opening, closing and the buffer pool (kuzu-store-library.ts), full-text search
// (kuzu-store-search.ts), reads (kuzu-store-reads.ts), and the writes of documents
// (kuzu-store-documents.ts) and of comparisons (kuzu-store-comparisons.ts).

/**
 * Vectors per table searched exactly from memory (vector-mirror.ts): a scan of this many rows stays
 * within a search's time and the engine's memory, and spares the HNSW index's upkeep on every import
 * (measured in docs/benchmarks/scale.md).
 */
export const EXACT_VECTOR_LIMIT = 250_000;

export interface KuzuStoreOptions {
  /** The database file (Kuzu 0.11 keeps one file plus `<file>.wal`); its folder is created. */
  dbPath: string;
  readOnly?: boolean;
  log?: (message: string) => void;
  /**
   * Called before an existing database is migrated to a newer schema. Default: the database files
   * are copied to `<dbPath>.backup-v<from>-<time>` (two newest kept) and put back if a migration
   * fails (MigrationFailedError, see migration-backup.ts).
   */
  beforeMigrate?: BeforeMigrate;
  /** Test hook: called between the steps of insertDocument; throwing there aborts the insert. */
  faultInjector?: (stage: string) => void;
  /**
   * Writes are refused (WRITE_FAILED) before they start when the database's disk has less than
   * this free (default 256 MB; 0 turns the check off). See free-space.ts.
   */
  minFreeBytes?: number;
  /** Sections per UNWIND statement. */
  batchSize?: number;
  /**
   * Kuzu's buffer pool for the library. Default: sized from the database file and the machine
   * (memory-plan.ts), at least what the library's memory record says a statement needed.
   */
  bufferPoolBytes?: number;
  /** The largest pool the library's database may use (default: memory-plan.ts poolCeiling). */
  poolCeilingBytes?: number;
  /** Tests: the file size below which the library is never compacted (default COMPACT_MIN_BYTES). */
  compactMinBytes?: number;
  /** Tests: the search segments' thresholds (search-database.ts). */
  searchSegments?: { targetSections?: number; foldSections?: number };
  /** Tests only: a different migration list. */
  migrations?: readonly Migration[];
  /**
   * Up to this many vectors a table is searched exactly, from a copy in memory (vector-mirror.ts),
   * instead of through its HNSW index (default EXACT_VECTOR_LIMIT). 0 always uses the index.
   */
  exactVectorLimit?: number;
}

export interface KuzuGraphStore extends GraphStore {
  readonly dbPath: string;
  /** True once open on a library that cannot be changed (read-only option or read-only disk). */
  isReadOnly(): boolean;
}

const DEFAULT_BATCH = 500;

export function createKuzuStore(options: KuzuStoreOptions): KuzuGraphStore {
  const core = createStoreCore({
    dbPath: path.resolve(options.dbPath),
    readOnlyOption: options.readOnly ?? false,
    minFree: Math.max(0, options.minFreeBytes ?? DEFAULT_MIN_FREE_BYTES),
    log: options.log ?? (() => {}),
    fault: options.faultInjector ?? (() => {}),
    batchSize: Math.max(1, options.batchSize ?? DEFAULT_BATCH),
    exactLimit: Math.max(0, options.exactVectorLimit ?? EXACT_VECTOR_LIMIT),
  });
  const ceilingBytes = options.poolCeilingBytes ?? poolCeiling();
  const search = createStoreSearch(core, options);
  const library = createStoreLibrary(core, search, options, ceilingBytes);
  const store: KuzuGraphStore = {
    dbPath: core.dbPath,
    isReadOnly: () => core.state?.readOnly ?? core.readOnlyOption,
    ...library.methods,
    ...search.methods,
    ...createStoreReads(core),
    ...createStoreComparisons(core),
    ...createStoreDocuments(core, search, library),
  };
  return store;
}
