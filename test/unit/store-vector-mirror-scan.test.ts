import { describe, expect, it } from "vitest";
import { createMatrixScan, loopScores } from "../../core/store/matrix-scan.ts";
import { VectorMirror, type VectorRow } from "../../core/store/kuzu/vector-mirror.ts";

// The exact vector search scores every row through onnxruntime's MatMul and re-scores the rows
// near the cut-off itself: its results equal the plain loop's, ties and all.

function randomRows(n: number, dims: number, seed: number, documents: number): VectorRow[] {
  let s = seed;
  const next = (): number => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31 - 0.5;
  };
  const rows: VectorRow[] = [];
  for (let i = 0; i < n; i++) {
    // Every fifth row repeats the one before it: equal scores, told apart by id.
    const vector = i % 5 === 4 && rows.length > 0 ? Array.from(rows[rows.length - 1]?.vector ?? []) : Array.from({ length: dims }, next);
    rows.push({ id: `t${String(i).padStart(5, "0")}`, documentId: `d${i % documents}`, sectionId: `d${i % documents}:s${i}`, vector });
  }
  return rows;
}

function mirrorOf(rows: readonly VectorRow[], dims: number): VectorMirror {
  const mirror = new VectorMirror(dims);
  const byDocument = new Map<string, VectorRow[]>();
  for (const r of rows) byDocument.set(r.documentId, [...(byDocument.get(r.documentId) ?? []), r]);
  for (const [id, list] of byDocument) mirror.setDocument(id, list);
  return mirror;
}

describe("vector mirror scan", () => {
  it("scores rows as the loop does, to 32-bit precision", async () => {
    const dims = 24;
    const matrix = Float32Array.from({ length: 300 * dims }, (_, i) => Math.sin(i));
    const query = Float32Array.from({ length: dims }, (_, i) => Math.cos(i));
    const scan = createMatrixScan();
    const fast = await scan.scores(matrix, 300, dims, query);
    const loop = loopScores(matrix, 300, dims, query);
    for (let i = 0; i < 300; i++) expect(fast[i]).toBeCloseTo(loop[i] ?? 0, 4);
  });

  it("gives the loop's top k, in the same order, through the runtime and after a change", async () => {
    const dims = 32;
    const rows = randomRows(3000, dims, 11, 17);
    const mirror = mirrorOf(rows, dims);
    const scan = createMatrixScan();
    const query = Float32Array.from(rows[7]?.vector ?? []);
    for (const k of [1, 5, 50, 400]) expect(await mirror.search(query, k, scan)).toEqual(await mirror.search(query, k));
    mirror.dropDocument("d3");
    mirror.addRows(
      "d4",
      randomRows(40, dims, 99, 1).map((r) => ({ ...r, id: `x${r.id}`, documentId: "d4", sectionId: `d4:${r.sectionId}` })),
    );
    const after = await mirror.search(query, 60, scan);
    expect(after).toEqual(await mirror.search(query, 60));
    expect(after.some((h) => h.sectionId.startsWith("d3:"))).toBe(false);
    expect(mirror.size).toBe(3000 - rows.filter((r) => r.documentId === "d3").length + 40);
  });

  it("searches rows handed over packed (a snapshot read whole) as rows added one document at a time", async () => {
    const dims = 16;
    const rows = randomRows(600, dims, 5, 7);
    const built = mirrorOf(rows, dims);
    const blocks = [...built.blocksOf()];
    const values = new Float32Array(rows.length * dims);
    let at = 0;
    for (const b of blocks) {
      values.set(b.values, at);
      at += b.values.length;
    }
    const packed = VectorMirror.fromPacked(
      dims,
      { values, ids: blocks.flatMap((b) => b.ids), sectionIds: blocks.flatMap((b) => b.sectionIds) },
      blocks.map((b) => ({ id: b.documentId, rows: b.ids.length })),
    );
    const scan = createMatrixScan();
    const query = Float32Array.from(rows[11]?.vector ?? []);
    expect(await packed.search(query, 25, scan)).toEqual(await built.search(query, 25));
    expect(packed.sectionVectors(["d2:s2"]).get("d2:s2")).toEqual(built.sectionVectors(["d2:s2"]).get("d2:s2"));
    packed.dropDocument("d1");
    built.dropDocument("d1");
    expect(await packed.search(query, 25, scan)).toEqual(await built.search(query, 25));
    expect(() => VectorMirror.fromPacked(dims, { values, ids: [], sectionIds: [] }, [])).toThrow();
  });
});
