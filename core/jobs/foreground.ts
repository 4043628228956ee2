// Searches and questions go before background work on the engine's thread. An import
// derives its graph on that thread in ~10 ms slices (core/graph/graph-steps.ts) and tokenises its
// texts for the embedder in batches of 16 (core/embed/embed-derived.ts). Yielding with a bare
// setImmediate still gave a search a turn only between slices: a search makes dozens of awaits,
// and a slice ran after each one. A search during the derivation of GDPR's graph took many times
// its usual time (bench:ingest, re-import under searches). Now a slice (or batch)
// waits while a search or question is under way. After MAX_WAIT_MS it runs anyway, so a stream of
// overlapping requests slows an import but never stops it.

/** The longest a slice of background work waits for the foreground, ms. */
const MAX_WAIT_MS = 250;

export interface Foreground {
  /** Runs an interactive request (search, the retrieval of a question); background work yields to it. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** For background work between two slices: one turn of the event loop, then the foreground's end (or MAX_WAIT_MS). */
  yieldTo(): Promise<void>;
  /** Interactive requests under way. */
  readonly active: number;
}

export function createForeground(maxWaitMs = MAX_WAIT_MS): Foreground {
  let active = 0;
  let waiting: Array<() => void> = [];

  const wake = (): void => {
    const woken = waiting;
    waiting = [];
    for (const resolve of woken) resolve();
  };

  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      active += 1;
      try {
        return await work();
      } finally {
        active -= 1;
        if (active === 0) wake();
      }
    },
    async yieldTo(): Promise<void> {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (active === 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, maxWaitMs);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    get active() {
      return active;
    },
  };
}
