import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { withReadCache } from "../../core/store/read-cache.ts";
import { makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// The read cache must answer exactly what the store answers, serve repeats from memory, and
// never serve a row a write has changed or removed.

const specs = [
  { label: "Article 1", text: "'Processor' means a person which processes personal data on behalf of the controller." },
  { label: "Article 2", text: "The controller shall notify the supervisory authority within 72 hours, as set out in Article 3." },
  { label: "Article 3", text: "The processor shall assist the controller in meeting the obligations of Article 2." },
];

describe("withReadCache", () => {
  const tmp = tempDir("cg-read-cache-");
  let kuzu: KuzuGraphStore;

  beforeAll(async () => {
    kuzu = createKuzuStore({ dbPath: path.join(tmp.dir, "graph.kuzu") });
    await kuzu.open();
  });
  afterAll(async () => {
    await kuzu.close();
    tmp.cleanup();
  });

  /** Inserts a generated document; with `cites`, one more citation resolved into that section of another document. */
  async function insert(store: KuzuGraphStore, id: string, cites?: { sectionId: string; documentId: string }): Promise<string[]> {
    const doc = makeDocument(id, specs.length + 1);
    const sections = makeSections(id, specs);
    const derived = buildDerivedGraph({ id, title: doc.title, language: "en" }, sections, []);
    const template = derived.crossReferences[0];
    if (cites !== undefined) {
      if (template === undefined) throw new Error("the generated document cites nothing to copy a citation from");
      derived.crossReferences.push({ ...template, id: `${template.id}-x`, toSectionId: cites.sectionId, toDocumentId: cites.documentId, resolved: true });
    }
    await store.insertDocument(doc, sections, derived);
    return sections.map((s) => s.id);
  }

  it("returns what the store returns and serves repeats from memory", async () => {
    const ids = await insert(kuzu, "doca");
    const cached = withReadCache(kuzu);
    const rowIds = (rows: Array<{ section: { id: string } }>): string[] => rows.map((r) => r.section.id);

    expect(rowIds(await cached.getSectionsByIds(ids))).toEqual(rowIds(await kuzu.getSectionsByIds(ids)));
    expect(await cached.getChildSectionIds(ids)).toEqual(await kuzu.getChildSectionIds(ids));
    expect(await cached.getCrossReferences(ids)).toEqual(await kuzu.getCrossReferences(ids));
    expect(await cached.getTripletsForSections(ids)).toEqual(await kuzu.getTripletsForSections(ids));
    expect(await cached.getTermsByNormalized(["processor", "nothing"])).toEqual(await kuzu.getTermsByNormalized(["processor", "nothing"]));
    expect((await kuzu.getCrossReferences(ids)).length).toBeGreaterThan(0);
    // BM25 ranks ids in the database and takes the rows from the cache: the same hits, order and scores.
    const summary = (hits: Array<{ section: { id: string; text: string }; document: { id: string }; score: number }>) =>
      hits.map((h) => [h.section.id, h.document.id, h.section.text, h.score]);
    for (const query of ["controller supervisory authority", "processor obligations", "nothing matches zzzz"]) {
      expect(summary(await cached.searchSections(query, 10))).toEqual(summary(await kuzu.searchSections(query, 10)));
    }
    expect((await cached.searchSections("controller", 10)).length).toBeGreaterThan(0);

    const before = cached.readCacheStats();
    // A subset, repeated and in another order: all hits, same answer as the store.
    const subset = [ids[2] ?? "", ids[1] ?? "", ids[2] ?? "", "doca:missing"];
    expect(rowIds(await cached.getSectionsByIds(subset))).toEqual(rowIds(await kuzu.getSectionsByIds(subset)));
    expect(await cached.getCrossReferences(subset)).toEqual(await kuzu.getCrossReferences(subset));
    const after = cached.readCacheStats();
    // Only the unknown id went to the store, once per kind of lookup.
    expect(after.misses - before.misses).toBe(2);
    expect(after.hits).toBeGreaterThan(before.hits);
  });

  it("forgets a document's rows when it is written or deleted", async () => {
    const cached = withReadCache(kuzu);
    const ids = (await kuzu.getSections("doca")).map((s) => s.id);
    expect((await cached.getSectionsByIds(ids)).length).toBe(ids.length);
    expect((await cached.getTermsByNormalized(["processor"])).length).toBe(1);

    expect(await cached.deleteDocument("doca")).toBe(true);
    expect(await cached.getSectionsByIds(ids)).toEqual([]);
    expect(await cached.getTermsByNormalized(["processor"])).toEqual([]);
    expect(await cached.getCrossReferences(ids)).toEqual([]);

    // Re-inserted through the cache: the new rows are served, not the remembered absence.
    await insert(cached, "doca");
    expect((await cached.getSectionsByIds(ids)).length).toBe(ids.length);
    expect((await cached.getTermsByNormalized(["processor"])).length).toBe(1);
  });

  it("keeps the other documents' rows across a write confined to one document, and forgets what spans documents", async () => {
    const cached = withReadCache(kuzu);
    const a = (await kuzu.getSections("doca")).map((s) => s.id);
    expect((await cached.getSectionsByIds(a)).length).toBe(a.length);
    expect((await cached.getTermsByNormalized(["processor"])).length).toBe(1);
    expect((await cached.listDocuments()).map((d) => d.id)).toEqual(["doca"]);
    const b = await insert(cached, "docb");
    expect((await cached.listDocuments()).map((d) => d.id).sort()).toEqual(["doca", "docb"]);
    // doca's rows come from memory; docb's from the store, the term of both documents is found again.
    const before = cached.readCacheStats();
    expect((await cached.getSectionsByIds(a)).length).toBe(a.length);
    expect(cached.readCacheStats().misses).toBe(before.misses);
    expect((await cached.getSectionsByIds(b)).length).toBe(b.length);
    expect((await cached.getTermsByNormalized(["processor"])).length).toBe(2);
    expect(await cached.deleteDocument("docb")).toBe(true);
    expect(await cached.getSectionsByIds(b)).toEqual([]);
    expect((await cached.getTermsByNormalized(["processor"])).length).toBe(1);
    expect((await cached.listDocuments()).map((d) => d.id)).toEqual(["doca"]);
    // An insert citing another document's section: that section's citations are read again (the
    // new one enters it), the new document's rows were read in at the insert (no lookup misses).
    const cachedRefs = await cached.getCrossReferences(a);
    const cIds = await insert(cached, "docc", { sectionId: a[1] ?? "", documentId: "doca" });
    const warmed = cached.readCacheStats();
    expect(await cached.getSectionsByIds(cIds)).toEqual(await kuzu.getSectionsByIds(cIds));
    expect(await cached.getTripletsForSections(cIds)).toEqual(await kuzu.getTripletsForSections(cIds));
    expect(await cached.getChildSectionIds(cIds)).toEqual(await kuzu.getChildSectionIds(cIds));
    expect(cached.readCacheStats().misses).toBe(warmed.misses);
    const refsAfter = await cached.getCrossReferences(a);
    expect(refsAfter).toEqual(await kuzu.getCrossReferences(a));
    expect(refsAfter.length).toBe(cachedRefs.length + 1);
    expect(await cached.deleteDocument("docc")).toBe(true);
    expect(await cached.getCrossReferences(a)).toEqual(cachedRefs);
    expect(await cached.getCrossReferences(a)).toEqual(await kuzu.getCrossReferences(a));

    // Anything else that writes (here the user's aliases, part of every section row) empties it all.
    const edited = await cached.setUserAliases("doca", { userAliases: ["Alias A"], hiddenAliases: [] });
    expect(edited.userAliases).toEqual(["Alias A"]);
    expect((await cached.getSectionsByIds(a))[0]?.document.userAliases).toEqual(["Alias A"]);
  });

  it("derives a value from the document list once per state of the list", async () => {
    const cached = withReadCache(kuzu);
    let runs = 0;
    const ids = cached.memoOfDocuments((docs) => {
      runs++;
      return docs.map((d) => d.id).sort();
    });
    expect(await ids()).toEqual(["doca"]);
    expect(await ids()).toEqual(["doca"]);
    expect(runs).toBe(1);
    // A write adding or removing a document, or changing its names, derives it again.
    await insert(cached, "docm");
    expect(await ids()).toEqual(["doca", "docm"]);
    expect(await cached.deleteDocument("docm")).toBe(true);
    expect(await ids()).toEqual(["doca"]);
    expect(runs).toBe(3);
    await cached.setUserAliases("doca", { userAliases: ["Alias M"], hiddenAliases: [] });
    const aliases = cached.memoOfDocuments((docs) => docs.flatMap((d) => d.userAliases ?? []));
    expect(await aliases()).toEqual(["Alias M"]);
    await cached.setUserAliases("doca", { userAliases: [], hiddenAliases: [] });
    expect(await aliases()).toEqual([]);
    expect(await ids()).toEqual(["doca"]);
    expect(runs).toBe(4);
  });

  it("warmLibrary reads every section's rows in when the library is small enough", async () => {
    const ids = (await kuzu.getDocumentOutlines()).flatMap((o) => o.sections.map((x) => x.id));
    expect(ids.length).toBeGreaterThan(0);
    const over = withReadCache(kuzu);
    expect(await over.warmLibrary(ids.length - 1)).toBe(0);
    expect(over.readCacheStats().misses).toBe(0);

    const cached = withReadCache(kuzu);
    expect(await cached.warmLibrary(ids.length)).toBe(ids.length);
    const misses = cached.readCacheStats().misses;
    expect(await cached.getSectionsByIds(ids)).toEqual(await kuzu.getSectionsByIds(ids));
    expect(await cached.getCrossReferences(ids)).toEqual(await kuzu.getCrossReferences(ids));
    expect(await cached.getTripletsForSections(ids)).toEqual(await kuzu.getTripletsForSections(ids));
    expect(await cached.getChildSectionIds(ids)).toEqual(await kuzu.getChildSectionIds(ids));
    expect(cached.readCacheStats().misses).toBe(misses);

    // Stopped (the engine closing): nothing beyond the document list is read.
    const stopped = withReadCache(kuzu);
    await stopped.warmLibrary(ids.length, () => true);
    expect(stopped.readCacheStats().misses).toBe(1);
  });

  it("a delete edits the other documents' cached citations and terms as the store does, without emptying them", async () => {
    const cached = withReadCache(kuzu);
    const d = await insert(cached, "docd");
    // doce cites a section of docd: deleting docd leaves that citation unresolved.
    const e = await insert(cached, "doce", { sectionId: d[2] ?? "", documentId: "docd" });
    const a = (await kuzu.getSections("doca")).map((x) => x.id);
    const before = await cached.getCrossReferences(e);
    expect(before.some((r) => r.toDocumentId === "docd" && r.resolved)).toBe(true);
    await cached.getCrossReferences(a);
    expect((await cached.getTermsByNormalized(["processor"])).map((t) => t.documentId).sort()).toEqual(["doca", "docd", "doce"]);

    expect(await cached.deleteDocument("docd")).toBe(true);
    const misses = cached.readCacheStats().misses;
    const after = await cached.getCrossReferences(e);
    expect(after).toEqual(await kuzu.getCrossReferences(e));
    expect(after.some((r) => r.toDocumentId === "docd" && !r.resolved && r.toSectionId === null)).toBe(true);
    expect(await cached.getCrossReferences(a)).toEqual(await kuzu.getCrossReferences(a));
    expect(await cached.getTermsByNormalized(["processor"])).toEqual(await kuzu.getTermsByNormalized(["processor"]));
    // All from memory: the delete edited the entries instead of emptying them.
    expect(cached.readCacheStats().misses).toBe(misses);
    expect(await cached.deleteDocument("doce")).toBe(true);
    expect(await cached.getTermsByNormalized(["processor"])).toEqual(await kuzu.getTermsByNormalized(["processor"]));
  });
});
