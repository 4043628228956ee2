import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKuzuStore } from "../../core/store/kuzu/kuzu-store.ts";
import { readMemoryRecord } from "../../core/store/kuzu/memory-plan.ts";
import { makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// The library's buffer pool, found too small by a write, is grown and recorded for the next open.

const MB = 1024 * 1024;
let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir("cg-library-pool-");
});
afterEach(() => {
  tmp.cleanup();
});

describe("the library's buffer pool", () => {
  it("grows when a write fills it, and the write is stored", async () => {
    const dbPath = path.join(tmp.dir, "graph.kuzu");
    const lines: string[] = [];
    const store = createKuzuStore({ dbPath, minFreeBytes: 0, bufferPoolBytes: 24 * MB, log: (l) => lines.push(l) });
    await store.open();
    try {
      const filler = "word ".repeat(400);
      for (let d = 0; d < 6; d++) {
        const specs = Array.from({ length: 1500 }, (_, i) => ({ label: `Article ${i + 1}`, text: `${filler} doc${d} item${i}` }));
        const sections = makeSections(`doc${d}`, specs);
        await store.insertDocument(makeDocument(`doc${d}`, sections.length), sections);
      }
      expect((await store.stats()).documents).toBe(6);
    } finally {
      await store.close();
    }
    expect(lines.some((l) => /needed more memory than the library's buffer pool of 24 MB: reopened with 48 MB/.test(l))).toBe(true);
    // The next open starts from the pool the writes proved necessary: these were ordinary writes
    // (the pool was the library's, not raised for one of them), so it is the library's own.
    const record = await readMemoryRecord(dbPath);
    expect(record.libraryPoolBytes).toBeGreaterThanOrEqual(48 * MB);
    expect(record.largeWrite).toBeUndefined();
  });
});
