import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  LIBRARY_POOL_FLOOR,
  libraryPoolBytes,
  memoryRecordPath,
  readMemoryRecord,
  recordFilledPool,
  WRITE_POOL_PER_CHAR,
  writeMemoryRecord,
  writePoolBytes,
  type MemoryRecord,
} from "../../core/store/kuzu/memory-plan.ts";

// A write that fills the library's pool teaches the next start what it needed: the library's own
// pool when any write did, only what writes that large need when a large one did.

const MB = 1024 * 1024;
const CEILING = 4096 * MB;
const NONE: MemoryRecord = { libraryPoolBytes: 0, reason: "", at: "" };
const AT = new Date(Date.UTC(2026, 11, 6));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "cg-memory-plan-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("a write that filled the library's pool", () => {
  it("raises the library's own pool for good when the pool was the library's", () => {
    const record = recordFilledPool(NONE, { doing: "storing gdpr.pdf", filledBytes: 96 * MB, larger: 192 * MB, writeChars: 300_000, largeWrite: false }, AT);
    expect(record).toEqual({ libraryPoolBytes: 192 * MB, reason: "storing gdpr.pdf filled a pool of 96 MB", at: AT.toISOString() });
    expect(libraryPoolBytes(0, record.libraryPoolBytes, CEILING)).toBe(192 * MB);
  });

  it("leaves the library's pool as it was when a large write had raised it, and sizes the next large write up", () => {
    const earlier: MemoryRecord = { libraryPoolBytes: 128 * MB, reason: "earlier", at: "t" };
    const chars = 4_000_000;
    const filled = writePoolBytes(chars, CEILING);
    const record = recordFilledPool(earlier, { doing: "storing huge.txt", filledBytes: filled, larger: filled * 2, writeChars: chars, largeWrite: true }, AT);
    expect(record.libraryPoolBytes).toBe(128 * MB);
    expect(record.largeWrite).toEqual({ chars, poolBytes: filled * 2 });
    // The next open sizes the library as before; a write as large gets the pool that one was retried with.
    expect(libraryPoolBytes(0, record.libraryPoolBytes, CEILING)).toBe(128 * MB);
    expect(writePoolBytes(chars, CEILING, record.largeWrite)).toBe(filled * 2);
    expect(writePoolBytes(chars / 2, CEILING, record.largeWrite)).toBe(filled);
    // Small writes keep the floor.
    expect(writePoolBytes(1_000, CEILING, record.largeWrite)).toBe(LIBRARY_POOL_FLOOR);
  });

  it("changes nothing for writes when what it learned asks less than the rule", () => {
    expect(writePoolBytes(4_000_000, CEILING, { chars: 4_000_000, poolBytes: MB })).toBe(Math.ceil((4_000_000 * WRITE_POOL_PER_CHAR) / MB) * MB);
    expect(writePoolBytes(4_000_000, CEILING, { chars: 0, poolBytes: CEILING })).toBe(writePoolBytes(4_000_000, CEILING));
  });
});

describe("the memory record", () => {
  const dbPath = (): string => path.join(dir, "graph.kuzu");

  it("keeps what a large write taught across a restart", async () => {
    const record: MemoryRecord = {
      libraryPoolBytes: 0,
      reason: "storing huge.txt filled a pool of 192 MB",
      at: "t",
      largeWrite: { chars: 4_000_000, poolBytes: 384 * MB },
    };
    await writeMemoryRecord(dbPath(), record);
    expect(await readMemoryRecord(dbPath())).toEqual(record);
  });

  it("reads a record of an older version, and ignores what it cannot read", async () => {
    writeFileSync(memoryRecordPath(dbPath()), JSON.stringify({ libraryPoolBytes: 192 * MB, reason: "storing x.pdf filled a pool of 96 MB", at: "t" }));
    expect(await readMemoryRecord(dbPath())).toEqual({ libraryPoolBytes: 192 * MB, reason: "storing x.pdf filled a pool of 96 MB", at: "t" });
    writeFileSync(memoryRecordPath(dbPath()), JSON.stringify({ libraryPoolBytes: 0, reason: "", at: "", largeWrite: { chars: "many", poolBytes: 1 } }));
    expect(await readMemoryRecord(dbPath())).toEqual(NONE);
    writeFileSync(memoryRecordPath(dbPath()), "not json");
    expect(await readMemoryRecord(dbPath())).toEqual(NONE);
  });
});
