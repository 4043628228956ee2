import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import kuzu, { type QueryResult } from "kuzu";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { searchDirectory } from "../../core/store/kuzu/search-database.ts";
import { fillerSpecs, makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// Full-text search has a database of its own (core/store/kuzu/search-database.ts), rebuilt whole
// after writes and swapped in. The canary shows why on bare Kuzu 0.11.3: building an FTS index in
// a database that another connection keeps reading from times out after ~6 s, and holds that
// reader for as long (it fails, on purpose, the day an upgrade fixes it). The other tests show the
// store's search database: searches answer while a new one is built, a build a crash interrupted
// is never used, and an index of other documents is rebuilt.

let tmp: ReturnType<typeof tempDir>;
let stores: KuzuGraphStore[] = [];

beforeEach(() => {
  tmp = tempDir("cg-search-db-");
});
afterEach(async () => {
  for (const s of stores) await s.close();
  stores = [];
  tmp.cleanup();
});

async function openStore(log?: (line: string) => void): Promise<KuzuGraphStore> {
  const store = createKuzuStore({ dbPath: path.join(tmp.dir, "graph.kuzu"), minFreeBytes: 0, ...(log ? { log } : {}) });
  stores.push(store);
  await store.open();
  return store;
}

async function drain(result: QueryResult | QueryResult[]): Promise<void> {
  for (const r of Array.isArray(result) ? result : [result]) {
    await r.getAll();
    r.close();
  }
}

describe("search database", () => {
  it("canary: bare Kuzu cannot build an FTS index while another connection reads", async () => {
    const db = new kuzu.Database(path.join(tmp.dir, "bare.kuzu"), 64 * 2 ** 20, true, false, 0, false);
    await db.init();
    const writer = new kuzu.Connection(db, 1);
    const reader = new kuzu.Connection(db, 1);
    await writer.init();
    await reader.init();
    await drain(await writer.query("CREATE NODE TABLE S(id STRING PRIMARY KEY, doc STRING, text STRING)"));
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: `s${i}`, doc: `d${i % 10}`, text: `the controller shall notify breach ${i % 37}` }));
    await drain(await writer.execute(await writer.prepare("UNWIND $rows AS r CREATE (:S {id: r.id, doc: r.doc, text: r.text})"), { rows }));
    // A read transaction held open across the build, as a search in flight holds one: a loop of
    // short reads left gaps that a loaded machine's build could slip through.
    await drain(await reader.query("BEGIN TRANSACTION READ ONLY"));
    await drain(await reader.query("MATCH (s:S) WHERE s.doc = 'd3' RETURN count(s)"));
    let failure: unknown = null;
    try {
      await drain(await writer.query("CALL CREATE_FTS_INDEX('S', 'fts', ['text'])"));
    } catch (err) {
      failure = err;
    }
    await drain(await reader.query("COMMIT"));
    await writer.close();
    await reader.close();
    await db.close();
    expect(failure instanceof Error && failure.message).toMatch(/Timeout waiting for active transactions to leave the system/);
  });

  it("searches keep answering while a new index is built after a batch, and find the new documents once it is in", async () => {
    const store = await openStore();
    const keep = makeSections("keep", [{ label: "Article 5", text: "Personal data shall be processed lawfully." }, ...fillerSpecs(40, "lawfully")]);
    await store.insertDocument(makeDocument("keep", keep.length), keep);
    expect((await store.searchSections("personal data lawfully", 3))[0]?.section.id).toBe("keep:s1");
    let searches = 0;
    let stop = false;
    await store.batchWrites(async () => {
      const added = makeSections("added", [{ label: "Article 9", text: "The operator reports major incidents." }, ...fillerSpecs(40, "incidents")]);
      await store.insertDocument(makeDocument("added", added.length), added);
      const loop = (async () => {
        while (!stop) {
          const hits = await store.searchSections("personal data lawfully", 3);
          expect(hits[0]?.section.id).toBe("keep:s1");
          searches++;
        }
      })();
      await store.refreshSearchIndex();
      stop = true;
      await loop;
    });
    expect(searches).toBeGreaterThan(0);
    expect((await store.searchSections("major incidents", 3))[0]?.section.id).toBe("added:s1");
    expect((await readdir(searchDirectory(path.join(tmp.dir, "graph.kuzu")))).filter((f) => f.endsWith(".kuzu"))).toHaveLength(1);
  });

  it("never uses a build a crash interrupted, nor an index of other documents", async () => {
    const dbPath = path.join(tmp.dir, "graph.kuzu");
    const first = await openStore();
    const sections = makeSections("doc", [{ label: "Article 1", text: "Records of processing activities." }]);
    await first.insertDocument(makeDocument("doc", sections.length), sections);
    expect((await first.searchSections("processing records", 3)).map((h) => h.section.id)).toEqual(["doc:s1"]);
    await first.close();
    stores = [];

    // A newer build without its completion record (the process died while building it).
    const dir = searchDirectory(dbPath);
    const interrupted = new kuzu.Database(path.join(dir, "99.kuzu"));
    await interrupted.init();
    const conn = new kuzu.Connection(interrupted, 1);
    await conn.init();
    await drain(await conn.query("CREATE NODE TABLE SectionText(id STRING PRIMARY KEY, label STRING, heading STRING, text STRING, numberTerms STRING)"));
    await conn.close();
    await interrupted.close();
    // And stray files.
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "notes.txt"), "not an index");

    const lines: string[] = [];
    const second = await openStore((line) => lines.push(line));
    expect((await second.searchSections("processing records", 3)).map((h) => h.section.id)).toEqual(["doc:s1"]);
    expect(lines.filter((l) => l.startsWith("search index rebuilt"))).toEqual([]);
    const kept = (await readdir(dir)).filter((f) => f.endsWith(".kuzu"));
    expect(kept).toHaveLength(1);
    expect(kept).not.toContain("99.kuzu");

    // The library changed behind the index's back (another build of the app, a restore): rebuilt.
    await second.close();
    stores = [];
    const raw = new kuzu.Database(dbPath);
    await raw.init();
    const rawConn = new kuzu.Connection(raw, 1);
    await rawConn.init();
    await drain(await rawConn.query("MATCH (d:Document) SET d.sha256 = 'changed'"));
    await rawConn.close();
    await raw.close();
    const third = await openStore((line) => lines.push(line));
    expect((await third.searchSections("processing records", 3)).map((h) => h.section.id)).toEqual(["doc:s1"]);
    expect(lines.filter((l) => l.startsWith("search index rebuilt"))).toHaveLength(1);
  });
});
