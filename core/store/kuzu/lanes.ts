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
// document's insert). `exclusive` (open, close) waits for both lanes.
//
// Nesting rules, which keep the lanes free of deadlocks: `quiesce` is called only from inside
// `write`; a read never waits for the write lane while holding the read lane.

export interface Lanes {
  read<T>(work: () => Promise<T>): Promise<T>;
  write<T>(work: () => Promise<T>): Promise<T>;
  /** From inside `write` only: holds reads back while `work` runs. */
  quiesce<T>(work: () => Promise<T>): Promise<T>;
  exclusive<T>(work: () => Promise<T>): Promise<T>;
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

export function createLanes(): Lanes {
  const reads = new Queue();
  const writes = new Queue();
  return {
    read: (work) => reads.run(work),
    write: (work) => writes.run(work),
    quiesce: (work) => reads.run(work),
    exclusive: (work) => writes.run(() => reads.run(work)),
    get writing() {
      return writes.pending > 0;
    },
  };
}
