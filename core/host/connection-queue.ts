// Requests of one WebSocket connection, kept from crowding out the others': at most MAX_IN_FLIGHT
// run at once, up to MAX_QUEUED more wait their turn in order, and beyond that a request is
// answered BUSY at once. One client that sent 2,000 searches and 200 asks in one go made another
// client's search wait 12.5 s; with the cap the other waits behind a few requests at most.
// Control requests (cancelling a job) never wait: a cancel stuck behind what it cancels is useless.

/** Requests of one connection run at once. */
export const MAX_IN_FLIGHT = 4;
/** Requests of one connection waiting for their turn before further ones are refused BUSY. */
export const MAX_QUEUED = 256;

export interface ConnectionQueue {
  /** Runs `work` now, later in turn, or not at all (returns false: refuse it). */
  submit(work: () => Promise<void>, control: boolean): boolean;
  readonly inFlight: number;
  readonly queued: number;
}

export function createConnectionQueue(maxInFlight = MAX_IN_FLIGHT, maxQueued = MAX_QUEUED): ConnectionQueue {
  let inFlight = 0;
  const waiting: Array<() => Promise<void>> = [];

  const run = (work: () => Promise<void>): void => {
    inFlight += 1;
    void work()
      .catch(() => undefined)
      .finally(() => {
        inFlight -= 1;
        const next = waiting.shift();
        if (next !== undefined) run(next);
      });
  };

  return {
    submit(work, control) {
      if (control) {
        void work().catch(() => undefined);
        return true;
      }
      if (inFlight < maxInFlight) {
        run(work);
        return true;
      }
      if (waiting.length >= maxQueued) return false;
      waiting.push(work);
      return true;
    },
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return waiting.length;
    },
  };
}
