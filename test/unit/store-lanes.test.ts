import { describe, expect, it } from "vitest";
import { createLanes } from "../../core/store/kuzu/lanes.ts";

// The store's lanes decide who may use the library when; a swap of the open library must wait
// for the full-text searches in flight and hold new ones back, never fail them.

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("the store's lanes", () => {
  it("runs full-text searches together, beside a read in flight", async () => {
    const lanes = createLanes();
    const order: string[] = [];
    const read = deferred();
    const reading = lanes.read(async () => {
      await read.promise;
      order.push("read");
    });
    const slow = deferred();
    const first = lanes.search(async () => {
      await slow.promise;
      order.push("search 1");
    });
    const second = lanes.search(async () => {
      order.push("search 2");
    });
    await second;
    expect(order).toEqual(["search 2"]);
    slow.resolve();
    await first;
    read.resolve();
    await reading;
    expect(order).toEqual(["search 2", "search 1", "read"]);
  });

  it("makes a swap wait for the searches in flight and hold new searches and reads until it is done", async () => {
    const lanes = createLanes();
    const order: string[] = [];
    const inFlight = deferred();
    const before = lanes.search(async () => {
      await inFlight.promise;
      order.push("search in flight");
    });
    const swapDone = deferred();
    const swapping = lanes.write(() =>
      lanes.swap(async () => {
        order.push("swap");
        await swapDone.promise;
        order.push("swapped");
      }),
    );
    await tick();
    expect(order).toEqual([]);
    inFlight.resolve();
    await before;
    await tick();
    expect(order).toEqual(["search in flight", "swap"]);
    const after = lanes.search(async () => {
      order.push("search after");
    });
    const read = lanes.read(async () => {
      order.push("read after");
    });
    await tick();
    expect(order).toEqual(["search in flight", "swap"]);
    swapDone.resolve();
    await Promise.all([swapping, after, read]);
    expect(order.slice(0, 3)).toEqual(["search in flight", "swap", "swapped"]);
    expect(order.slice(3).sort()).toEqual(["read after", "search after"]);
  });

  it("lets searches go on after a swap that failed", async () => {
    const lanes = createLanes();
    await expect(lanes.write(() => lanes.swap(() => Promise.reject(new Error("reopen failed"))))).rejects.toThrow("reopen failed");
    await expect(lanes.search(() => Promise.resolve("answered"))).resolves.toBe("answered");
    await expect(lanes.read(() => Promise.resolve("read"))).resolves.toBe("read");
  });
});
