import { describe, expect, it } from "vitest";
import { generateFuzzMessages } from "../../bench/lib/fuzz-payloads.ts";
import { runIpcFuzz } from "../../bench/lib/ipc-fuzz.ts";
import { CHANNELS } from "../../core/contract/contract.ts";

// "IPC": seeded random and malformed payloads on every contract channel against a real
// engine. Every malformed one is answered VALIDATION, nothing throws or hangs, and the engine and
// its library are intact afterwards. Seeds are fixed so a failure reproduces exactly.

describe("contract fuzz", () => {
  it("the generator is reproducible and covers every channel and unknown ones", () => {
    const a = generateFuzzMessages(400, 1234);
    const b = generateFuzzMessages(400, 1234);
    expect(a.map((m) => m.kind)).toEqual(b.map((m) => m.kind));
    const channels = new Set(a.map((m) => m.channel));
    for (const channel of CHANNELS) expect(channels.has(channel), channel).toBe(true);
    expect(a.some((m) => m.kind === "unknown channel")).toBe(true);
  });

  it("2,000 seeded messages through the dispatcher: all malformed ones VALIDATION, no crash", async () => {
    const result = await runIpcFuzz({ messages: 2000, seed: 20261122 });
    console.log(`[fuzz] dispatch: ${JSON.stringify({ ...result, problems: result.problems.length })}`);
    expect(result.problems).toEqual([]);
    expect(result.messages).toBe(2000);
    expect(result.crashes).toBe(0);
    expect(result.unexpected).toBe(0);
    expect(result.validationErrors + result.validAnswered).toBe(2000);
    expect(result.validationErrors).toBeGreaterThan(1500);
    expect(result.engineHealthy).toBe(true);
  });

  it("a smaller sample over the web host's WebSocket, plus malformed frames", async () => {
    const result = await runIpcFuzz({ messages: 300, seed: 7, transport: "websocket" });
    console.log(`[fuzz] websocket: ${JSON.stringify({ ...result, problems: result.problems.length })}`);
    expect(result.problems).toEqual([]);
    expect(result.crashes).toBe(0);
    expect(result.unexpected).toBe(0);
    expect(result.messages).toBeGreaterThan(300);
    expect(result.engineHealthy).toBe(true);
  });
});
