// How many uploads the web host handles at once. Each one is streamed to disk and imported; the
// engine imports one file at a time anyway, so more slots would only add temporary files (up to
// 100 MiB each) waiting on disk. Requests beyond the slots wait, unread: their bytes stay in the
// client and the kernel's socket buffers, not in the host's memory. Beyond the queue they are
// refused (BUSY) rather than kept open without bound.

export interface UploadGate {
  /**
   * Resolves with the function that frees the slot once one is free, or with null when the queue is
   * full or `signal` aborted (the client went away) while waiting.
   */
  enter(signal: AbortSignal): Promise<(() => void) | null>;
  readonly active: number;
  readonly queued: number;
}

export function createUploadGate(maxActive: number, maxQueued: number): UploadGate {
  let active = 0;
  const waiting: (() => void)[] = [];

  const release = (): void => {
    active -= 1;
    const next = waiting.shift();
    if (next !== undefined) next();
  };

  /** A slot's release function that frees it once, however often it is called. */
  const take = (): (() => void) => {
    active += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };

  return {
    enter(signal) {
      if (signal.aborted) return Promise.resolve(null);
      if (active < maxActive) return Promise.resolve(take());
      if (waiting.length >= maxQueued) return Promise.resolve(null);
      return new Promise((resolve) => {
        const wake = (): void => {
          signal.removeEventListener("abort", onAbort);
          resolve(take());
        };
        const onAbort = (): void => {
          const index = waiting.indexOf(wake);
          if (index >= 0) waiting.splice(index, 1);
          resolve(null);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.push(wake);
      });
    },
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
  };
}
