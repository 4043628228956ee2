import { copyFile } from "node:fs/promises";
import path from "node:path";
import kuzu from "kuzu";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkStoreConsistency, readEdgesBothWays } from "../../bench/lib/store-consistency.ts";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import type { ComparisonRecord, SimilarToRecord } from "../../core/model/comparison-records.ts";
import { deleteNodesWithEdges } from "../../core/store/kuzu/delete-nodes.ts";
import type { DerivedGraph } from "../../core/model/graph-records.ts";
import { createKuzuSession } from "../../core/store/kuzu/session.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { readRelConnections } from "../../core/store/kuzu/rel-checkpoint-guard.ts";
import type { Section } from "../../core/model/section-types.ts";
import { fillerSpecs, makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// Comparisons in the store (schema v7): SIMILAR_TO edges written, replaced row by row, given
// verdicts, removed with the comparison and with either document; the HNSW k-NN search restricted
// to chosen documents; and the canary for Kuzu 0.11.3's checkpoint bug (rel-checkpoint-guard.ts)
// on the new relationship table: deleting another document must not take SIMILAR_TO edges with it.

const DIMS = 8;

function axis(i: number): Float32Array {
  const v = new Float32Array(DIMS);
  v[i % DIMS] = 1;
  v[(i + 3) % DIMS] = 0.2;
  return v;
}

function withVectors(documentId: string, sections: Section[], others: Array<{ id: string; title: string; sections: Section[] }> = []): DerivedGraph {
  const derived = buildDerivedGraph({ id: documentId, title: `Regulation ${documentId}`, language: "en" }, sections, others);
  sections.forEach((s, i) => {
    if (s.text !== "") derived.sectionEmbeddings.set(s.id, axis(i));
  });
  return derived;
}

function comparison(a: string, b: string, at: string): ComparisonRecord {
  return {
    id: `${a}~${b}`,
    documentId: a,
    otherDocumentId: b,
    libraryDocuments: [b],
    k: 2,
    embeddingModel: "axis-8",
    scorerVersion: "test",
    llmModel: "",
    status: "computing",
    sections: 3,
    pairsExamined: 6,
    createdAt: at,
    updatedAt: at,
  };
}

function edge(c: ComparisonRecord, a: string, b: string, rank: number, score: number): SimilarToRecord {
  return {
    comparisonId: c.id,
    aSectionId: a,
    bSectionId: b,
    embeddingModel: "axis-8",
    rank,
    score,
    aHash: `h:${a}`,
    bHash: `h:${b}`,
    reasons: "{}",
    flags: "[]",
    evidence: "{}",
    verdict: "",
  };
}

const ACT_A = makeSections("acta", [
  { label: "Article 1", text: "Operators shall report incidents to the authority." },
  { label: "Article 2", text: "Operators shall keep backups of their data." },
  { label: "Article 3", text: "Operators shall train their staff every year." },
]);
const ACT_B = makeSections("actb", [
  { label: "Article 10", text: "Providers shall notify breaches to the regulator." },
  { label: "Article 11", text: "Providers shall restore data from copies." },
  { label: "Article 12", text: "Providers shall run awareness courses." },
]);

let tmp: ReturnType<typeof tempDir>;
let store: KuzuGraphStore | null = null;
beforeEach(() => {
  tmp = tempDir("cg-compare-store-");
});
afterEach(async () => {
  await store?.close();
  store = null;
  tmp.cleanup();
});

async function openWithActs(): Promise<KuzuGraphStore> {
  const s = createKuzuStore({ dbPath: path.join(tmp.dir, "graph.kuzu"), minFreeBytes: 0 });
  await s.open();
  await s.useEmbeddingSpace({ modelId: "axis-8", dimensions: DIMS });
  await s.insertDocument(makeDocument("acta", ACT_A.length), ACT_A, withVectors("acta", ACT_A));
  await s.insertDocument(makeDocument("actb", ACT_B.length), ACT_B, withVectors("actb", ACT_B));
  return s;
}

describe("store: comparisons (SIMILAR_TO)", () => {
  it("writes a comparison's edges, replaces some rows, sets verdicts and deletes it", async () => {
    store = await openWithActs();
    const c = comparison("acta", "actb", "2026-01-01T00:00:00.000Z");
    await store.startComparison(c);
    expect((await store.getComparison(c.id))?.status).toBe("computing");
    const edges = [edge(c, "acta:s1", "actb:s1", 1, 0.9), edge(c, "acta:s1", "actb:s2", 2, 0.4), edge(c, "acta:s2", "actb:s2", 1, 0.8)];
    expect(await store.writeComparison({ comparison: { ...c, status: "complete" }, aSectionIds: ["acta:s1", "acta:s2"], edges })).toEqual({
      deleted: 0,
      created: 3,
    });
    expect((await store.getComparison(c.id))?.status).toBe("complete");
    expect((await store.getComparisonEdges(c.id)).map((e) => `${e.aSectionId}>${e.bSectionId}#${e.rank}`)).toEqual([
      "acta:s1>actb:s1#1",
      "acta:s1>actb:s2#2",
      "acta:s2>actb:s2#1",
    ]);

    // Only Article 2's row changes; Article 1's edges stay as they were.
    const replaced = await store.writeComparison({
      comparison: { ...c, status: "complete" },
      aSectionIds: ["acta:s2"],
      edges: [edge(c, "acta:s2", "actb:s3", 1, 0.7)],
    });
    expect(replaced).toEqual({ deleted: 1, created: 1 });
    expect(
      await store.setComparisonVerdicts({ ...c, status: "complete", llmModel: "tiny" }, [
        { aSectionId: "acta:s1", bSectionId: "actb:s1", verdict: '{"label":"equivalent"}' },
      ]),
    ).toBe(1);
    const after = await store.getComparisonEdges(c.id);
    expect(after.map((e) => `${e.aSectionId}>${e.bSectionId}`)).toEqual(["acta:s1>actb:s1", "acta:s1>actb:s2", "acta:s2>actb:s3"]);
    expect(after[0]?.verdict).toBe('{"label":"equivalent"}');
    expect((await store.getComparison(c.id))?.llmModel).toBe("tiny");
    expect((await store.listComparisons()).map((x) => x.id)).toEqual([c.id]);

    expect(await store.deleteComparison(c.id)).toBe(true);
    expect(await store.getComparison(c.id)).toBeNull();
    expect(await store.getComparisonEdges(c.id)).toEqual([]);
    expect(await store.deleteComparison(c.id)).toBe(false);
  });

  it("refuses edges for a section that is not there and a comparison of a document that is gone", async () => {
    store = await openWithActs();
    const c = comparison("acta", "actb", "2026-01-01T00:00:00.000Z");
    await store.startComparison(c);
    await expect(store.writeComparison({ comparison: c, aSectionIds: ["acta:s1"], edges: [edge(c, "acta:s1", "actb:missing", 1, 0.5)] })).rejects.toMatchObject(
      { code: "NOT_FOUND" },
    );
    // Nothing of the failed write remains.
    expect(await store.getComparisonEdges(c.id)).toEqual([]);
    await expect(store.startComparison(comparison("acta", "nope", "2026-01-01T00:00:00.000Z"))).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("deleting either document removes its comparisons and their edges; other comparisons stay", async () => {
    store = await openWithActs();
    const actC = makeSections("actc", [{ label: "Article 1", text: "Vendors shall report incidents quickly." }]);
    await store.insertDocument(makeDocument("actc", actC.length), actC, withVectors("actc", actC));
    const ab = comparison("acta", "actb", "2026-01-01T00:00:00.000Z");
    const ac = comparison("acta", "actc", "2026-01-02T00:00:00.000Z");
    const cb = comparison("actc", "actb", "2026-01-03T00:00:00.000Z");
    for (const [c, edges] of [
      [ab, [edge(ab, "acta:s1", "actb:s1", 1, 0.9)]],
      [ac, [edge(ac, "acta:s1", "actc:s1", 1, 0.9)]],
      [cb, [edge(cb, "actc:s1", "actb:s1", 1, 0.8)]],
    ] as const) {
      await store.startComparison(c);
      await store.writeComparison({ comparison: { ...c, status: "complete" }, aSectionIds: edges.map((e) => e.aSectionId), edges: [...edges] });
    }
    expect(await store.deleteDocument("actc")).toBe(true);
    expect((await store.listComparisons()).map((c) => c.id)).toEqual([ab.id]);
    expect((await store.getComparisonEdges(ab.id)).length).toBe(1);
    expect(await store.deleteDocument("actb")).toBe(true);
    expect(await store.listComparisons()).toEqual([]);
    await store.close();
    store = null;
    const report = await checkStoreConsistency(path.join(tmp.dir, "graph.kuzu"), { edgesBothWays: true });
    expect(report.problems).toEqual([]);
  });

  it("finds the k nearest sections of chosen documents through the HNSW index", async () => {
    store = await openWithActs();
    await store.refreshSearchIndex();
    const vectors = await store.getSectionVectors(["acta"]);
    expect([...vectors.keys()].sort()).toEqual(["acta:s1", "acta:s2", "acta:s3"]);
    const found = await store.nearestSections(
      [...vectors].map(([id, vector]) => ({ id, vector })),
      2,
      ["actb"],
    );
    // Section i has the same direction in both acts (axis(i)): each A section's nearest B is its twin.
    expect(found.get("acta:s1")?.[0]?.id).toBe("actb:s1");
    expect(found.get("acta:s2")?.[0]?.id).toBe("actb:s2");
    expect(found.get("acta:s3")?.[0]?.id).toBe("actb:s3");
    expect(found.get("acta:s1")?.every((n) => n.id.startsWith("actb:"))).toBe(true);
    expect(found.get("acta:s1")?.length).toBe(2);
    await expect(store.nearestSections([{ id: "q", vector: axis(0) }], 2, ["bad' id"])).rejects.toMatchObject({ code: "VALIDATION" });
    expect((await store.nearestSections([{ id: "zero", vector: new Float32Array(DIMS) }], 2, ["actb"])).get("zero")).toEqual([]);
  });

  it("canary: Kuzu mistypes whole-number doubles in UNWIND rows; the store keeps every score exact", async () => {
    // Bare Kuzu: the first row's score types the field (double-params.ts). If this starts failing
    // after a Kuzu upgrade, the bug is fixed and the cast may go.
    const file = path.join(tmp.dir, "doubles.kuzu");
    const db = new kuzu.Database(file, 64 * 1024 * 1024);
    const conn = new kuzu.Connection(db, 1);
    try {
      await db.init();
      await conn.init();
      const session = createKuzuSession(conn, file);
      await session.run("CREATE NODE TABLE T(id STRING PRIMARY KEY, score DOUBLE)");
      await session.run("UNWIND $rows AS r CREATE (:T {id: r.id, score: r.score})", {
        rows: [
          { id: "a", score: 1 },
          { id: "b", score: 0.0606 },
        ],
      });
      await session.run("UNWIND $rows AS r CREATE (:T {id: r.id, score: r.score})", {
        rows: [
          { id: "c", score: 0.5 },
          { id: "d", score: 1 },
        ],
      });
      const stored = new Map((await session.run("MATCH (t:T) RETURN t.id AS id, t.score AS score")).map((r) => [String(r.id), Number(r.score)]));
      expect(stored.get("b")).not.toBe(0.0606);
      expect(stored.get("d")).not.toBe(1);
    } finally {
      await conn.close();
      await db.close();
    }
    store = await openWithActs();
    const c = comparison("acta", "actb", "2026-01-01T00:00:00.000Z");
    await store.startComparison(c);
    const scores = [1, 0.0606, 0.5, 0, 1];
    const edges = [
      edge(c, "acta:s1", "actb:s1", 1, 1),
      edge(c, "acta:s1", "actb:s2", 2, 0.0606),
      edge(c, "acta:s2", "actb:s1", 1, 0.5),
      edge(c, "acta:s2", "actb:s2", 2, 0),
      edge(c, "acta:s3", "actb:s3", 1, 1),
    ];
    await store.writeComparison({ comparison: c, aSectionIds: ["acta:s1", "acta:s2", "acta:s3"], edges });
    expect((await store.getComparisonEdges(c.id)).map((e) => e.score)).toEqual(scores);
  });

  it("keeps comparison cache entries across document deletes", async () => {
    store = await openWithActs();
    await store.putComparisonCache({ key: "k1", kind: "verdict", modelId: "tiny", version: "v1", json: '{"x":1}' });
    await store.deleteDocument("actb");
    expect(await store.getComparisonCache(["k1", "k2"])).toEqual(new Map([["k1", '{"x":1}']]));
  });
});

describe("canary: SIMILAR_TO edges survive the checkpoint after another document's delete", () => {
  it("a deleted document in a CSR region of its own takes no other comparison's edges (bare Kuzu loses them)", { timeout: 180_000 }, async () => {
    const dbPath = path.join(tmp.dir, "library", "graph.kuzu");
    // Section offsets: "other" 0–4, "kept" 5–1023 (the first 1,024-node CSR region is full), "gone"
    // 1024–1030 alone in the next region, as a re-imported document always lands in fresh ones.
    const other = makeSections("other", fillerSpecs(4, "obligation"));
    const kept = makeSections("kept", fillerSpecs(1018, "duty"));
    expect(other.length + kept.length).toBe(1024);
    const gone = makeSections("gone", fillerSpecs(6, "rule"));
    store = createKuzuStore({ dbPath, minFreeBytes: 0 });
    await store.open();
    await store.useEmbeddingSpace({ modelId: "axis-8", dimensions: DIMS });
    for (const [id, sections] of [
      ["other", other],
      ["kept", kept],
      ["gone", gone],
    ] as const) {
      await store.insertDocument(makeDocument(id, sections.length), sections, withVectors(id, sections));
    }
    // kept → other must survive; gone → other goes with gone. Deleting gone's edges empties the
    // only forward region they touched, which made Kuzu drop the node group's whole adjacency.
    const keep = comparison("kept", "other", "2026-01-01T00:00:00.000Z");
    const from = comparison("gone", "other", "2026-01-03T00:00:00.000Z");
    const keptEdges = kept.slice(1, 41).map((s, i) => edge(keep, s.id, other[1 + (i % 4)]?.id ?? "", 1, 0.5));
    const goneEdges = gone.slice(1).map((s, i) => edge(from, s.id, other[1 + (i % 4)]?.id ?? "", 1, 0.5));
    for (const [c, edges] of [
      [keep, keptEdges],
      [from, goneEdges],
    ] as const) {
      await store.startComparison(c);
      await store.writeComparison({ comparison: { ...c, status: "complete" }, aSectionIds: edges.map((e) => e.aSectionId), edges: [...edges] });
    }
    await store.close();
    store = null;

    const similarTo = async (file: string): Promise<string[]> => {
      const db = new kuzu.Database(file, 64 * 1024 * 1024, true, true);
      const conn = new kuzu.Connection(db, 1);
      try {
        await db.init();
        await conn.init();
        const session = createKuzuSession(conn, file);
        const views = await readEdgesBothWays(
          session,
          (await readRelConnections(session)).filter((c) => c.rel === "SIMILAR_TO"),
        );
        return views.forward;
      } finally {
        await conn.close();
        await db.close();
      }
    };
    expect(await similarTo(dbPath)).toHaveLength(40 + 6);

    // Bare Kuzu, on a copy: gone's sections deleted edge by edge with no anchors, then a checkpoint.
    // If this starts failing after a Kuzu upgrade, the bug is fixed and the guard may go.
    const bare = path.join(tmp.dir, "bare.kuzu");
    await copyFile(dbPath, bare);
    {
      const db = new kuzu.Database(bare, 64 * 1024 * 1024, true, false, 0, false);
      const conn = new kuzu.Connection(db, 1);
      try {
        await db.init();
        await conn.init();
        const session = createKuzuSession(conn, bare);
        const connections = await readRelConnections(session);
        await session.transaction(() => deleteNodesWithEdges(session, connections, { table: "Section", where: "n.documentId = 'gone'" }, {}));
        await session.run("CHECKPOINT");
      } finally {
        await conn.close();
        await db.close();
      }
    }
    expect((await similarTo(bare)).filter((e) => e.includes("kept:")).length).toBeLessThan(40);

    // The store: the delete and its checkpoint (every close checkpoints), twice, with a re-import between.
    for (let round = 0; round < 2; round++) {
      store = createKuzuStore({ dbPath, minFreeBytes: 0 });
      await store.open();
      if (round === 1) await store.insertDocument(makeDocument("gone", gone.length), gone, withVectors("gone", gone));
      expect(await store.deleteDocument("gone")).toBe(true);
      await store.close();
      store = null;
    }
    const survived = await similarTo(dbPath);
    expect(survived).toEqual(keptEdges.map((e) => `SIMILAR_TO ${e.aSectionId} -> ${e.bSectionId}`).sort());
    expect((await checkStoreConsistency(dbPath, { edgesBothWays: true })).problems).toEqual([]);

    store = createKuzuStore({ dbPath, minFreeBytes: 0 });
    await store.open();
    expect((await store.listComparisons()).map((c) => c.id)).toEqual([keep.id]);
    expect((await store.getComparisonEdges(keep.id)).length).toBe(40);
  });
});
