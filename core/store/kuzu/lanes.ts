// Who may use the library's connections when (the store's write queue and read lane).
//
// Kuzu runs one transaction per connection and one write transaction per database, and keeps
// readers on other connections at the last committed state while a write runs (MVCC). So the
// store has two connections: the writer's, which every write takes in turn (`write`: imports,
// deletes, vectors, comparisons; one after another, in the order asked), and the readers', which
// searches and lookups take in turn (`read`). A search therefore never waits for an import to
// finish storing: before this split both shared one connection, and searches during an import
// waited for it (for seconds while the two largest PDFs were imported again; bench:ingest).
//
// Some statements need the database to themselves: a CHECKPOINT, and DDL that checkpoints inside
// (CREATE_VECTOR_INDEX, DROP TABLE …). Kuzu 0.11.3 waits for every active transaction to leave
// before it checkpoints and gives up after ~6 s ("Timeout waiting for active transactions to leave
// the system before checkpointing"): with searches arriving back to back it timed out, and every
// search that arrived meanwhile waited out that timeout too (measured with reads back to back). A
// writer therefore runs such statements inside `quiesce`, which waits for the read in flight (a
// short one) and holds new reads back only for the checkpoint's own time (short after a
// document's insert). `exclusive` (open) waits for both lanes.
//
// Full-text searches run on the search segments in memory, beside every lane, many at once
// (`search`). Replacing the open library (a compaction, a larger pool) closes those segments, so a
// swap (`swap`) holds new searches back and waits for those in flight, as `quiesce` does for reads;
// a search arriving meanwhile then runs on the library swapped in instead of failing.
//
// Nesting rules, which keep the lanes free of deadlocks: `quiesce` and `swap` are called only from
// inside `write`, never inside `exclusive` or another read; a read or a search never waits for the
// write lane while holding its own lane.

export interface Lanes {
  read<T>(work: () => Promise<T>): Promise<T>;
  write<T>(work: () => Promise<T>): Promise<T>;
  /** From inside `write` only: holds reads back while `work` runs. */
  quiesce<T>(work: () => Promise<T>): Promise<T>;
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Full-text searches: many at once, none while a swap runs. */
  search<T>(work: () => Promise<T>): Promise<T>;
  /** From inside `write` only: holds reads and searches back and waits for searches in flight (close, reopen). */
  swap<T>(work: () => Promise<T>): Promise<T>;
  /** True while a write runs or waits. */
  readonly writing: boolean;
}

/** A FIFO mutex: each task starts after the previous one settled; a failure never blocks the next. */
class Queue {
  private tail: Promise<unknown> = Promise.resolve();
  pending = 0;

  run<T>(work: () => Promise<T>): Promise<T> {
    this.pending++;
    const next = this.tail.then(work, work).finally(() => {
      this.pending--;
    });
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/** Shared work runs at once, many together; an exclusive task waits for it and holds new shared work back. */
class SharedGate {
  private running = 0;
  private held: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  async shared<T>(work: () => Promise<T>): Promise<T> {
    while (this.held !== null) await this.held;
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      if (this.running === 0) this.drained?.();
    }
  }

  /** Callers are serialised by the write queue, so one exclusive task runs at a time. */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    let release = (): void => undefined;
    this.held = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      if (this.running > 0)
        await new Promise<void>((resolve) => {
          this.drained = resolve;
        });
      this.drained = null;
      return await work();
    } finally {
      this.held = null;
      release();
    }
  }
}

export function createLanes(): Lanes {
  const reads = new Queue();
  const writes = new Queue();
  const searches = new SharedGate();
  return {
    read: (work) => reads.run(work),
    write: (work) => writes.run(work),
    quiesce: (work) => reads.run(work),
    exclusive: (work) => writes.run(() => reads.run(work)),
    search: (work) => searches.shared(work),
    swap: (work) => reads.run(() => searches.exclusive(work)),
    get writing() {
      return writes.pending > 0;
    },
  };
}
