import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import type { TermRecord } from "../../core/model/graph-records.ts";
import { withCrossDocumentIndex } from "../../core/store/cross-document-index.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// The cross-document index must answer exactly what Kuzu answers (citations entering sections,
// terms by name and id), before and after every kind of write, and step aside while a write runs
// or when the library is past its limit.

const specs = [
  { label: "Article 1", text: "'Processor' means a person which processes personal data on behalf of the controller." },
  {
    label: "Article 2",
    text: "'Personal data breach' means a breach of security. The controller shall notify the supervisory authority, as set out in Article 3.",
  },
  { label: "Article 3", text: "The processor shall assist the controller in meeting the obligations of Article 2 and shall report each personal data breach." },
];

const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const termOrder = (terms: TermRecord[]): TermRecord[] => [...terms].sort(byId);

describe("withCrossDocumentIndex", () => {
  const tmp = tempDir("cg-cross-index-");
  let kuzu: KuzuGraphStore;
  let indexed: ReturnType<typeof withCrossDocumentIndex<KuzuGraphStore>>;

  beforeAll(async () => {
    kuzu = createKuzuStore({ dbPath: path.join(tmp.dir, "graph.kuzu") });
    indexed = withCrossDocumentIndex(kuzu);
    await indexed.open();
  });
  afterAll(async () => {
    await indexed.close();
    tmp.cleanup();
  });

  /** Inserts a generated document, with one more citation resolved into `cites` when given. */
  async function insert(id: string, cites?: { sectionId: string; documentId: string }): Promise<string[]> {
    const doc = makeDocument(id, specs.length + 1);
    const sections = makeSections(id, specs);
    const derived = buildDerivedGraph({ id, title: doc.title, language: "en" }, sections, []);
    const template = derived.crossReferences[0];
    if (template === undefined) throw new Error("the generated document cites nothing");
    if (cites !== undefined) {
      derived.crossReferences.push({ ...template, id: `${template.id}-x`, toSectionId: cites.sectionId, toDocumentId: cites.documentId, resolved: true });
    }
    await indexed.insertDocument(doc, sections, derived);
    return sections.map((s) => s.id);
  }

  /** Every read the index serves, from it and from Kuzu, side by side. */
  async function compare(sectionIds: string[]): Promise<void> {
    const names = ["processor", "personal data breach", "controller", "nothing at all"];
    expect([...(await indexed.getReferenceIdsInto(sectionIds))].sort(byId)).toEqual([...(await kuzu.getReferenceIdsInto(sectionIds))].sort(byId));
    const terms = await indexed.getTermsByNormalized(names);
    expect(termOrder(terms)).toEqual(termOrder(await kuzu.getTermsByNormalized(names)));
    const ids = terms.map((t) => t.id);
    expect(termOrder(await indexed.getTermsByIds([...ids, "missing"]))).toEqual(termOrder(await kuzu.getTermsByIds([...ids, "missing"])));
  }

  it("answers what the library answers, from memory once read", async () => {
    const a = await insert("doca");
    const b = await insert("docb", { sectionId: a[2] ?? "", documentId: "doca" });
    const all = [...a, ...b];
    expect(indexed.crossDocumentIndexStats().held).toBe(false);
    await compare(all);
    const stats = indexed.crossDocumentIndexStats();
    expect(stats.held).toBe(true);
    expect(stats.terms).toBeGreaterThanOrEqual(4);
    // docb's citation into doca is among those held.
    expect((await indexed.getReferenceIdsInto([a[2] ?? ""])).some((r) => r.documentId === "docb")).toBe(true);
    expect((await indexed.getTermsByNormalized(["processor"]))[0]?.mentionedIn.length).toBeGreaterThan(0);
  });

  it("is read again after an insert and a delete, as the delete's cascade leaves the library", async () => {
    const a = (await kuzu.getSections("doca")).map((s) => s.id);
    const c = await insert("docc", { sectionId: a[1] ?? "", documentId: "doca" });
    expect(indexed.crossDocumentIndexStats().held).toBe(false);
    expect((await indexed.getReferenceIdsInto([a[1] ?? ""])).map((r) => r.documentId)).toContain("docc");
    await compare([...a, ...c]);

    expect(await indexed.deleteDocument("doca")).toBe(true);
    expect(indexed.crossDocumentIndexStats().held).toBe(false);
    // Citations into the deleted document are unresolved now; its terms are gone.
    expect(await indexed.getReferenceIdsInto(a)).toEqual([]);
    expect((await indexed.getTermsByNormalized(["processor"])).every((t) => t.documentId !== "doca")).toBe(true);
    await compare([...a, ...c]);
    expect(indexed.crossDocumentIndexStats().held).toBe(true);
  });

  it("answers from the library while a write runs", async () => {
    await indexed.getTermsByNormalized(["processor"]);
    expect(indexed.crossDocumentIndexStats().held).toBe(true);
    let during: boolean | null = null;
    let termsDuring: TermRecord[] = [];
    await indexed.batchWrites(async () => {
      const writing = insert("docd");
      during = indexed.crossDocumentIndexStats().held;
      termsDuring = await indexed.getTermsByNormalized(["processor"]);
      await writing;
    });
    expect(during).toBe(false);
    // Read from Kuzu while docd was written: its terms, committed or not, never half.
    expect(termsDuring.filter((t) => t.documentId === "docd").length).toBeLessThanOrEqual(1);
    expect((await indexed.getTermsByNormalized(["processor"])).some((t) => t.documentId === "docd")).toBe(true);
  });

  it("is read by the warm-up at open, unless it is stopped", async () => {
    const fresh = withCrossDocumentIndex(kuzu);
    await fresh.warmReads(() => true);
    expect(fresh.crossDocumentIndexStats().held).toBe(false);
    await fresh.warmReads(() => false);
    expect(fresh.crossDocumentIndexStats().held).toBe(true);
  });

  it("leaves the answers to the library past its limit", async () => {
    const small = withCrossDocumentIndex(kuzu, { maxRows: 1 });
    const ids = (await kuzu.getSections("docb")).map((s) => s.id);
    expect([...(await small.getReferenceIdsInto(ids))].sort(byId)).toEqual([...(await kuzu.getReferenceIdsInto(ids))].sort(byId));
    expect(termOrder(await small.getTermsByNormalized(["processor"]))).toEqual(termOrder(await kuzu.getTermsByNormalized(["processor"])));
    expect(small.crossDocumentIndexStats().held).toBe(false);
  });
});
