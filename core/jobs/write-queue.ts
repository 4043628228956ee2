// Kuzu allows one write transaction at a time, so the engine's writes (imports, deletes, the
// background re-embedding, extraction batches) run one after another, in the order they were asked
// for, from any caller (UI, CLI in the web host). The queue also knows how much is waiting: an
// import rebuilds the search index only when nothing else waits behind it (engine.ts), and a file
// cancelled while it waits settles at once instead of after every file ahead of it.

export interface WriteQueue {
  /** Runs `work` after everything queued before it; a failure never blocks what follows. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Like run, but when `signal` aborts before `work` has started, settles at once with
   * `cancelled()`; `work` still gets its turn (it should then see the abort and do nothing). Once
   * started, `work` alone decides how a cancel ends it.
   */
  runUnlessCancelled<T>(signal: AbortSignal | undefined, work: () => Promise<T>, cancelled: () => T): Promise<T>;
  /** Tasks queued or running, the caller's own running task included. */
  readonly pending: number;
  /** Resolves once everything queued so far has finished. */
  drained(): Promise<void>;
}

export function createWriteQueue(): WriteQueue {
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;

  const run = <T>(work: () => Promise<T>): Promise<T> => {
    pending += 1;
    const next = tail.then(work, work).finally(() => {
      pending -= 1;
    });
    tail = next.catch(() => undefined);
    return next;
  };

  return {
    run,
    runUnlessCancelled(signal, work, cancelled) {
      if (signal === undefined) return run(work);
      let started = false;
      const queued = run(() => {
        started = true;
        return work();
      });
      if (signal.aborted) return queued;
      return new Promise((resolve, reject) => {
        const onAbort = (): void => {
          if (!started) resolve(cancelled());
        };
        signal.addEventListener("abort", onAbort, { once: true });
        queued.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
      });
    },
    get pending() {
      return pending;
    },
    async drained() {
      await tail;
    },
  };
}
