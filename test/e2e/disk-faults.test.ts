import { describe, expect, it } from "vitest";
import { DISK_FAULT_SCENARIOS, mountNamespaceUnavailableReason, runDiskFault } from "../../bench/lib/disk-faults.ts";

// A disk that fills up and a library on write-protected media give clear WRITE_FAILED
// errors naming the file, lose nothing, keep search and ask working, and the library reopens whole.
// Real file systems (a small tmpfs, a read-only bind mount) in a private mount namespace; see
// bench/lib/disk-faults.ts.

const unavailable = mountNamespaceUnavailableReason();
if (unavailable !== null) console.warn(`[disk faults] SKIPPED: ${unavailable}`);

const EXPECTED: Record<(typeof DISK_FAULT_SCENARIOS)[number], string[]> = {
  "disk-full": [
    "import with 8 MB free → WRITE_FAILED (almost full)",
    "delete on a nearly full disk → WRITE_FAILED, document kept",
    "import on a full disk → WRITE_FAILED (disk is full)",
    "search still answers on a full disk",
    "the library reopens with both documents",
  ],
  "read-only": [
    "a library on a read-only disk opens (for reading)",
    "…ask works and cites the document",
    "…import → WRITE_FAILED saying read-only",
    "…delete → WRITE_FAILED saying read-only",
    "writable again: the library is intact",
  ],
};

describe.skipIf(unavailable !== null)("disk faults on real file systems", () => {
  for (const scenario of DISK_FAULT_SCENARIOS) {
    it(scenario, { timeout: 5 * 60_000 }, async () => {
      const result = await runDiskFault(scenario);
      for (const c of result.checks) console.log(`[disk faults] ${scenario}: ${c.ok ? "ok  " : "FAIL"} ${c.name}${c.ok ? "" : ` — ${c.detail}`}`);
      expect(result.error).toBeUndefined();
      expect(result.checks.filter((c) => !c.ok)).toEqual([]);
      const names = result.checks.map((c) => c.name);
      for (const name of EXPECTED[scenario]) expect(names).toContain(name);
    });
  }
});
