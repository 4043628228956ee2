import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKuzuStore, type KuzuGraphStore, type KuzuStoreOptions } from "../../core/store/kuzu/kuzu-store.ts";
import { grownPool, libraryPoolBytes, LIBRARY_POOL_FLOOR, readMemoryRecord } from "../../core/store/kuzu/memory-plan.ts";
import { searchDirectory } from "../../core/store/search/search-database.ts";
import { fillerSpecs, makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// The full-text index in segments (core/store/search/search-database.ts): in a large library a new
// document gets a segment of its own, searched at once, and small segments merge in the
// background; deleted rows are filtered, then rewritten away; segments outlive a restart. The
// thresholds are shrunk so that a few dozen sections stand for a large library.

const MB = 1024 * 1024;
let tmp: ReturnType<typeof tempDir>;
let stores: KuzuGraphStore[] = [];

beforeEach(() => {
  tmp = tempDir("cg-search-seg-");
});
afterEach(async () => {
  for (const s of stores) await s.close();
  stores = [];
  tmp.cleanup();
});

const dbPath = (): string => path.join(tmp.dir, "graph.kuzu");

async function openStore(extra: Partial<KuzuStoreOptions> = {}, log?: (line: string) => void): Promise<KuzuGraphStore> {
  const store = createKuzuStore({
    dbPath: dbPath(),
    minFreeBytes: 0,
    searchSegments: { targetSections: 60, foldSections: 15 },
    ...extra,
    ...(log ? { log } : {}),
  });
  stores.push(store);
  await store.open();
  return store;
}

async function segmentFiles(): Promise<string[]> {
  return (await readdir(searchDirectory(dbPath()))).filter((f) => f.endsWith(".fts"));
}

async function insert(store: KuzuGraphStore, id: string, label: string, text: string, fillerWord: string): Promise<void> {
  const sections = makeSections(id, [{ label, text }, ...fillerSpecs(20, fillerWord)]);
  await store.insertDocument(makeDocument(id, sections.length), sections);
}

const top = async (store: KuzuGraphStore, query: string): Promise<string | undefined> => (await store.searchSections(query, 3))[0]?.section.id;

describe("full-text segments", () => {
  it("gives a document imported into a large library a segment of its own, found at once, then merged in the background", async () => {
    const lines: string[] = [];
    const store = await openStore({}, (line) => lines.push(line));
    await insert(store, "keep", "Article 5", "Personal data shall be processed lawfully.", "lawfully");
    expect(await top(store, "personal data lawfully")).toBe("keep:s1");
    await insert(store, "added", "Article 9", "The operator reports major incidents.", "incidents");
    expect(await top(store, "major incidents")).toBe("added:s1");
    expect(lines.filter((l) => l.startsWith("search index: new segment"))).toHaveLength(2);
    expect(await top(store, "personal data lawfully")).toBe("keep:s1");

    const shape = await store.searchIndexSettled();
    expect(shape.segments).toBe(1);
    expect(shape.sections).toBe(44);
    expect(lines.some((l) => l.startsWith("search segments merged: 2 into 1"))).toBe(true);
    expect(await top(store, "major incidents")).toBe("added:s1");
    expect(await top(store, "personal data lawfully")).toBe("keep:s1");
    expect(await segmentFiles()).toHaveLength(1);
  });

  it("filters a deleted document's rows at once and rewrites a segment they wear", async () => {
    const store = await openStore();
    await insert(store, "keep", "Article 5", "Personal data shall be processed lawfully.", "lawfully");
    await insert(store, "gone", "Article 9", "The operator reports major incidents.", "incidents");
    await store.refreshSearchIndex();
    expect((await store.searchIndexSettled()).sections).toBe(44);
    await store.deleteDocument("gone");
    const hits = await store.searchSections("operator major incidents", 10);
    expect(hits.filter((h) => h.section.documentId === "gone")).toEqual([]);
    const shape = await store.searchIndexSettled();
    expect(shape).toMatchObject({ segments: 1, sections: 22 });
    expect(await top(store, "personal data lawfully")).toBe("keep:s1");
  });

  it("uses the segments it has at the next start, and indexes only what they lack", async () => {
    const first = await openStore();
    await insert(first, "one", "Article 1", "Records of processing activities.", "records");
    await insert(first, "two", "Article 2", "Security of network and information systems.", "security");
    await first.searchSections("records", 1);
    const before = await first.searchIndexSettled();
    await first.close();
    stores = [];

    const lines: string[] = [];
    const second = await openStore({}, (line) => lines.push(line));
    expect(await top(second, "records of processing activities")).toBe("one:s1");
    expect(lines.filter((l) => l.startsWith("search index"))).toEqual([]);
    expect(await second.searchIndexSettled()).toEqual(before);
    await insert(second, "three", "Article 3", "Outsourcing arrangements with providers.", "outsourcing");
    expect(await top(second, "outsourcing arrangements providers")).toBe("three:s1");
    expect(lines.filter((l) => l.startsWith("search index: new segment of 1 documents"))).toHaveLength(1);
  });

  it("keeps a small library one index, rebuilt whole after each change", async () => {
    const lines: string[] = [];
    const store = await openStore({ searchSegments: { targetSections: 60, foldSections: 100 } }, (line) => lines.push(line));
    await insert(store, "a", "Article 1", "Records of processing activities.", "records");
    await store.searchSections("records", 1);
    await insert(store, "b", "Article 2", "Security of network and information systems.", "security");
    expect(await top(store, "network information security")).toBe("b:s1");
    expect(lines.filter((l) => l.startsWith("search index rebuilt"))).toHaveLength(2);
    expect((await store.searchIndexSettled()).segments).toBe(1);
    expect(await segmentFiles()).toHaveLength(1);
  });
});

describe("memory plan", () => {
  it("sizes pools from what a database holds, between a floor and a ceiling", () => {
    expect(libraryPoolBytes(0, 0, 4096 * MB)).toBe(LIBRARY_POOL_FLOOR);
    expect(libraryPoolBytes(2000 * MB, 0, 4096 * MB)).toBe(800 * MB);
    expect(libraryPoolBytes(2000 * MB, 1000 * MB, 4096 * MB)).toBe(1000 * MB);
    expect(libraryPoolBytes(100_000 * MB, 0, 1024 * MB)).toBe(1024 * MB);
    expect(grownPool(100 * MB, 150 * MB)).toBe(150 * MB);
    expect(grownPool(150 * MB, 150 * MB)).toBeNull();
  });

  it("reads no record as none, so the pool follows the file alone", async () => {
    expect(await readMemoryRecord(path.join(tmp.dir, "none.kuzu"))).toEqual({ libraryPoolBytes: 0, reason: "", at: "" });
  });

  it("searches a library of many segments, each document its own", { timeout: 300_000 }, async () => {
    // Each document a segment of its own, never merged (none is under half of a one-section target).
    const store = await openStore({ searchSegments: { targetSections: 1, foldSections: 0 } });
    const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo"];
    for (const [i, word] of words.entries()) {
      const sections = makeSections(`doc${i}`, [{ label: `Article ${i + 1}`, text: `The ${word} operator keeps ${word} records.` }]);
      await store.insertDocument(makeDocument(`doc${i}`, sections.length), sections);
      await store.refreshSearchIndex();
    }
    expect((await store.searchIndexSettled()).segments).toBe(words.length);
    for (const [i, word] of words.entries()) expect(await top(store, `${word} records`)).toBe(`doc${i}:s1`);
  });
});
