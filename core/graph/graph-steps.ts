// Deriving a large document's graph is long synchronous work (rule triplets and terms most of
// all), and an import runs it on the engine's thread: a
// search arriving meanwhile waited for all of it (bench:ingest, searches during a re-import). The
// builders are written as generators that yield after each section; the import drives them with
// `runYielding`, which lets other work in every ~10 ms, and everything else with `runToEnd`.

/** A unit of graph work that yields between sections and returns its result. */
export type GraphSteps<T> = Generator<void, T, void>;

export function runToEnd<T>(steps: GraphSteps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/** Time on the thread between two yields to the event loop. */
const SLICE_MS = 10;

const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs the steps, yielding every SLICE_MS through `pause` (one turn of the event loop unless the
 * engine waits for its searches: core/jobs/foreground.ts); `afterYield` may throw to stop (a cancelled import).
 */
export async function runYielding<T>(steps: GraphSteps<T>, afterYield?: () => void, pause: () => Promise<void> = nextTurn): Promise<T> {
  let sliceStarted = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    if (performance.now() - sliceStarted >= SLICE_MS) {
      await pause();
      afterYield?.();
      sliceStarted = performance.now();
    }
  }
}
