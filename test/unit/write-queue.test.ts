import { describe, expect, it } from "vitest";
import { createWriteQueue } from "../../core/jobs/write-queue.ts";

// The engine's write queue (core/jobs/write-queue.ts): work runs one at a time in order, a failure
// does not block what follows, a task cancelled while it waits settles at once (its work still gets
// a turn, to see the abort), and `pending` tells a running task whether anything waits behind it.

const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("write queue", () => {
  it("runs work in order, one at a time, and a failure does not block the rest", async () => {
    const queue = createWriteQueue();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([queue.run(task("a")), queue.run(task("b", true)), queue.run(task("c"))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(log).toEqual(["a start", "a end", "b start", "b end", "c start", "c end"]);
    expect(queue.pending).toBe(0);
  });

  it("settles a task cancelled while it waits at once; its work later runs and sees the abort", async () => {
    const queue = createWriteQueue();
    const controller = new AbortController();
    let release = (): void => undefined;
    const first = queue.run(() => new Promise<string>((resolve) => (release = () => resolve("first"))));
    const sawAbort: boolean[] = [];
    const waiting = queue.runUnlessCancelled(
      controller.signal,
      async () => (sawAbort.push(controller.signal.aborted), "ran"),
      () => "cancelled",
    );
    expect(queue.pending).toBe(2);
    controller.abort();
    expect(await waiting).toBe("cancelled");
    release();
    expect(await first).toBe("first");
    await queue.drained();
    expect(sawAbort).toEqual([true]);
  });

  it("leaves a started task to handle its own cancel, and counts what waits behind it", async () => {
    const queue = createWriteQueue();
    const controller = new AbortController();
    const seen: number[] = [];
    const running = queue.runUnlessCancelled(
      controller.signal,
      async () => {
        seen.push(queue.pending);
        controller.abort();
        await tick();
        seen.push(queue.pending);
        return "finished";
      },
      () => "cancelled",
    );
    const behind = queue.run(async () => seen.push(queue.pending));
    expect(await running).toBe("finished");
    await behind;
    expect(seen).toEqual([2, 2, 1]);
  });
});
