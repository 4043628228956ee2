import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngine, databasePath } from "../../core/engine.ts";
import { searchDirectory } from "../../core/store/search/search-database.ts";

// A library left without a usable full-text index (the build failed for want of memory, or its
// files are gone) is never left without search: opening it builds the index again, and
// `clausegraph check --repair` (repairLibrary) does too, before anything else.

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cg-search-repair-"));
  await writeFile(path.join(dir, "records.txt"), "Article 1\n\nOperators shall keep records of processing activities for five years.\n");
  await writeFile(path.join(dir, "incidents.txt"), "Article 9\n\nThe operator shall report major incidents to the authority without delay.\n");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const segments = async (dataDir: string): Promise<string[]> =>
  (await readdir(searchDirectory(databasePath(dataDir))).catch(() => [] as string[])).filter((f) => f.endsWith(".fts"));

describe("a library without its search index", () => {
  it("is given one again by repairLibrary, and answers searches", async () => {
    const dataDir = path.join(dir, "data");
    const first = await createEngine({ dataDir, embedder: null });
    const results = await first.importFiles([path.join(dir, "records.txt"), path.join(dir, "incidents.txt")]);
    expect(results.map((r) => r.status)).toEqual(["ok", "ok"]);
    await first.close();
    await rm(searchDirectory(databasePath(dataDir)), { recursive: true, force: true });

    const second = await createEngine({ dataDir, embedder: null });
    try {
      expect(await segments(dataDir)).toEqual([]);
      const repair = await second.repairLibrary();
      expect(repair.rebuilt).toBe(false);
      expect(await segments(dataDir)).toHaveLength(1);
      const { results: hits } = await second.search("major incidents authority", { k: 3 });
      expect(hits[0]?.text).toContain("major incidents");
    } finally {
      await second.close();
    }
  });
});
