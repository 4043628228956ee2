import { describe, expect, it } from "vitest";
import { runGuardSelfTest, runOfflineProbe } from "../../bench/lib/network-probe.ts";

// The engine and the web host never leave the machine. A whole session (import of a
// real regulation when ../shared is present, otherwise a generated PDF; an OCR import of a scanned
// page; search; ask without and with
// a local model when ../shared/models has one; the web host over HTTP and WebSocket) runs in a child
// process where every non-loopback connection, DNS query and fetch is refused and counted, and again
// in a loopback-only network namespace where this machine allows one.

describe("offline guarantee", () => {
  it("the network guard refuses and counts deliberate outbound calls, and leaves loopback open", async () => {
    const self = await runGuardSelfTest();
    expect(self.expected).toBeGreaterThanOrEqual(7);
    expect(self.allRefused).toBe(true);
    expect(self.attempts).toBe(self.expected);
    expect(self.refused).toContain("fetch http://example.com/");
    expect(self.loopbackWorked).toBe(true);
  });

  it("a full import, search, ask and web-host session makes zero network attempts", { timeout: 15 * 60_000 }, async () => {
    const result = await runOfflineProbe({ log: (line) => console.log(line) });
    console.log(result.detail);
    expect(result.ok, result.detail).toBe(true);
    expect(result.networkAttempts).toBe(0);
    const guard = result.variants.find((v) => v.name === "guard");
    expect(guard?.ran).toBe(true);
    expect(guard?.detail).toMatch(/web host: GET \/ and \d+ WebSocket requests/);
    // An OCR import (tesseract.js workers, wasm core, language data) is part of the session.
    expect(guard?.detail).toMatch(/OCR import: 1 page\(s\) read with OCR \(eng, confidence \d+\)/);
    const namespace = result.variants.find((v) => v.name === "no-network-namespace");
    if (namespace !== undefined && !namespace.ran) console.warn(`[offline] ${namespace.detail}`);
  });
});
