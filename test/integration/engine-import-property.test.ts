import { describe, expect, it } from "vitest";
import { runImportSequences } from "../../bench/lib/import-sequences.ts";

// Property test for the data loss (see bench/lib/import-sequences.ts): 40 seeded random
// imports, deletes, re-imports, index rebuilds and restarts over ten generated documents of varied
// shapes; after every step each "ok" import is listed, searchable and deletable and nothing is
// orphaned. Before the fix (core/store/kuzu/hnsw-commit-guard.ts) it failed at step 2: an "ok" import
// that was not listed.

describe("imports, deletes and index rebuilds never lose a document (property, seeded)", () => {
  it("holds after every step of 40 random operations, and the library empties completely", async () => {
    const report = await runImportSequences({ steps: 40, seed: 16 });
    expect(report.violations).toEqual([]);
    expect(report.steps).toBe(40);
    expect(report.imports).toBeGreaterThan(10);
    expect(report.deletes).toBeGreaterThan(5);
    expect(report.reopens).toBeGreaterThan(0);
  });
});
