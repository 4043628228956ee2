import { describe, expect, it } from "vitest";
import { createReadAhead } from "../../core/jobs/read-ahead.ts";

// The imports' read-ahead (core/jobs/read-ahead.ts): reads run one at a time in the order asked,
// a read starts while the document before it is still held (being stored), and no more than
// `capacity` documents are ever held, whatever order their stores release them in.

const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("read-ahead", () => {
  it("reads one at a time in order, the next while the one before is held, never more than the capacity", async () => {
    const lane = createReadAhead(2);
    const log: string[] = [];
    let reading = 0;
    let mostAtOnce = 0;
    const read = (name: string) => async () => {
      reading += 1;
      mostAtOnce = Math.max(mostAtOnce, reading);
      log.push(`read ${name}`);
      await tick();
      reading -= 1;
      return name;
    };
    const tickets = ["a", "b", "c", "d"].map((name) => lane.schedule(read(name)));
    expect(await tickets[0]?.result).toBe("a");
    expect(await tickets[1]?.result).toBe("b");
    // a and b are held (a being stored, b read ahead): c waits for a place.
    await tick(20);
    expect(log).toEqual(["read a", "read b"]);
    expect(lane.held).toBe(2);
    tickets[0]?.release();
    expect(await tickets[2]?.result).toBe("c");
    expect(log).toEqual(["read a", "read b", "read c"]);
    tickets[1]?.release();
    tickets[1]?.release(); // idempotent: frees one place, not two
    expect(await tickets[3]?.result).toBe("d");
    expect(lane.held).toBe(2);
    tickets[2]?.release();
    tickets[3]?.release();
    expect(lane.held).toBe(0);
    expect(mostAtOnce).toBe(1);
  });

  it("a failed read passes its place on once released, and the reads behind it still run", async () => {
    const lane = createReadAhead(1);
    const failing = lane.schedule(async () => {
      await tick();
      throw new Error("unreadable");
    });
    const next = lane.schedule(async () => "next");
    await expect(failing.result).rejects.toThrow("unreadable");
    failing.release();
    expect(await next.result).toBe("next");
    next.release();
    expect(lane.held).toBe(0);
  });

  it("a release asked before the read settles frees the place when it settles", async () => {
    const lane = createReadAhead(1);
    const gate = deferred();
    const slow = lane.schedule(async () => {
      await gate.promise;
      return "slow";
    });
    const after = lane.schedule(async () => "after");
    slow.release();
    await tick();
    expect(lane.held).toBe(1);
    gate.resolve();
    expect(await slow.result).toBe("slow");
    expect(await after.result).toBe("after");
    after.release();
    expect(lane.held).toBe(0);
  });

  it("refuses a capacity that could never read", () => {
    expect(() => createReadAhead(0)).toThrow(RangeError);
  });
});
