import kuzu from "kuzu";
import type { Connection, Database, KuzuValue, PreparedStatement, QueryResult } from "kuzu";

// The only module that imports `kuzu` (lint: scripts/lint/layers.mjs PACKAGE_OWNERS). Kuzu 0.11.3
// is the final upstream release, so everything the store knows about the binding itself lives
// here: how a database is opened, that a connection runs one thread, that every result is closed.

export type { Connection, Database, KuzuValue, PreparedStatement, QueryResult };
export type Row = Record<string, KuzuValue>;
export type Params = Record<string, KuzuValue>;

export interface DatabaseOptions {
  /** Kuzu's buffer pool; its default (80 % of RAM) is too greedy for a desktop app. */
  bufferPoolBytes: number;
  readOnly: boolean;
  /** The most the database may grow to (a power of two): what Kuzu reserves of the address space for it. */
  maxBytes: number;
}

/**
 * Rule "reserve what a database can use, not Kuzu's 8 TiB": Kuzu 0.11.3 reserves its maximum
 * database size in virtual address space for every open database (8 TiB by default, twice over),
 * so a process could hold only 8 databases at once; the ninth failed with "Mmap for size
 * 8796093022208 failed". A bound far above any real library keeps the reservation small.
 */
export const LIBRARY_MAX_BYTES = 2 ** 40;

/**
 * A database handle (not yet initialised: call `init()`). Compression on, automatic checkpoints
 * off: the store checkpoints itself after each write, at points where every deletion is protected
 * by its anchors (rel-checkpoint-guard.ts), never in between.
 */
export function newDatabase(dbPath: string, options: DatabaseOptions): Database {
  return new kuzu.Database(dbPath, options.bufferPoolBytes, true, options.readOnly, options.maxBytes, false);
}

/**
 * A connection running each query on one thread. With Kuzu's default thread pool, repeated
 * full-text queries corrupted the heap (most runs of repeated QUERY_FTS_INDEX calls hung or
 * crashed; ../shared/STACK.md); at one thread every run, longer ones too, was clean. Every connection of
 * the store is made here.
 */
export async function openConnection(db: Database): Promise<Connection> {
  const conn = new kuzu.Connection(db, 1);
  await conn.init();
  return conn;
}

/**
 * All rows of a result, which is then closed: results left to the garbage collector made the
 * process segfault at exit (kuzu 0.11.3 on Node 20). `conn.query()` may return several results.
 */
export async function drain(result: QueryResult | QueryResult[]): Promise<Row[]> {
  const results = Array.isArray(result) ? result : [result];
  const rows: Row[] = [];
  try {
    // Row by row: spreading a result of 100,000+ rows into push() passes them all as arguments,
    // past V8's stack ("Maximum call stack size exceeded" reading a large library's vectors).
    for (const r of results) for (const row of await r.getAll()) rows.push(row);
  } finally {
    for (const r of results) r.close();
  }
  return rows;
}

/** A literal for the few statements Kuzu cannot parameterize; never pass user text here. */
export function cypherString(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}
