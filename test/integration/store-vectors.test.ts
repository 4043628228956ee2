import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import type { DerivedGraph } from "../../core/model/graph-records.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import { withReadCache } from "../../core/store/read-cache.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import type { Section } from "../../core/model/section-types.ts";

// Triplets, entities and vectors go in with their document and leave with it; vector search
// finds the nearest sections and triplets both by the exact in-memory scan and through Kuzu's
// HNSW index; a change of embedding model drops the old vectors and lets them be re-embedded.

function section(documentId: string, ordinal: number, label: string, text: string): Section {
  return {
    id: `${documentId}:${label.toLowerCase().replace(/\W+/g, "-")}`,
    documentId,
    ordinal,
    kind: "article",
    label,
    heading: "",
    path: [label],
    parentId: null,
    level: 0,
    text,
    pageStart: ordinal + 1,
    pageEnd: ordinal + 1,
    spans: [],
  };
}

function record(id: string, sections: number): DocumentRecord {
  return {
    id,
    sha256: id.padEnd(64, "0"),
    file: `/x/${id}.pdf`,
    fileName: `${id}.pdf`,
    title: `Act ${id}`,
    format: "pdf",
    language: "en",
    pages: 3,
    bytes: 1,
    sections,
    importedAt: new Date().toISOString(),
  };
}

const doc = "act1";
const sections = [
  section(doc, 0, "Article 1", "The controller shall notify the personal data breach to the supervisory authority within 72 hours."),
  section(doc, 1, "Article 2", "Financial entities must not outsource critical functions without a written contract."),
  section(doc, 2, "Article 3", "The authority may impose administrative fines."),
];

/** A unit vector along one axis (plus a little of the next): easy to predict nearest neighbours. */
function axis(dims: number, i: number): Float32Array {
  const v = new Float32Array(dims);
  v[i % dims] = 1;
  v[(i + 1) % dims] = 0.1;
  return v;
}

function derivedWithVectors(dims: number): DerivedGraph {
  const derived = buildDerivedGraph({ id: doc, title: "Act 1", language: "en" }, sections, []);
  sections.forEach((s, i) => derived.sectionEmbeddings.set(s.id, axis(dims, i)));
  derived.triplets.forEach((t, i) => derived.tripletEmbeddings.set(t.id, axis(dims, i + 5)));
  return derived;
}

describe("kuzu store: triplets, entities and vectors", () => {
  let dir: string;
  let store: KuzuGraphStore;
  let derived: DerivedGraph;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-vectors-"));
    store = createKuzuStore({ dbPath: path.join(dir, "graph.kuzu") });
    await store.open();
    await store.useEmbeddingSpace({ modelId: "axis-8", dimensions: 8 });
    derived = derivedWithVectors(8);
    await store.insertDocument(record(doc, sections.length), sections, derived);
  });

  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("serves stored section vectors by id (unit length) in its own embedding space only", async () => {
    const ids = sections.map((s) => s.id);
    const vectors = await store.sectionVectorsByIds(ids, "axis-8");
    expect([...vectors.keys()].sort()).toEqual([...ids].sort());
    for (const [id, v] of vectors) {
      const expected = axis(8, ids.indexOf(id));
      const norm = Math.hypot(...expected);
      expect([...v].map((x) => Number(x.toFixed(5)))).toEqual([...expected].map((x) => Number((x / norm).toFixed(5))));
    }
    expect((await store.sectionVectorsByIds(ids, "another-model")).size).toBe(0);
  });

  it("the read cache answers the triplet vector search as the store does, from memory the second time", async () => {
    const cached = withReadCache(store);
    const probe = axis(8, 5);
    const direct = await store.searchTripletIdsByVector(probe, 3);
    expect(direct.length).toBeGreaterThan(0);
    expect(await cached.searchTripletIdsByVector(probe, 3)).toEqual(direct);
    const before = cached.readCacheStats();
    expect(await cached.searchTripletIdsByVector(probe, 3)).toEqual(direct);
    expect(cached.readCacheStats().misses).toBe(before.misses);
  });

  it("stores rule triplets with modality, deadline, entities and provenance", async () => {
    const triplets = await store.getTriplets(doc);
    expect(triplets.length).toBeGreaterThanOrEqual(3);
    const notify = triplets.find((t) => t.predicate === "shall notify");
    expect(notify).toMatchObject({ subject: "controller", modality: "must", source: "rule", sectionId: `${doc}:article-1` });
    expect(notify?.object).toContain("personal data breach");
    expect(notify?.deadline).toContain("72 hours");
    expect(sections[0]?.text.slice(notify?.start ?? 0, notify?.end ?? 0)).toContain("shall notify");
    expect(triplets.find((t) => t.predicate.startsWith("must not"))?.modality).toBe("must not");
    expect(triplets.find((t) => t.predicate.startsWith("may"))?.modality).toBe("may");
    const stats = await store.stats();
    expect(stats).toMatchObject({ triplets: triplets.length, embeddedSections: 3, embeddingModel: "axis-8" });
    expect(stats.entities).toBeGreaterThanOrEqual(3);
    expect(await store.getTripletsForSections([`${doc}:article-2`])).toHaveLength(triplets.filter((t) => t.sectionId === `${doc}:article-2`).length);
  });

  it("finds the nearest sections and triplets, exactly and through the HNSW index", async () => {
    const hnsw = createKuzuStore({ dbPath: path.join(dir, "graph.kuzu"), exactVectorLimit: 0 });
    await store.close();
    await hnsw.open();
    try {
      const viaIndex = await hnsw.searchSectionsByVector(axis(8, 1), 2);
      expect(viaIndex[0]?.id).toBe(`${doc}:article-2`);
      expect(viaIndex[0]?.score).toBeGreaterThan(0.99);
      const triplets = await hnsw.searchTripletIdsByVector(axis(8, 5), 1);
      expect(triplets[0]).toMatchObject({ id: derived.triplets[0]?.id, sectionId: derived.triplets[0]?.sectionId });
      // A query of unknown words embeds to zero: no neighbours, not an arbitrary top k.
      expect(await hnsw.searchSectionsByVector(new Float32Array(8), 2)).toEqual([]);
      expect(await hnsw.searchTripletIdsByVector(new Float32Array(8), 2)).toEqual([]);
      expect(await hnsw.searchSectionsByVector(new Float32Array(8).fill(Number.NaN), 2)).toEqual([]);
    } finally {
      await hnsw.close();
      await store.open();
    }
    const exact = await store.searchSectionsByVector(axis(8, 1), 2);
    expect(exact.map((h) => h.id)).toEqual([`${doc}:article-2`, `${doc}:article-1`]);
    expect(await store.searchSectionsByVector(new Float32Array(3), 2)).toEqual([]); // wrong width: nothing, no error
    expect(await store.searchSectionsByVector(new Float32Array(8), 2)).toEqual([]);
  });

  it("drops the vectors of a previous model and accepts re-embedded ones", async () => {
    expect(await store.useEmbeddingSpace({ modelId: "axis-8", dimensions: 8 })).toEqual({ changed: false });
    expect(await store.documentsMissingEmbeddings()).toEqual([]);
    expect(await store.useEmbeddingSpace({ modelId: "axis-4", dimensions: 4 })).toEqual({ changed: true });
    expect(await store.documentsMissingEmbeddings()).toEqual([doc]);
    expect(await store.searchSectionsByVector(axis(4, 0), 3)).toEqual([]);
    const again = derivedWithVectors(4);
    await store.putEmbeddings(doc, again.sectionEmbeddings, again.tripletEmbeddings);
    expect(await store.documentsMissingEmbeddings()).toEqual([]);
    expect((await store.searchSectionsByVector(axis(4, 2), 1))[0]?.id).toBe(`${doc}:article-3`);
    expect((await store.stats()).embeddingModel).toBe("axis-4");
  });

  it("removes triplets, entities and vectors with their document", async () => {
    expect(await store.deleteDocument(doc)).toBe(true);
    expect(await store.stats()).toMatchObject({ documents: 0, sections: 0, triplets: 0, entities: 0, embeddedSections: 0 });
    expect(await store.searchSectionsByVector(axis(4, 0), 3)).toEqual([]);
    expect(await store.searchTripletIdsByVector(axis(4, 0), 3)).toEqual([]);
    expect(await store.getTriplets(doc)).toEqual([]);
  });
});

describe("kuzu store: a vector table worn by deletes is compacted", () => {
  it("copies the live rows into a fresh table and index once deleted ones pile up, and searches stay exact", { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "cg-compact-"));
    const logs: string[] = [];
    const store = createKuzuStore({ dbPath: path.join(dir, "graph.kuzu"), exactVectorLimit: 0, minFreeBytes: 0, log: (m) => logs.push(m) });
    try {
      await store.open();
      await store.useEmbeddingSpace({ modelId: "axis-8", dimensions: 8 });
      await store.insertDocument(record(doc, sections.length), sections, derivedWithVectors(8));
      // A document of 100 sections imported and deleted again and again: each delete leaves 100
      // dead rows in the HNSW graph, more than a quarter of the live ones.
      const churnSections = Array.from({ length: 100 }, (_, i) => section("churn", i, `Article ${i + 1}`, `Churned provision ${i + 1}.`));
      const churn = buildDerivedGraph({ id: "churn", title: "Churn", language: "en" }, churnSections, []);
      churnSections.forEach((s, i) => churn.sectionEmbeddings.set(s.id, axis(8, i + 3)));
      for (let round = 0; round < 3; round++) {
        await store.insertDocument(record("churn", churnSections.length), churnSections, churn);
        await store.refreshSearchIndex();
        expect(await store.deleteDocument("churn")).toBe(true);
      }
      const hits = await store.searchSectionsByVector(axis(8, 1), 2);
      expect(logs.some((l) => /vector table SectionEmbedding compacted: 3 rows kept, 100 deleted/.test(l))).toBe(true);
      expect(hits[0]?.id).toBe(`${doc}:article-2`);
      expect(hits[0]?.score).toBeGreaterThan(0.99);
      expect(await store.documentsMissingEmbeddings()).toEqual([]);
      expect((await store.stats()).embeddedSections).toBe(3);
      // Compacted tables take writes and deletes as before.
      await store.insertDocument(record("churn", churnSections.length), churnSections, churn);
      const churned = (await store.searchSectionsByVector(axis(8, 5), 1))[0];
      expect(churned?.id.startsWith("churn:")).toBe(true);
      expect(churned?.score).toBeGreaterThan(0.99);
      expect(await store.deleteDocument("churn")).toBe(true);
      await store.close();
      await store.open();
      expect((await store.searchSectionsByVector(axis(8, 2), 1))[0]?.id).toBe(`${doc}:article-3`);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
