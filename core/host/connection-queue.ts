// Requests of the web host's connections, shared fairly. Each connection runs at most
// MAX_IN_FLIGHT requests at once, up to MAX_QUEUED more wait their turn in order, and beyond that a
// request is answered BUSY at once. Interactive requests (a search, a question, a graph) of all
// connections share ENGINE_SLOTS turns on the engine, handed out connection by connection: a
// client that sent 2,000 searches and 200 asks in one go holds at most the slots it is running,
// and another client's search runs next, not after the flood's queue nor beside four of its
// requests. Long work (an import, a repair, a comparison) has queues of its own in the engine and
// takes no slot. Control requests (cancelling a job) never wait: a cancel stuck behind what it
// cancels is useless.

/** Requests of one connection run at once. */
export const MAX_IN_FLIGHT = 4;
/** Requests of one connection waiting for their turn before further ones are refused BUSY. */
export const MAX_QUEUED = 256;
/**
 * Interactive requests of all connections run on the engine at once: one. The engine's work runs
 * on one JavaScript thread, so two at once only interleave, and a client's search that came while
 * two others ran waited for both (figures: docs/crash-safety.md).
 */
export const ENGINE_SLOTS = 1;

/** How a request is run: on a shared slot, beside them (long work with its own engine queue), or at once (control). */
export type RequestKind = "interactive" | "long" | "control";

export interface ConnectionQueue {
  /** Runs `work` now, later in turn, or not at all (returns false: refuse it). */
  submit(work: () => Promise<void>, kind: RequestKind): boolean;
  readonly inFlight: number;
  readonly queued: number;
  /** The connection closed: what still waits is dropped. */
  close(): void;
}

export interface RequestScheduler {
  /** The queue of a new connection. */
  connection(): ConnectionQueue;
  /** Interactive requests running now. */
  readonly running: number;
}

interface Waiting {
  work: () => Promise<void>;
  interactive: boolean;
}

interface Lane {
  inFlight: number;
  waiting: Waiting[];
  closed: boolean;
}

export function createRequestScheduler(options: { slots?: number; maxInFlight?: number; maxQueued?: number } = {}): RequestScheduler {
  const slots = options.slots ?? ENGINE_SLOTS;
  const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
  const maxQueued = options.maxQueued ?? MAX_QUEUED;
  /** Connections in the order they get their next turn: served ones go to the back. */
  const lanes: Lane[] = [];
  let running = 0;

  const canStart = (lane: Lane, w: Waiting): boolean => lane.inFlight < maxInFlight && (!w.interactive || running < slots);

  /** Runs `w` now; its connection goes to the back of the round. */
  const start = (lane: Lane, w: Waiting): void => {
    const at = lanes.indexOf(lane);
    if (at >= 0) lanes.push(...lanes.splice(at, 1));
    lane.inFlight += 1;
    if (w.interactive) running += 1;
    void w
      .work()
      .catch(() => undefined)
      .finally(() => {
        lane.inFlight -= 1;
        if (w.interactive) running -= 1;
        pump();
      });
  };

  /** Starts what may start, one request per connection per round, round-robin. */
  const pump = (): void => {
    let progressed = true;
    while (progressed) {
      progressed = false;
      for (const lane of [...lanes]) {
        const next = lane.waiting[0];
        if (next === undefined || !canStart(lane, next)) continue;
        lane.waiting.shift();
        start(lane, next);
        progressed = true;
      }
    }
  };

  return {
    connection(): ConnectionQueue {
      const lane: Lane = { inFlight: 0, waiting: [], closed: false };
      lanes.push(lane);
      return {
        submit(work, kind) {
          if (kind === "control") {
            void work().catch(() => undefined);
            return true;
          }
          if (lane.closed) return false;
          const w: Waiting = { work, interactive: kind === "interactive" };
          // In order within the connection: nothing overtakes what it sent before.
          if (lane.waiting.length === 0 && canStart(lane, w)) {
            start(lane, w);
            return true;
          }
          // Held at most MAX_IN_FLIGHT + MAX_QUEUED at once, running or waiting for a slot.
          if (lane.inFlight + lane.waiting.length >= maxInFlight + maxQueued) return false;
          lane.waiting.push(w);
          return true;
        },
        get inFlight() {
          return lane.inFlight;
        },
        get queued() {
          return lane.waiting.length;
        },
        close() {
          lane.closed = true;
          lane.waiting.length = 0;
          const at = lanes.indexOf(lane);
          if (at >= 0) lanes.splice(at, 1);
        },
      };
    },
    get running() {
      return running;
    },
  };
}
