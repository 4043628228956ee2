import { describe, expect, it } from "vitest";
import { createForeground } from "../../core/jobs/foreground.ts";
import { runYielding, type GraphSteps } from "../../core/graph/graph-steps.ts";
import { embedAll } from "../../core/embed/embed-derived.ts";
import type { Embedder } from "../../core/model/embedder.ts";

// Searches before background work (core/jobs/foreground.ts): a slice of an import's graph work
// waits while a search runs, goes on as soon as none runs, and never waits past the bound.

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Graph work of `slices` busy slices of ~12 ms each (runYielding yields after 10 ms). */
function* busySteps(slices: number, log: string[]): GraphSteps<number> {
  for (let i = 0; i < slices; i++) {
    const until = performance.now() + 12;
    while (performance.now() < until) {
      /* busy, as deriving a graph is */
    }
    log.push(`slice ${i}`);
    yield;
  }
  return slices;
}

describe("foreground", () => {
  it("holds background slices while a request runs, and lets them go when it ends", async () => {
    const foreground = createForeground(2_000_000_000);
    const log: string[] = [];
    let release = (): void => undefined;
    const request = foreground.run(
      () =>
        new Promise<void>((resolve) => {
          release = () => {
            log.push("request done");
            resolve();
          };
        }),
    );
    expect(foreground.active).toBe(1);
    const work = runYielding(busySteps(3, log), undefined, () => foreground.yieldTo());
    await sleep(100);
    // The first slice ran before any yield; the rest waits for the request.
    expect(log).toEqual(["slice 0"]);
    release();
    await request;
    expect(await work).toBe(3);
    expect(log).toEqual(["slice 0", "request done", "slice 1", "slice 2"]);
    expect(foreground.active).toBe(0);
  });

  it("never waits past its bound, so endless requests slow background work but do not stop it", async () => {
    const foreground = createForeground(30);
    const log: string[] = [];
    let stop = false;
    const endless = foreground.run(async () => {
      while (!stop) await sleep(5);
    });
    expect(await runYielding(busySteps(3, log), undefined, () => foreground.yieldTo())).toBe(3);
    stop = true;
    await endless;
  });

  it("an import's embedding waits for a search between two batches", async () => {
    const foreground = createForeground(2_000_000_000);
    const log: string[] = [];
    const embedder: Embedder = {
      id: "count",
      dimensions: 1,
      embedQueries: (texts) => Promise.resolve(texts.map(() => Float32Array.of(1))),
      embedDocuments: (texts) => {
        log.push(`batch of ${texts.length}`);
        return Promise.resolve(texts.map(() => Float32Array.of(1)));
      },
      close: () => Promise.resolve(),
    };
    let release = (): void => undefined;
    const search = foreground.run(() => new Promise<void>((resolve) => (release = resolve)));
    const items = Array.from({ length: 40 }, (_, i) => ({ id: `s${i}`, text: `text ${i}` }));
    const embedding = embedAll(
      embedder,
      items,
      () => {},
      undefined,
      () => foreground.yieldTo(),
    );
    await sleep(50);
    expect(log).toEqual(["batch of 16"]);
    release();
    await search;
    expect((await embedding).size).toBe(40);
    expect(log).toEqual(["batch of 16", "batch of 16", "batch of 8"]);
  });

  it("a failed request still releases the background", async () => {
    // Bounded by ~23 days: were it not released, yieldTo would never settle and the test time out.
    const foreground = createForeground(2_000_000_000);
    await expect(foreground.run(() => Promise.reject(new Error("search failed")))).rejects.toThrow("search failed");
    expect(foreground.active).toBe(0);
    await foreground.yieldTo();
  });
});
