import { createHash } from "node:crypto";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngine, databasePath, documentIdFromSha } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { rebuiltPath } from "../../core/store/library-rebuild.ts";
import { A_TEXT, makeDamagedLibrary } from "../helpers/damaged-library.ts";
import { tempDir } from "../helpers/store-fixtures.ts";

// A library that lost a document the way Kuzu 0.11.3 lost them before the fix
// (test/helpers/damaged-library.ts) is reported at open and rebuilt from the kept copies.

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir("cg-repair-");
});
afterEach(() => tmp.cleanup());

describe("a library that lost a document is reported at open and rebuilt from the kept copies", () => {
  it("finds the lost document, rebuilds the library with both documents, and stays sound", async () => {
    const damaged = await makeDamagedLibrary(tmp.dir);
    // The old write path loses B (if this fails after a Kuzu upgrade, the bug is gone).
    expect(damaged.lost).toBe(true);
    const { dataDir, a, b, lostId } = damaged;
    const open = (log?: (m: string) => void): Promise<Engine> => createEngine({ dataDir, modelRoot: path.join(tmp.dir, "models"), ...(log ? { log } : {}) });

    const logs: string[] = [];
    let engine = await open((m) => logs.push(m));
    try {
      // Checked in the background once the library is open.
      await engine.idle();
      expect(logs.some((l) => l.includes("1 damaged document") && l.includes(lostId))).toBe(true);
      const health = await engine.checkLibrary();
      expect(health.damaged).toHaveLength(1);
      expect(health.damaged[0]).toMatchObject({ documentId: lostId, problem: "lost", sourceFile: path.join(dataDir, "sources", `${lostId}.txt`) });
      // Which of B's tables the bad commit kept depends on how many tables the schema has (the hash
      // map rehashes past 13, 29, 59 tables: core/store/kuzu/hnsw-commit-guard.ts); its vectors always stay.
      expect(health.damaged[0]?.rows).toMatchObject({ SectionEmbedding: 1, TripletEmbedding: 1 });
      expect(health.damaged[0]?.message).toMatch(/no longer listed, but the library still holds parts of it.*Repair re-imports it/);

      const repair = await engine.repairLibrary();
      expect(repair.rebuilt).toBe(true);
      expect(repair.reimported.map((r) => r.status)).toEqual(["ok", "ok"]);
      expect(repair.missing).toEqual([]);
      expect(repair.health.damaged).toEqual([]);
      expect(repair.backup).toMatch(/graph\.kuzu\.damaged-/);
      const docs = await engine.listDocuments();
      expect(docs.map((d) => d.id).sort()).toEqual([documentIdFromSha(createHash("sha256").update(A_TEXT).digest("hex")), lostId].sort());
      // A keeps its name and path; B, lost with its row, is named after its copy.
      expect(docs.find((d) => d.fileName === "A.txt")?.file).toBe(a);
      const hits = await engine.search("benign regulation supervisory authority", { k: 2 });
      expect(hits.results[0]?.documentId).toBe(lostId);
      const stats = await engine.stats();
      expect(stats.embeddedSections).toBe(stats.sections);
      // Importing B again is a no-op now, and deleting and re-importing it works.
      expect((await engine.importFiles([b]))[0]?.status).toBe("skipped");
      expect((await engine.deleteDocument(lostId)).deleted).toBe(true);
      expect((await engine.importFiles([b]))[0]?.status).toBe("ok");
      expect((await engine.checkLibrary()).damaged).toEqual([]);
    } finally {
      await engine.close();
    }
    // The repaired library opens sound; the damaged database was kept beside it, nothing else left over.
    engine = await open();
    try {
      expect((await engine.checkLibrary()).damaged).toEqual([]);
      expect((await engine.listDocuments()).map((d) => d.fileName).sort()).toEqual(["A.txt", "B.txt"]);
    } finally {
      await engine.close();
    }
    const files = await readdir(dataDir);
    expect(files.filter((f) => f.startsWith("graph.kuzu.rebuilt"))).toEqual([]);
    expect(files.filter((f) => f.startsWith("graph.kuzu.damaged-"))).toHaveLength(1);
  });

  it("a sound library is left alone, and an interrupted rebuild is discarded at the next start", async () => {
    const dataDir = path.join(tmp.dir, "L");
    const a = path.join(tmp.dir, "A.txt");
    await writeFile(a, A_TEXT);
    let engine = await createEngine({ dataDir, modelRoot: path.join(tmp.dir, "models") });
    expect((await engine.importFiles([a]))[0]?.status).toBe("ok");
    const repair = await engine.repairLibrary();
    expect(repair).toMatchObject({ rebuilt: false, reimported: [], backup: null });
    await engine.close();
    // A rebuild killed before it finished leaves a database without the completion marker.
    await writeFile(rebuiltPath(databasePath(dataDir)), "half-written");
    engine = await createEngine({ dataDir, modelRoot: path.join(tmp.dir, "models") });
    try {
      expect((await engine.listDocuments()).map((d) => d.fileName)).toEqual(["A.txt"]);
    } finally {
      await engine.close();
    }
    expect((await readdir(dataDir)).filter((f) => f.includes("rebuilt"))).toEqual([]);
  });
});
