// Imports are read ahead of their turn to store. Reading a PDF happens in the parsing
// child, a process of its own, while deriving the graph, embedding and storing happen in the
// engine and Kuzu: one after the other they left a core idle. Measured on the ten corpus PDFs
// (2-core machine, bench:ingest), reading and graph + vectors + storing take comparable time, so
// one file at a time wastes much of it. Here the next file is read while the one before it is stored.
//
// Reads run one at a time, in the order they were asked for (the order the write queue stores
// them in), and a read starts only while fewer than `capacity` documents are held: a document is
// held from the start of its read until its store says release(). With a capacity of 2, one file
// is stored while the next is read, and memory holds at most two parsed documents, never a batch.

export interface ReadTicket<T> {
  /** The read's outcome, once it has had its turn. */
  readonly result: Promise<T>;
  /** The document is stored or dropped: its place goes to the next read. Idempotent. */
  release(): void;
}

export interface ReadAhead {
  /** Queues `read` behind the reads asked for before it; it starts once a place is free. */
  schedule<T>(read: () => Promise<T>): ReadTicket<T>;
  /** Documents read or being read and not yet released. */
  readonly held: number;
}

export function createReadAhead(capacity: number): ReadAhead {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`read-ahead capacity must be a positive integer, got ${capacity}`);
  let tail: Promise<unknown> = Promise.resolve();
  let held = 0;
  const waiting: Array<() => void> = [];

  const acquire = (): Promise<void> => {
    if (held < capacity) {
      held += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      waiting.push(() => {
        held += 1;
        resolve();
      }),
    );
  };
  const releaseOne = (): void => {
    held -= 1;
    waiting.shift()?.();
  };

  return {
    schedule<T>(read: () => Promise<T>): ReadTicket<T> {
      let readSettled = false;
      let releaseAsked = false;
      const result = tail.then(async () => {
        await acquire();
        try {
          return await read();
        } finally {
          readSettled = true;
          // Released before its read had even settled (the store gave up waiting): the place frees now.
          if (releaseAsked) releaseOne();
        }
      });
      // The next read waits for this one to settle, not for its store: that is the read-ahead.
      tail = result.catch(() => undefined);
      return {
        result,
        release() {
          if (releaseAsked) return;
          releaseAsked = true;
          if (readSettled) releaseOne();
        },
      };
    },
    get held() {
      return held;
    },
  };
}
