import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import type { DerivedGraph } from "../../core/model/graph-records.ts";
import type { Section } from "../../core/model/section-types.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { SECTION_VECTORS, TRIPLET_VECTORS } from "../../core/store/kuzu/schema.ts";
import { snapshotDirectory } from "../../core/store/kuzu/vector-snapshot.ts";
import { makeDocument, makeSections } from "../helpers/store-fixtures.ts";

// The vector mirror's snapshot (vector-snapshot.ts): written at close, read at the next open
// instead of every vector through Kuzu, removed before any write, and never used when it does not
// match its table (a crash between a write and the removal, a damaged file, another model).

const DIMS = 8;
const SNAPSHOT_LOG = /read from their snapshot/;

function vectorOf(seed: number): Float32Array {
  const v = new Float32Array(DIMS);
  for (let j = 0; j < DIMS; j++) v[j] = Math.sin(seed * 7.3 + j * 1.7);
  return v;
}

function documentWithVectors(id: string, seedBase: number): { sections: Section[]; derived: DerivedGraph } {
  const sections = makeSections(id, [
    { label: "Article 1", text: "The operator shall notify the authority within 72 hours." },
    { label: "Article 2", text: "The provider shall keep records of processing for five years." },
    { label: "Article 3", text: "The authority may impose administrative fines on the operator." },
  ]);
  const derived = buildDerivedGraph({ id, title: `Act ${id}`, language: "en" }, sections, []);
  sections.forEach((s, i) => derived.sectionEmbeddings.set(s.id, vectorOf(seedBase + i)));
  derived.triplets.forEach((t, i) => derived.tripletEmbeddings.set(t.id, vectorOf(seedBase + 50 + i)));
  return { sections, derived };
}

describe("vector mirror snapshots", () => {
  let dir: string;
  let logs: string[];
  const dbPath = (): string => path.join(dir, "graph.kuzu");
  const openStore = async (): Promise<KuzuGraphStore> => {
    const store = createKuzuStore({ dbPath: dbPath(), minFreeBytes: 0, log: (m) => logs.push(m) });
    await store.open();
    await store.useEmbeddingSpace({ modelId: "sine-8", dimensions: DIMS });
    return store;
  };
  const probes = [1.5, 4.2, 9.9, 55.1].map(vectorOf);
  const rankings = async (store: KuzuGraphStore): Promise<unknown[]> => {
    const out: unknown[] = [];
    for (const p of probes) {
      out.push(await store.searchSectionsByVector(p, 5));
      out.push((await store.searchTripletIdsByVector(p, 3)).map((t) => [t.id, t.sectionId, t.score]));
    }
    return out;
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-vector-snapshot-"));
    logs = [];
    const store = await openStore();
    for (const [i, id] of ["act1", "act2"].entries()) {
      const { sections, derived } = documentWithVectors(id, i * 10);
      await store.insertDocument(makeDocument(id, sections.length), sections, derived);
    }
    await store.close();
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is written at close and read at the next open, with the same rankings", async () => {
    let store = await openStore();
    const fromKuzu = await rankings(store);
    expect(logs.some((m) => SNAPSHOT_LOG.test(m))).toBe(false);
    await store.close();
    expect((await readdir(snapshotDirectory(dbPath()))).sort()).toEqual([`${SECTION_VECTORS.table}.bin`, `${TRIPLET_VECTORS.table}.bin`].sort());

    logs = [];
    store = await openStore();
    expect(await rankings(store)).toEqual(fromKuzu);
    expect(logs.filter((m) => SNAPSHOT_LOG.test(m))).toHaveLength(2);
    await store.close();
  });

  it("is removed before a write, and written again from the mirror that followed the write", async () => {
    let store = await openStore();
    await rankings(store);
    await store.close();

    store = await openStore();
    await rankings(store);
    expect(await store.deleteDocument("act1")).toBe(true);
    await expect(readdir(snapshotDirectory(dbPath()))).rejects.toThrow();
    const afterDelete = await rankings(store);
    expect(JSON.stringify(afterDelete)).not.toMatch(/act1:/);
    await store.close();

    logs = [];
    store = await openStore();
    expect(await rankings(store)).toEqual(afterDelete);
    expect(logs.filter((m) => SNAPSHOT_LOG.test(m))).toHaveLength(2);
    await store.close();
  });

  it("is not used when it does not match its table: a stale copy, a damaged file", async () => {
    let store = await openStore();
    const before = await rankings(store);
    await store.close();
    const file = path.join(snapshotDirectory(dbPath()), `${SECTION_VECTORS.table}.bin`);
    const stale = path.join(dir, "stale.bin");
    await copyFile(file, stale);

    // As a crash after a write and before the snapshot's removal would leave it.
    store = await openStore();
    await store.deleteDocument("act2");
    await store.close();
    await mkdir(snapshotDirectory(dbPath()), { recursive: true });
    await copyFile(stale, file);
    logs = [];
    store = await openStore();
    const sections = await store.searchSectionsByVector(probes[0] ?? vectorOf(0), 5);
    expect(sections.length).toBeGreaterThan(0);
    expect(sections.every((h) => h.id.startsWith("act1:"))).toBe(true);
    expect(logs.some((m) => m.includes(SECTION_VECTORS.table) && SNAPSHOT_LOG.test(m))).toBe(false);
    await store.close();

    // One value changed in place: the checksum no longer agrees.
    await rm(snapshotDirectory(dbPath()), { recursive: true, force: true });
    store = await openStore();
    const { sections: again, derived } = documentWithVectors("act2", 10);
    await store.insertDocument(makeDocument("act2", again.length), again, derived);
    expect(await rankings(store)).toEqual(before);
    await store.close();
    const bytes = await readFile(file);
    bytes[bytes.length - 2] = (bytes[bytes.length - 2] ?? 0) ^ 0x40;
    await writeFile(file, bytes);
    logs = [];
    store = await openStore();
    expect(await rankings(store)).toEqual(before);
    expect(logs.some((m) => m.includes(SECTION_VECTORS.table) && SNAPSHOT_LOG.test(m))).toBe(false);
    await store.close();
  });

  it("is read ahead of the first search, beside a search asked meanwhile, with the same rankings", async () => {
    let store = await openStore();
    const fromKuzu = await rankings(store);
    await store.close();

    logs = [];
    store = await openStore();
    expect(store.memoryUse().vectorMirrorRows).toBe(0);
    // A search asked while the read ahead runs gets the same mirrors.
    const [, first] = await Promise.all([store.prepareSearch(), store.searchSectionsByVector(probes[0] ?? vectorOf(0), 5)]);
    expect(store.memoryUse().vectorMirrorRows).toBeGreaterThan(0);
    expect(logs.filter((m) => SNAPSHOT_LOG.test(m))).toHaveLength(2);
    expect(first).toEqual(fromKuzu[0]);
    expect(await rankings(store)).toEqual(fromKuzu);
    // Held now: reading ahead again reads nothing.
    await store.prepareSearch();
    expect(logs.filter((m) => SNAPSHOT_LOG.test(m))).toHaveLength(2);
    expect((await store.graphSchema()).nodes.length).toBeGreaterThan(0);
    await store.close();
  });

  it("belongs to its embedding model", async () => {
    let store = await openStore();
    await rankings(store);
    await store.close();
    logs = [];
    store = createKuzuStore({ dbPath: dbPath(), minFreeBytes: 0, log: (m) => logs.push(m) });
    await store.open();
    expect((await store.useEmbeddingSpace({ modelId: "other-8", dimensions: DIMS })).changed).toBe(true);
    expect(await store.searchSectionsByVector(probes[0] ?? vectorOf(0), 5)).toEqual([]);
    expect(logs.some((m) => SNAPSHOT_LOG.test(m))).toBe(false);
    await store.close();
  });
});
