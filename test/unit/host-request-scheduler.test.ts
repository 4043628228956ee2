import { describe, expect, it } from "vitest";
import { createRequestScheduler } from "../../core/host/connection-queue.ts";

// The web host's connections share the engine's interactive slots turn by turn: a client flooding
// it runs at most the slots it holds, and another client's request runs next.

/** A request that finishes when the test says so, recording when it started. */
function requests(log: string[]) {
  const finishers = new Map<string, () => void>();
  return {
    work: (name: string) => () =>
      new Promise<void>((resolve) => {
        log.push(name);
        finishers.set(name, resolve);
      }),
    finish: async (name: string): Promise<void> => {
      finishers.get(name)?.();
      // Let the scheduler hand out the freed slot.
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe("request scheduler of the web host", () => {
  it("another connection's request runs as soon as a slot frees, before the flood's queue", async () => {
    const started: string[] = [];
    const r = requests(started);
    const scheduler = createRequestScheduler({ slots: 2, maxInFlight: 4, maxQueued: 100 });
    const flood = scheduler.connection();
    const other = scheduler.connection();
    for (let i = 0; i < 50; i++) expect(flood.submit(r.work(`f${i}`), "interactive")).toBe(true);
    expect(other.submit(r.work("mine"), "interactive")).toBe(true);
    expect(started).toEqual(["f0", "f1"]);
    expect(scheduler.running).toBe(2);
    await r.finish("f0");
    expect(started).toEqual(["f0", "f1", "mine"]);
    await r.finish("f1");
    await r.finish("mine");
    expect(started).toEqual(["f0", "f1", "mine", "f2", "f3"]);
    expect(flood.queued).toBe(46);
  });

  it("turns go round the connections that wait, each in its own order", async () => {
    const started: string[] = [];
    const r = requests(started);
    const scheduler = createRequestScheduler({ slots: 1 });
    const a = scheduler.connection();
    const b = scheduler.connection();
    const c = scheduler.connection();
    a.submit(r.work("a0"), "interactive");
    for (const name of ["a1", "a2"]) a.submit(r.work(name), "interactive");
    for (const name of ["b0", "b1"]) b.submit(r.work(name), "interactive");
    c.submit(r.work("c0"), "interactive");
    for (const name of ["a0", "b0", "c0", "a1", "b1"]) await r.finish(name);
    expect(started).toEqual(["a0", "b0", "c0", "a1", "b1", "a2"]);
  });

  it("long work takes no slot, a cancel runs at once, and a connection's cap and queue hold", async () => {
    const started: string[] = [];
    const r = requests(started);
    const scheduler = createRequestScheduler({ slots: 1, maxInFlight: 2, maxQueued: 1 });
    const a = scheduler.connection();
    expect(a.submit(r.work("import"), "long")).toBe(true);
    expect(a.submit(r.work("search"), "interactive")).toBe(true);
    expect(started).toEqual(["import", "search"]);
    // Its two in flight: the next waits, the one after is refused, a cancel is not.
    expect(a.submit(r.work("queued"), "interactive")).toBe(true);
    expect(a.submit(r.work("refused"), "interactive")).toBe(false);
    expect(a.submit(r.work("cancel"), "control")).toBe(true);
    expect(started).toEqual(["import", "search", "cancel"]);
    await r.finish("import");
    // A slot is still held by the search: the queued one waits for it.
    expect(started).toEqual(["import", "search", "cancel"]);
    await r.finish("search");
    expect(started).toEqual(["import", "search", "cancel", "queued"]);
  });

  it("a closed connection's waiting requests are dropped; what it runs finishes and frees its slot", async () => {
    const started: string[] = [];
    const r = requests(started);
    const scheduler = createRequestScheduler({ slots: 1 });
    const gone = scheduler.connection();
    const other = scheduler.connection();
    gone.submit(r.work("g0"), "interactive");
    gone.submit(r.work("g1"), "interactive");
    other.submit(r.work("o0"), "interactive");
    gone.close();
    expect(gone.submit(r.work("g2"), "interactive")).toBe(false);
    await r.finish("g0");
    await r.finish("o0");
    expect(started).toEqual(["g0", "o0"]);
    expect(scheduler.running).toBe(0);
  });
});
