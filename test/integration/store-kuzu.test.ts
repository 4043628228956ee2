import { readdir } from "node:fs/promises";
import path from "node:path";
import kuzu from "kuzu";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isClauseGraphError } from "../../core/model/errors.ts";
import { createKuzuStore, type KuzuGraphStore, type KuzuStoreOptions } from "../../core/store/kuzu/kuzu-store.ts";
import { CURRENT_SCHEMA_VERSION, MIGRATIONS, type MigrationPlan } from "../../core/store/kuzu/migrations.ts";
import type { Section } from "../../core/model/section-types.ts";
import { fillerSpecs, makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

let tmp: ReturnType<typeof tempDir>;
let stores: KuzuGraphStore[] = [];

function dbFile(): string {
  return path.join(tmp.dir, "data", "graph.kuzu");
}

async function openStore(options: Partial<KuzuStoreOptions> = {}): Promise<KuzuGraphStore> {
  const store = createKuzuStore({ dbPath: dbFile(), ...options });
  stores.push(store);
  await store.open();
  return store;
}

async function closeAll(): Promise<void> {
  for (const s of stores) await s.close();
  stores = [];
}

/** Raw Cypher against the (closed) store file: what the GraphStore API cannot show, e.g. edges. */
async function rawQuery(cypher: string): Promise<Record<string, unknown>[]> {
  const db = new kuzu.Database(dbFile());
  const conn = new kuzu.Connection(db, 1);
  try {
    const result = await conn.query(cypher);
    const results = Array.isArray(result) ? result : [result];
    const rows: Record<string, unknown>[] = [];
    for (const r of results) {
      rows.push(...(await r.getAll()));
      r.close();
    }
    return rows;
  } finally {
    await conn.close();
    await db.close();
  }
}

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

beforeEach(() => {
  tmp = tempDir();
});

afterEach(async () => {
  await closeAll();
  tmp.cleanup();
});

describe("kuzu store: schema", () => {
  it("creates the schema on an empty database and reopens it with the data intact", async () => {
    const store = await openStore();
    expect(await store.schemaVersion()).toBe(CURRENT_SCHEMA_VERSION);
    expect(await store.stats()).toMatchObject({ documents: 0, sections: 0 });
    const doc = makeDocument("doc1", 3);
    await store.insertDocument(doc, makeSections("doc1", fillerSpecs(2)));
    await closeAll();

    const again = await openStore();
    expect(await again.schemaVersion()).toBe(CURRENT_SCHEMA_VERSION);
    expect(await again.listDocuments()).toEqual([doc]);
    expect(await again.stats()).toMatchObject({ documents: 1, sections: 3 });
    expect((await again.searchSections("competent authorities", 10)).length).toBe(2);
  });

  it("migrates a version-1 database to the current schema, after the backup hook, keeping its data", async () => {
    const v1 = await openStore({ migrations: MIGRATIONS.filter((m) => m.version === 1) });
    await v1.insertDocument(makeDocument("doc1", 1), makeSections("doc1", []));
    expect(await v1.schemaVersion()).toBe(1);
    await closeAll();

    const plans: MigrationPlan[] = [];
    const migrated = await openStore({ beforeMigrate: (p) => void plans.push(p) });
    expect(plans).toEqual([{ from: 1, to: CURRENT_SCHEMA_VERSION }]);
    expect(await migrated.schemaVersion()).toBe(CURRENT_SCHEMA_VERSION);
    expect(await migrated.stats()).toMatchObject({
      documents: 1,
      sections: 1,
      crossReferences: 0,
      resolvedCrossReferences: 0,
      terms: 0,
      triplets: 0,
      entities: 0,
    });
  });

  it("refuses a database with a newer schema version (SCHEMA_MISMATCH)", async () => {
    await openStore();
    await closeAll();
    await rawQuery("MATCH (m:Meta) WHERE m.key = 'schemaVersion' SET m.value = '999'");

    const store = createKuzuStore({ dbPath: dbFile() });
    const err = await errorOf(store.open());
    expect(isClauseGraphError(err) && err.code).toBe("SCHEMA_MISMATCH");
    expect(err instanceof Error && err.message).toContain("999");
    // The failed open released the file: a raw open works again.
    expect(await rawQuery("MATCH (m:Meta) RETURN m.value AS v")).toEqual([{ v: "999" }]);
  });
});

describe("kuzu store: documents and sections", () => {
  it("round-trips every field of documents and sections", async () => {
    const store = await openStore();
    const longText = "Il contraente è tenuto alla riservatezza perché l’appalto è pubblico. ".repeat(2000);
    const sections = makeSections("doc1", [
      { label: "Articolo 1", heading: "Definizioni — «ambito»", text: "Città, qualità, perché: ok 🙂 ΑΒΓ 日本語\nsecond line\twith\u0000nul and \r\n" },
      { label: "Articolo 2", heading: "", text: longText, kind: "paragraph", path: [] },
      { label: "Art. 3", heading: "Quotes ' \" \\ and ${x}", text: "" },
    ]);
    const withSpans = sections[1];
    if (withSpans) {
      withSpans.spans = [
        { start: 0, end: 10, page: 1, box: { x: 72.25, y: 700, width: 451.5, height: 11.9 } },
        { start: 11, end: 20, page: 2, box: { x: 0, y: 0, width: 1, height: 1 } },
      ];
    }
    const doc = makeDocument("doc1", sections.length, { title: "Codice dei contratti pubblici", language: "it" });
    await store.insertDocument(doc, sections);

    expect(await store.getDocument("doc1")).toEqual(doc);
    expect(await store.findDocumentBySha(doc.sha256)).toEqual(doc);
    expect(await store.findDocumentBySha("f".repeat(64))).toBeNull();
    expect(await store.getDocument("nope")).toBeNull();
    for (const s of sections) expect(await store.getSection(s.id)).toEqual(s);
    expect(await store.getSection("missing")).toBeNull();
    expect(await store.getSections("doc1")).toEqual(sections);
    expect(await store.getSections("other")).toEqual([]);
  });

  it("returns sections in ordinal order and documents in import order", async () => {
    const store = await openStore();
    const late = makeDocument("late", 1, { importedAt: "2025-06-01T10:00:00.000Z" });
    const early = makeDocument("early", 1, { importedAt: "2024-01-01T10:00:00.000Z" });
    await store.insertDocument(late, makeSections("late", []));
    await store.insertDocument(early, makeSections("early", []));
    expect((await store.listDocuments()).map((d) => d.id)).toEqual(["early", "late"]);

    const shuffled = makeSections("doc", fillerSpecs(12)).reverse();
    await store.insertDocument(makeDocument("doc", shuffled.length), shuffled);
    expect((await store.getSections("doc")).map((s) => s.ordinal)).toEqual([...Array(13).keys()]);
  });

  it("outlines every document for an import: all labels in order, heading and text of the first five only", async () => {
    const store = await openStore();
    const shuffled = makeSections("doc", fillerSpecs(8)).reverse();
    await store.insertDocument(makeDocument("doc", shuffled.length), shuffled);
    await store.insertDocument(makeDocument("two", 1), makeSections("two", []));
    const outlines = await store.getDocumentOutlines();
    expect(outlines.map((o) => o.id)).toEqual(["doc", "two"]);
    const sections = await store.getSections("doc");
    const outline = outlines[0]?.sections ?? [];
    expect(outline.map((s) => [s.id, s.label, s.ordinal])).toEqual(sections.map((s) => [s.id, s.label, s.ordinal]));
    expect(outline.slice(0, 5).map((s) => [s.heading, s.text])).toEqual(sections.slice(0, 5).map((s) => [s.heading, s.text]));
    expect(outline.slice(5).every((s) => s.heading === "" && s.text === "")).toBe(true);
  });

  it("stores sections in several batches with structure and order edges", async () => {
    const store = await openStore({ batchSize: 7 });
    const sections = makeSections("doc1", fillerSpecs(30));
    await store.insertDocument(makeDocument("doc1", sections.length), sections);
    expect(await store.stats()).toMatchObject({ documents: 1, sections: 31 });
    await closeAll();

    expect(await rawQuery("MATCH (:Section)-[e:IN_DOCUMENT]->(:Document) RETURN count(e) AS n")).toEqual([{ n: 31 }]);
    expect(await rawQuery("MATCH (:Section)-[e:PART_OF]->(p:Section) RETURN count(e) AS n, min(p.id) AS p")).toEqual([{ n: 30, p: "doc1:chapter-i" }]);
    const next = await rawQuery("MATCH (x:Section)-[:NEXT]->(y:Section) RETURN x.ordinal AS a, y.ordinal AS b ORDER BY a");
    expect(next).toEqual(Array.from({ length: 30 }, (_, i) => ({ a: i, b: i + 1 })));
  });

  it("rejects malformed batches before writing anything (VALIDATION)", async () => {
    const store = await openStore();
    const doc = makeDocument("doc1", 2);
    const [chapter, article] = makeSections("doc1", fillerSpecs(1));
    if (!chapter || !article) throw new Error("fixture");
    const cases: Section[][] = [
      [chapter, { ...article, id: chapter.id }],
      [chapter, { ...article, documentId: "other" }],
      [chapter, { ...article, parentId: "doc1:ghost" }],
    ];
    for (const sections of cases) {
      const err = await errorOf(store.insertDocument(doc, sections));
      expect(isClauseGraphError(err) && err.code).toBe("VALIDATION");
    }
    await store.insertDocument(doc, [chapter, article]);
    const dup = await errorOf(store.insertDocument(doc, [chapter, article]));
    expect(isClauseGraphError(dup) && dup.code).toBe("VALIDATION");
    expect(await store.stats()).toMatchObject({ documents: 1, sections: 2 });
  });

  it("deletes a document with its sections and edges, leaving the others intact", async () => {
    const store = await openStore();
    const a = makeSections("docA", [{ label: "Article 1", text: "The processor keeps records of processing." }]);
    const b = makeSections("docB", [{ label: "Article 1", text: "The operator reports major incidents." }]);
    await store.insertDocument(makeDocument("docA", a.length), a);
    await store.insertDocument(makeDocument("docB", b.length), b);
    expect((await store.searchSections("processing records", 5))[0]?.section.id).toBe("docA:s1");

    expect(await store.deleteDocument("docA")).toBe(true);
    expect(await store.deleteDocument("docA")).toBe(false);
    expect(await store.getDocument("docA")).toBeNull();
    expect(await store.getSections("docA")).toEqual([]);
    expect(await store.getSection("docA:s1")).toBeNull();
    expect(await store.stats()).toMatchObject({ documents: 1, sections: 2 });
    expect(await store.searchSections("processing records", 5)).toEqual([]);
    expect((await store.searchSections("major incidents", 5))[0]?.section.id).toBe("docB:s1");
    await closeAll();

    const edges = await rawQuery("MATCH (a)-[e]->(b) RETURN label(e) AS t, count(e) AS n, collect(DISTINCT a.documentId) AS docs ORDER BY t");
    expect(edges).toEqual([
      { t: "IN_DOCUMENT", n: 2, docs: ["docB"] },
      { t: "NEXT", n: 1, docs: ["docB"] },
      { t: "PART_OF", n: 1, docs: ["docB"] },
    ]);
  });
});

describe("kuzu store: the search database", () => {
  it("each rebuild puts a new search database in use and removes the previous one; searching carries on unchanged", async () => {
    const lines: string[] = [];
    const store = await openStore({ log: (line) => lines.push(line) });
    const keep = makeSections("keep", [{ label: "Article 5", text: "Personal data shall be processed lawfully." }]);
    await store.insertDocument(makeDocument("keep", keep.length), keep);
    for (let i = 0; i < 5; i++) {
      const churn = makeSections("churn", [{ label: "Article 1", text: `The operator reports major incidents, round ${i}.` }]);
      await store.insertDocument(makeDocument("churn", churn.length), churn);
      expect((await store.searchSections("major incidents", 5)).map((h) => h.section.id)).toEqual(["churn:s1"]);
      expect((await store.searchSections("lawfully", 5)).map((h) => h.section.id)).toEqual(["keep:s1"]);
      expect(await store.deleteDocument("churn")).toBe(true);
      expect(await store.searchSections("major incidents", 5)).toEqual([]);
    }
    expect(lines.filter((l) => l.startsWith("search index rebuilt")).length).toBeGreaterThanOrEqual(10);
    // Only the index in use is left (each one's native memory went with its database).
    expect((await readdir(`${dbFile()}.search`)).filter((f) => f.endsWith(".fts"))).toHaveLength(1);
    expect(await store.stats()).toMatchObject({ documents: 1, sections: 2 });
    await closeAll();

    // Reopened on the same documents, the index is used as it is: no rebuild.
    lines.length = 0;
    const again = await openStore({ log: (line) => lines.push(line) });
    expect((await again.searchSections("lawfully", 5)).map((h) => h.section.id)).toEqual(["keep:s1"]);
    expect(lines.filter((l) => l.startsWith("search index rebuilt"))).toEqual([]);
  });

  it("a search during a batch of writes is answered by the last index built, without waiting for a rebuild", async () => {
    const store = await openStore();
    const keep = makeSections("keep", [{ label: "Article 5", text: "Personal data shall be processed lawfully." }]);
    await store.insertDocument(makeDocument("keep", keep.length), keep);
    expect((await store.searchSections("lawfully", 5)).map((h) => h.section.id)).toEqual(["keep:s1"]);
    await store.batchWrites(async () => {
      const added = makeSections("added", [{ label: "Article 9", text: "Processed lawfully and fairly." }]);
      await store.insertDocument(makeDocument("added", added.length), added);
      // Not in the index yet (the batch rebuilds it when it ends), but the search does not wait.
      expect((await store.searchSections("lawfully", 5)).map((h) => h.section.id)).toEqual(["keep:s1"]);
      expect(await store.deleteDocument("keep")).toBe(true);
      // A deleted section drops out when its row is looked up.
      expect(await store.searchSections("lawfully", 5)).toEqual([]);
    });
    expect((await store.searchSections("lawfully", 5)).map((h) => h.section.id)).toEqual(["added:s1"]);
  });
});

describe("kuzu store: atomic insert", () => {
  const stages = ["begin", "document", "sections:0", "sections:2", "paths", "part-of", "next"];

  it.each(stages)("leaves nothing of a document whose insert fails at %s", async (stage) => {
    let armed = false;
    const store = await openStore({
      batchSize: 4,
      faultInjector: (s) => {
        if (armed && s === stage) throw new Error(`injected failure at ${s}`);
      },
    });
    const keep = makeSections("keep", [{ label: "Article 5", text: "Personal data shall be processed lawfully." }]);
    await store.insertDocument(makeDocument("keep", keep.length), keep);
    expect(await store.searchSections("lawfully", 5)).toHaveLength(1);

    armed = true;
    const failing = makeSections("fail", fillerSpecs(10, "lawfully"));
    const err = await errorOf(store.insertDocument(makeDocument("fail", failing.length), failing));
    expect(err instanceof Error && err.message).toContain(`injected failure at ${stage}`);

    expect(await store.getDocument("fail")).toBeNull();
    expect(await store.getSections("fail")).toEqual([]);
    expect(await store.stats()).toMatchObject({ documents: 1, sections: 2 });
    expect(await store.getSections("keep")).toEqual(keep);
    const hits = await store.searchSections("lawfully", 5);
    expect(hits.map((h) => h.section.id)).toEqual(["keep:s1"]);

    // The same document stores cleanly afterwards: nothing of the failed attempt is in the way.
    armed = false;
    await store.insertDocument(makeDocument("fail", failing.length), failing);
    expect(await store.stats()).toMatchObject({ documents: 2, sections: 13 });
    expect(await store.deleteDocument("fail")).toBe(true);
    await closeAll();

    const edges = await rawQuery("MATCH (a)-[e]->(b) RETURN count(e) AS n, collect(DISTINCT a.documentId) AS docs");
    expect(edges).toEqual([{ n: 4, docs: ["keep"] }]);
  });

  it("rolls back when Kuzu itself fails mid-insert (a section id taken by another document)", async () => {
    const store = await openStore({ batchSize: 2 });
    const first = makeSections("one", fillerSpecs(3));
    await store.insertDocument(makeDocument("one", first.length), first);
    const clash = makeSections("two", fillerSpecs(5)).map((s, i) => (i === 4 ? { ...s, id: "one:s1" } : s));
    const err = await errorOf(store.insertDocument(makeDocument("two", clash.length), clash));
    expect(isClauseGraphError(err) && err.code).toBe("DB_ERROR");
    expect(await store.getDocument("two")).toBeNull();
    expect(await store.getSections("two")).toEqual([]);
    expect(await store.stats()).toMatchObject({ documents: 1, sections: 4 });
    expect((await store.searchSections("provision", 10)).every((h) => h.document.id === "one")).toBe(true);
  });
});

describe("kuzu store: search", () => {
  it("ranks the section holding the keywords first and respects k", async () => {
    const store = await openStore();
    const sections = makeSections("gdpr", [
      ...fillerSpecs(20, "controller"),
      {
        label: "Article 33",
        heading: "Notification of a personal data breach to the supervisory authority",
        text: "In the case of a personal data breach, the controller shall without undue delay notify the breach to the supervisory authority, not later than 72 hours after having become aware of it.",
      },
      {
        label: "Article 34",
        heading: "Communication of a personal data breach to the data subject",
        text: "The controller shall communicate the breach to the data subject.",
      },
    ]);
    await store.insertDocument(makeDocument("gdpr", sections.length), sections);

    const hits = await store.searchSections("breach notification supervisory authority", 5);
    expect(hits[0]?.section.label).toBe("Article 33");
    expect(hits[0]?.document.id).toBe("gdpr");
    expect(hits[0]?.section).toEqual(sections.find((s) => s.label === "Article 33"));

    const many = await store.searchSections("controller", 5);
    expect(many).toHaveLength(5);
    const scores = many.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(await store.searchSections("controller", 0)).toEqual([]);
  });

  it("finds numbers (Article 34, 72 hours) and words split by typographic punctuation", async () => {
    const store = await openStore();
    const sections = makeSections("mix", [
      { label: "Article 33", heading: "Notification", text: "Notify within 72 hours." },
      { label: "Article 34", heading: "Communication", text: "Notify without undue delay." },
      { label: "Articolo 10", heading: "Obblighi", text: "Gli obblighi dell’appaltatore «principale» — stabiliti qui." },
      { label: "§ 164.308", heading: "Administrative safeguards", text: "Security management process." },
    ]);
    await store.insertDocument(makeDocument("mix", sections.length), sections);
    expect((await store.searchSections("article 34", 3))[0]?.section.label).toBe("Article 34");
    expect((await store.searchSections("72 hours", 3))[0]?.section.label).toBe("Article 33");
    expect((await store.searchSections("appaltatore principale", 3))[0]?.section.label).toBe("Articolo 10");
    expect((await store.searchSections("164.308", 3))[0]?.section.label).toBe("§ 164.308");
  });

  it("never throws on hostile queries and never changes the data", async () => {
    const store = await openStore();
    const sections = makeSections("doc", fillerSpecs(5));
    await store.insertDocument(makeDocument("doc", sections.length), sections);
    const before = await store.stats();
    const hostile = [
      "'); MATCH (n) DETACH DELETE n; //",
      "' OR 1=1 --",
      "\\' \\\\ \\",
      '"; DROP TABLE Section; "',
      "\u0000\u0001\u001f",
      "*",
      "?prov*",
      "}{)(][",
      "a".repeat(100_000),
      "provision ".repeat(10_000),
      "🙂🔥👍🏽",
      "perché città qualità",
      "`backtick` $param {x: 1}",
      "",
      "   ",
      "CALL DROP_FTS_INDEX('Section', 'section_fts')",
    ];
    for (const q of hostile) {
      const hits = await store.searchSections(q, 10);
      expect(Array.isArray(hits)).toBe(true);
    }
    expect(await store.stats()).toEqual(before);
    expect(await store.searchSections("competent authorities", 10)).toHaveLength(5);
  });
});
