import type { ScoredId } from "../../model/graph-records.ts";
import { loopScores, type MatrixScan } from "../matrix-scan.ts";

// A vector table's rows in memory, one block per document, for exact cosine search. Up to
// `exactVectorLimit` rows (kuzu-store.ts EXACT_VECTOR_LIMIT) a full scan is never approximate and
// is faster than an HNSW query through the binding; an HNSW index serves larger tables (and the
// section vectors always have one, for comparisons).
//
// Blocks follow the writes instead of being reloaded after them: a document's vectors are added
// from what was just committed, a deleted document's block is dropped, and a document whose
// vectors changed some other way (LLM triplets replaced) is reloaded alone. Reloading the whole
// table after every import made the first search after it read every vector again (a cost that
// grows with the library) while the import went on.

export interface VectorRow {
  id: string;
  documentId: string;
  sectionId: string;
  vector: ArrayLike<number>;
}

interface Block {
  ids: string[];
  sectionIds: string[];
  /** Row-major, each row scaled to unit length. */
  values: Float32Array;
  /** Row of each section id (section tables: one row per section), built on first use. */
  rowOfSection?: Map<string, number>;
}

export interface VectorHit extends ScoredId {
  sectionId: string;
}

/** False for the zero vector (and for NaN/∞ components): such a query has no nearest neighbours. */
export function hasDirection(vector: Float32Array): boolean {
  let norm = 0;
  for (const x of vector) norm += x * x;
  return Number.isFinite(norm) && norm > 0;
}

/** `v` scaled to unit length (the zero vector stays zero). */
export function unitVector(v: ArrayLike<number>, dimensions = v.length): Float32Array {
  let norm = 0;
  for (let j = 0; j < dimensions; j++) norm += Number(v[j] ?? 0) ** 2;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const out = new Float32Array(dimensions);
  for (let j = 0; j < dimensions; j++) out[j] = Number(v[j] ?? 0) * scale;
  return out;
}

/**
 * A vector as Kuzu holds it once written: store-rows.ts vectorLiteral prints 7 significant digits
 * (components under 1e-6 as 0) and Kuzu reads them into 32-bit floats. Rows added from a write
 * go through this, so a mirror built from writes equals one read back from the table.
 */
export function storedVector(vector: Float32Array): Float32Array {
  return Float32Array.from(vector, (x) => (Number.isFinite(x) && Math.abs(x) >= 1e-6 ? Math.fround(Number(x.toPrecision(7))) : 0));
}

function blockOf(rows: readonly VectorRow[], dimensions: number): Block {
  const values = new Float32Array(rows.length * dimensions);
  rows.forEach((r, i) => values.set(unitVector(r.vector, dimensions), i * dimensions));
  return { ids: rows.map((r) => r.id), sectionIds: rows.map((r) => r.sectionId), values };
}

/** One document's rows as the mirror holds them (vector-snapshot.ts writes and reads these). */
export interface MirrorBlock {
  documentId: string;
  ids: string[];
  sectionIds: string[];
  /** Row-major unit vectors. */
  values: Float32Array;
}

/**
 * The k-th largest value (the smallest when there are fewer than k), by a min-heap of the k best:
 * sorting a copy of every score was a large part of each search over a large table.
 */
export function kthLargest(values: Float32Array, k: number): number {
  const size = Math.min(Math.max(1, k), values.length);
  if (size === 0) return Number.NEGATIVE_INFINITY;
  const heap = new Float32Array(size);
  const at = (i: number): number => heap[i] ?? 0;
  const swap = (i: number, j: number): void => {
    const t = at(i);
    heap[i] = at(j);
    heap[j] = t;
  };
  let filled = 0;
  for (const x of values) {
    if (filled < size) {
      let c = filled++;
      heap[c] = x;
      while (c > 0) {
        const parent = (c - 1) >> 1;
        if (at(parent) <= at(c)) break;
        swap(parent, c);
        c = parent;
      }
    } else if (x > at(0)) {
      heap[0] = x;
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        const r = l + 1;
        let m = c;
        if (l < size && at(l) < at(m)) m = l;
        if (r < size && at(r) < at(m)) m = r;
        if (m === c) break;
        swap(m, c);
        c = m;
      }
    }
  }
  return at(0);
}

/**
 * How far below the k-th approximate score a row may be and still be re-scored exactly: far
 * above the error of 32-bit sums over unit vectors, far below the gaps that decide a ranking.
 */
const RESCORE_MARGIN = 1e-4;

/** Every block's rows in one matrix, as a scan reads them; the blocks hold views into it. */
interface Packed {
  values: Float32Array;
  ids: string[];
  sectionIds: string[];
}

export class VectorMirror {
  private readonly blocks = new Map<string, Block>();
  private rows = 0;
  /** The rows in one matrix, made on the first search after a change. */
  private packed: Packed | null = null;

  constructor(readonly dimensions: number) {}

  get size(): number {
    return this.rows;
  }

  /**
   * A mirror over rows already packed in one matrix (a snapshot read whole), in the order of
   * `documents`: its blocks view the matrix, so the first search packs nothing.
   */
  static fromPacked(
    dimensions: number,
    packed: { values: Float32Array; ids: string[]; sectionIds: string[] },
    documents: ReadonlyArray<{ id: string; rows: number }>,
  ): VectorMirror {
    const rows = packed.ids.length;
    if (packed.values.length !== rows * dimensions || packed.sectionIds.length !== rows || documents.reduce((sum, d) => sum + d.rows, 0) !== rows) {
      throw new Error(`packed rows do not hold ${dimensions}-dimensional vectors of their documents`);
    }
    const mirror = new VectorMirror(dimensions);
    let row = 0;
    for (const d of documents) {
      if (d.rows === 0) continue;
      mirror.setBlock({
        documentId: d.id,
        ids: packed.ids.slice(row, row + d.rows),
        sectionIds: packed.sectionIds.slice(row, row + d.rows),
        values: packed.values.subarray(row * dimensions, (row + d.rows) * dimensions),
      });
      row += d.rows;
    }
    // Every block views its rows of `values` in this order, as pack() would have left them.
    mirror.packed = packed;
    return mirror;
  }

  /** Replaces a document's block (all its rows of this table). */
  setDocument(documentId: string, rows: readonly VectorRow[]): void {
    this.dropDocument(documentId);
    if (rows.length === 0) return;
    this.blocks.set(documentId, blockOf(rows, this.dimensions));
    this.rows += rows.length;
    this.packed = null;
  }

  /** Adds rows to a document's block (new rows only; ids must not be there yet). */
  addRows(documentId: string, rows: readonly VectorRow[]): void {
    if (rows.length === 0) return;
    const old = this.blocks.get(documentId);
    if (old === undefined) {
      this.setDocument(documentId, rows);
      return;
    }
    const added = blockOf(rows, this.dimensions);
    const values = new Float32Array(old.values.length + added.values.length);
    values.set(old.values);
    values.set(added.values, old.values.length);
    this.blocks.set(documentId, { ids: [...old.ids, ...added.ids], sectionIds: [...old.sectionIds, ...added.sectionIds], values });
    this.rows += rows.length;
    this.packed = null;
  }

  /** Puts a document's rows back as `blocks()` gave them (already unit length). */
  setBlock(block: MirrorBlock): void {
    if (block.values.length !== block.ids.length * this.dimensions || block.sectionIds.length !== block.ids.length) {
      throw new Error(`a block of ${block.ids.length} rows does not hold ${this.dimensions}-dimensional vectors`);
    }
    this.dropDocument(block.documentId);
    if (block.ids.length === 0) return;
    this.blocks.set(block.documentId, { ids: block.ids, sectionIds: block.sectionIds, values: block.values });
    this.rows += block.ids.length;
    this.packed = null;
  }

  /** Every document's rows, in a stable order. */
  *blocksOf(): Iterable<MirrorBlock> {
    for (const documentId of [...this.blocks.keys()].sort()) {
      const b = this.blocks.get(documentId);
      if (b !== undefined) yield { documentId, ids: b.ids, sectionIds: b.sectionIds, values: b.values };
    }
  }

  dropDocument(documentId: string): void {
    const old = this.blocks.get(documentId);
    if (old === undefined) return;
    this.rows -= old.ids.length;
    this.blocks.delete(documentId);
    this.packed = null;
  }

  /** The rows in one matrix; each block then views its part of it, so the rows are held once. */
  private pack(): Packed {
    if (this.packed !== null) return this.packed;
    const dims = this.dimensions;
    const values = new Float32Array(this.rows * dims);
    const ids: string[] = [];
    const sectionIds: string[] = [];
    let at = 0;
    for (const block of this.blocks.values()) {
      const n = block.ids.length;
      values.set(block.values.subarray(0, n * dims), at * dims);
      block.values = values.subarray(at * dims, (at + n) * dims);
      for (let i = 0; i < n; i++) {
        ids.push(block.ids[i] ?? "");
        sectionIds.push(block.sectionIds[i] ?? "");
      }
      at += n;
    }
    this.packed = { values, ids, sectionIds };
    return this.packed;
  }

  /**
   * Cosine top-k by a full scan; ties broken by id so results are reproducible. `scan` computes
   * every row's score; the rows near the k-th are scored again here in 64-bit sums, so the result
   * is the same whatever precision the scan used.
   */
  async search(query: Float32Array, k: number, scan?: MatrixScan): Promise<VectorHit[]> {
    const top = Math.floor(k);
    if (top < 1 || this.rows === 0) return [];
    let qNorm = 0;
    for (const x of query) qNorm += x * x;
    if (!Number.isFinite(qNorm) || qNorm === 0) return [];
    const scale = 1 / Math.sqrt(qNorm);
    const dims = this.dimensions;
    const packed = this.pack();
    const rows = packed.ids.length;
    const unit = Float32Array.from(query, (x) => x * scale);
    const approximate = scan === undefined ? loopScores(packed.values, rows, dims, unit) : await scan.scores(packed.values, rows, dims, unit);
    const floor = kthLargest(approximate, top) - RESCORE_MARGIN;
    const exact: VectorHit[] = [];
    for (let i = 0; i < rows; i++) {
      if ((approximate[i] ?? 0) < floor) continue;
      let dot = 0;
      const base = i * dims;
      for (let j = 0; j < dims; j++) dot += (packed.values[base + j] ?? 0) * (query[j] ?? 0);
      exact.push({ id: packed.ids[i] ?? "", sectionId: packed.sectionIds[i] ?? "", score: Math.fround(dot * scale) });
    }
    return exact.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, top);
  }

  /** Unit vectors of these section ids (a section table has one row per section), as views into the mirror. */
  sectionVectors(sectionIds: readonly string[]): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    const dims = this.dimensions;
    for (const id of sectionIds) {
      const block = this.blocks.get(id.split(":")[0] ?? "");
      if (block === undefined) continue;
      block.rowOfSection ??= new Map(block.sectionIds.map((s, i) => [s, i]));
      const row = block.rowOfSection.get(id);
      if (row !== undefined) out.set(id, block.values.subarray(row * dims, (row + 1) * dims));
    }
    return out;
  }
}
