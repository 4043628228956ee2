import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import type { Section } from "../../core/model/section-types.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { encodeSectionFile, sectionFileDirectory, withSectionFiles } from "../../core/store/section-files.ts";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import type { DerivedGraph } from "../../core/model/graph-records.ts";
import { fillerSpecs, makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// Section files (section-files.ts): each document's sections beside the library, read by offset
// instead of through Kuzu, and never trusted when they do not match the library's document.

const NO_FACTS = { triplets: [], references: [], targets: {} };

let tmp: ReturnType<typeof tempDir>;
let dbPath: string;
let opened: Array<{ close(): Promise<void> }> = [];

/** A Kuzu store that counts the section reads that reach it. */
function countingKuzu(): { store: KuzuGraphStore; reads: { byIds: number; sections: number; triplets: number; references: number } } {
  const reads = { byIds: 0, sections: 0, triplets: 0, references: 0 };
  const kuzu = createKuzuStore({ dbPath });
  const store = new Proxy(kuzu, {
    get(target, property, receiver) {
      if (property === "getSectionsByIds") reads.byIds++;
      if (property === "getSections") reads.sections++;
      if (property === "getTripletsForSections" || property === "getTripletsByIds") reads.triplets++;
      if (property === "getCrossReferences") reads.references++;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { store, reads };
}

async function openWrapped() {
  const { store, reads } = countingKuzu();
  const wrapped = withSectionFiles(store, sectionFileDirectory(dbPath));
  await wrapped.open();
  opened.push(wrapped);
  return { wrapped, reads };
}

function document(id: string, n: number, overrides: Partial<DocumentRecord> = {}): { doc: DocumentRecord; sections: Section[]; derived: DerivedGraph } {
  const specs = fillerSpecs(n, `word${id}`).map((spec, i) =>
    i % 3 === 0
      ? { ...spec, text: `The operator shall notify the competent authority within ${i + 24} hours. The provider must keep records for five years.` }
      : spec,
  );
  const sections = makeSections(id, specs);
  sections[2] = {
    ...sections[2]!,
    text: "Ünïcode — “quoted” text\nwith a second paragraph.",
    spans: [{ start: 0, end: 7, page: 2, box: { x: 1.25, y: 2, width: 3, height: 4 }, label: "(a)" }],
  };
  const doc = makeDocument(id, sections.length, overrides);
  return { doc, sections, derived: buildDerivedGraph({ id, title: doc.title, language: "en" }, sections, []) };
}

beforeEach(() => {
  tmp = tempDir("cg-section-files-");
  dbPath = path.join(tmp.dir, "graph.kuzu");
  opened = [];
});

afterEach(async () => {
  for (const store of opened) await store.close().catch(() => undefined);
  tmp.cleanup();
});

describe("section files", () => {
  it("answer section reads exactly as the library does, without asking it", async () => {
    const { wrapped, reads } = await openWrapped();
    const a = document("aa01", 30);
    const b = document("bb02", 5);
    await wrapped.insertDocument(a.doc, a.sections, a.derived);
    await wrapped.insertDocument(b.doc, b.sections, b.derived);
    expect((await readdir(sectionFileDirectory(dbPath))).sort()).toEqual(["aa01.sec", "bb02.sec"]);

    const ids = ["bb02:s3", "aa01:s30", "aa01:s1", "missing:s1", "aa01:nope", "aa01:chapter-i"];
    const bare = createKuzuStore({ dbPath: `${dbPath}-bare` });
    opened.push(bare);
    await bare.open();
    await bare.insertDocument(a.doc, a.sections, a.derived);
    await bare.insertDocument(b.doc, b.sections, b.derived);

    const before = { ...reads };
    const sectionIds = ["aa01:s1", "aa01:s4", "bb02:s1", "aa01:s2", "nope:s1"];
    const triplets = await bare.getTripletsForSections(sectionIds);
    expect(triplets.length).toBeGreaterThan(4);
    expect(await wrapped.getTripletsForSections(sectionIds)).toEqual(triplets);
    expect(await wrapped.getTriplets("aa01")).toEqual(await bare.getTriplets("aa01"));
    const byId = (list: { id: string }[]) => [...list].sort((x, y) => (x.id < y.id ? -1 : 1));
    const tripletIds = [triplets[0]!.id, triplets[3]!.id, "aa01:no-such-triplet"];
    expect(byId(await wrapped.getTripletsByIds(tripletIds))).toEqual(byId(await bare.getTripletsByIds(tripletIds)));
    expect(await wrapped.getSectionsByIds(ids)).toEqual(await bare.getSectionsByIds(ids));
    expect(await wrapped.getSections("aa01")).toEqual(await bare.getSections("aa01"));
    expect(await wrapped.getSection("aa01:s3")).toEqual(await bare.getSection("aa01:s3"));
    expect(await wrapped.getChildSectionIds(["aa01:chapter-i", "bb02:s1", "bb02:chapter-i"])).toEqual(
      await bare.getChildSectionIds(["aa01:chapter-i", "bb02:s1", "bb02:chapter-i"]),
    );
    // Only the id of a document the library does not hold went to Kuzu.
    expect(reads.sections).toBe(before.sections);
    expect(reads.byIds - before.byIds).toBe(1);
    // And the triplets of a section id of no document held.
    expect(reads.triplets - before.triplets).toBe(1);
  });

  it("answer citations leaving and entering sections as the library does, before and after the cited document is deleted and imported again", async () => {
    const { wrapped, reads } = await openWrapped();
    const bare = createKuzuStore({ dbPath: `${dbPath}-bare` });
    opened.push(bare);
    await bare.open();
    const target = document("cd08", 4);
    const citing = document("dc09", 4);
    const citation = { raw: "Article 2", label: "Article 2", pinpoint: null, instrument: null, start: 0, end: 9, resolved: true };
    citing.derived.crossReferences.push(
      { ...citation, id: "dc09:ref-x", documentId: "dc09", fromSectionId: "dc09:s1", toSectionId: "cd08:s2", toDocumentId: "cd08" },
      { ...citation, id: "dc09:ref-y", documentId: "dc09", fromSectionId: "dc09:s3", toSectionId: "dc09:s1", toDocumentId: "dc09" },
    );
    for (const store of [wrapped, bare]) {
      await store.insertDocument(target.doc, target.sections, target.derived);
      await store.insertDocument(citing.doc, citing.sections, citing.derived);
    }
    const ids = ["cd08:s2", "cd08:s1", "dc09:s1", "dc09:s3"];
    const before = await bare.getCrossReferences(ids);
    expect(before.some((r) => r.toDocumentId === "cd08" && r.resolved)).toBe(true);
    expect(await wrapped.getCrossReferences(ids)).toEqual(before);
    // Read from the files: only the ids of the citations entering them came from the library.
    expect(reads.references).toBe(0);

    for (const store of [wrapped, bare]) await store.deleteDocument("cd08");
    const citingIds = ids.filter((id) => id.startsWith("dc09:"));
    const unresolved = await bare.getCrossReferences(citingIds);
    expect(unresolved.some((r) => r.toDocumentId === "cd08" && !r.resolved && r.toSectionId === null)).toBe(true);
    expect(await wrapped.getCrossReferences(citingIds)).toEqual(unresolved);

    const again = { ...target.doc, importedAt: "2026-12-06T00:00:00.000Z" };
    for (const store of [wrapped, bare]) await store.insertDocument(again, target.sections, target.derived);
    expect(await wrapped.getCrossReferences(ids)).toEqual(await bare.getCrossReferences(ids));
    expect(reads.references).toBe(0);
  });

  it("follow a change of the document's triplets", async () => {
    const { wrapped } = await openWrapped();
    const a = document("ab07", 6);
    await wrapped.insertDocument(a.doc, a.sections, a.derived);
    const rule = a.derived.triplets[0]!;
    const llm = { ...rule, id: "ab07:llm-1", source: "llm" as const, predicate: "must report to", confidence: 0.5 };
    await wrapped.replaceLlmTriplets("ab07", {
      entities: a.derived.entities.filter((e) => e.id === rule.subjectId || e.id === rule.objectId),
      triplets: [llm],
      statedIn: [{ tripletId: llm.id, sectionId: llm.sectionId, start: llm.start, end: llm.end }],
      tripletEmbeddings: new Map(),
      embeddingModel: null,
    });
    const read = async () => (await wrapped.getTripletsForSections([rule.sectionId])).map((t) => t.id);
    expect(await read()).toContain("ab07:llm-1");
    await wrapped.sectionFilesSettled();
    expect((await readFile(path.join(sectionFileDirectory(dbPath), "ab07.sec"))).includes("must report to")).toBe(true);
    expect(await read()).toContain("ab07:llm-1");
  });

  it("write the file of a document stored before them, in the background, from the library", async () => {
    const a = document("cc03", 12);
    const bare = createKuzuStore({ dbPath });
    await bare.open();
    await bare.insertDocument(a.doc, a.sections);
    await bare.close();

    const { wrapped, reads } = await openWrapped();
    const first = await wrapped.getSectionsByIds(["cc03:s4", "cc03:s7"]);
    expect(first.map((r) => r.section.id)).toEqual(["cc03:s4", "cc03:s7"]);
    await wrapped.sectionFilesSettled();
    expect(await readdir(sectionFileDirectory(dbPath))).toEqual(["cc03.sec"]);
    const settled = reads.byIds;
    expect(await wrapped.getSectionsByIds(["cc03:s4", "cc03:s7"])).toEqual(first);
    expect(reads.byIds).toBe(settled);
  });

  it("are not used when their stamp or bytes disagree with the library, and are written again", async () => {
    const { wrapped, reads } = await openWrapped();
    const a = document("dd04", 8);
    await wrapped.insertDocument(a.doc, a.sections);
    const file = path.join(sectionFileDirectory(dbPath), "dd04.sec");
    const expected = await wrapped.getSectionsByIds(["dd04:s2", "dd04:s5"]);
    const withLast = await wrapped.getSectionsByIds(["dd04:s2", "dd04:s5", "dd04:s8"]);
    await wrapped.close();

    // A file of the same document imported at another time (a crash between a delete and an import).
    const stale = a.sections.map((s) => ({ ...s, text: "stale text" }));
    await writeFile(file, encodeSectionFile({ ...a.doc, importedAt: "2020-01-01T00:00:00.000Z" }, stale, NO_FACTS, 1_000));
    let again = await openWrapped();
    expect(await again.wrapped.getSectionsByIds(["dd04:s2", "dd04:s5"])).toEqual(expected);
    await again.wrapped.sectionFilesSettled();
    expect((await readFile(file)).includes("stale text")).toBe(false);
    await again.wrapped.close();

    // Damaged bytes inside a row.
    const bytes = await readFile(file);
    bytes.fill(0x7b, bytes.length - 40, bytes.length - 20);
    await writeFile(file, bytes);
    again = await openWrapped();
    expect(await again.wrapped.getSectionsByIds(["dd04:s2", "dd04:s5", "dd04:s8"])).toEqual(withLast);
    await again.wrapped.sectionFilesSettled();
    const settled = again.reads.byIds;
    expect(await again.wrapped.getSectionsByIds(["dd04:s2", "dd04:s5", "dd04:s8"])).toEqual(withLast);
    expect(again.reads.byIds).toBe(settled);
    expect(reads.byIds).toBe(0);
  });

  it("of an older format are written again after open, before anything reads them", async () => {
    const { wrapped } = await openWrapped();
    const a = document("fe10", 3);
    await wrapped.insertDocument(a.doc, a.sections, a.derived);
    await wrapped.close();
    const file = path.join(sectionFileDirectory(dbPath), "fe10.sec");
    const bytes = await readFile(file);
    bytes.write("CGSECT00", 0, "latin1");
    await writeFile(file, bytes);
    const again = await openWrapped();
    await again.wrapped.sectionFilesSettled();
    expect((await readFile(file)).subarray(0, 8).toString("latin1")).not.toBe("CGSECT00");
    expect(again.reads.sections).toBe(1);
  });

  it("go before the document on delete, and orphans go at open", async () => {
    const { wrapped } = await openWrapped();
    const a = document("ee05", 4);
    const b = document("ff06", 4);
    await wrapped.insertDocument(a.doc, a.sections);
    await wrapped.insertDocument(b.doc, b.sections);
    expect(await wrapped.deleteDocument("ee05")).toBe(true);
    expect(await readdir(sectionFileDirectory(dbPath))).toEqual(["ff06.sec"]);
    expect(await wrapped.getSectionsByIds(["ee05:s1"])).toEqual([]);
    await wrapped.close();

    await writeFile(path.join(sectionFileDirectory(dbPath), "ee05.sec"), encodeSectionFile(a.doc, a.sections, NO_FACTS, 1));
    await writeFile(path.join(sectionFileDirectory(dbPath), "ff06.sec.tmp-1"), "partial");
    const again = await openWrapped();
    expect(await readdir(sectionFileDirectory(dbPath))).toEqual(["ff06.sec"]);
    expect((await again.wrapped.getSectionsByIds(["ff06:s2"]))[0]?.section.id).toBe("ff06:s2");
    expect(again.reads.byIds).toBe(0);
  });
});

describe("the section-file store", () => {
  it("answers the store's synchronous methods as the store does", async () => {
    const { wrapped } = await openWrapped();
    const memory = wrapped.memoryUse();
    expect(memory).not.toBeInstanceOf(Promise);
    expect(typeof memory.poolBytes).toBe("number");
    expect(wrapped.isReadOnly()).toBe(false);
  });
});
