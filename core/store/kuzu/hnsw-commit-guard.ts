import { ClauseGraphError } from "../../model/errors.ts";
import type { EmbeddingSpace } from "../../model/store-records.ts";
import type { KuzuSession, Params } from "./session.ts";
import type { VectorTableSpec } from "./schema.ts";
import { vectorLiteral } from "./store-rows.ts";

// Kuzu 0.11.3 loses committed rows when a transaction that inserts into a table with an HNSW
// index also inserts into other node tables ("imports reported ok that vanish").
//
// LocalStorage::commit() walks its std::unordered_map of per-table local storage and commits node
// tables first. A node table with an HNSW index inserts the new vectors into the index *during*
// that walk (OnDiskHNSWIndex::commitInsert), which creates local storage for the index's two
// internal relationship tables, i.e. inserts into the map being iterated. When that insert makes
// the map rehash (libstdc++: past 13, 29, 59 … entries), the walk continues over a relinked list
// and silently skips node tables: their rows stay visible inside the transaction up to COMMIT,
// their primary keys land in the hash index, and the rows are gone. Measured on bare Kuzu
// (test/integration/store-hnsw-commit.test.ts): k plain node tables + one HNSW table written in one
// transaction lose every plain table's row for k = 12 and k = 28, and none for the other k up to 30.
// An import writes Document, Section, Reference, Entity, Triplet and their edges beside the two
// vector tables, so the documents whose table count landed on a boundary vanished (the probe's
// two-article text files did); with the full-text index present (it is dropped before every
// write) its own tables had already grown the map past the boundary, which is why skipping the
// DROP_FTS_INDEX "fixed" it.
//
// The rule kept here: a transaction that inserts into a vector-indexed table inserts into no other
// node table. Then the walk has a single node table to visit, and whatever the index adds while it
// is committed are relationship tables, which the second walk (over relationship tables) starts
// afresh. Each vector table is written in a transaction of its own through this module, and its
// callers mark the document as not embedded until the last one is in (a crash in between is
// healed by re-embedding on the next start, see GraphStore.documentsMissingEmbeddings).

export interface VectorRowsWrite {
  documentId: string;
  spec: VectorTableSpec;
  space: EmbeddingSpace;
  vectors: ReadonlyMap<string, Float32Array>;
  /** The section a vector belongs to (its own id for a section vector). */
  sectionOf: (id: string) => string;
  batchSize: number;
}

/** The rows of one vector table as UNWIND parameters; refuses vectors of another width. */
function vectorRows(write: VectorRowsWrite): Params[] {
  const rows: Params[] = [];
  for (const [id, vector] of write.vectors) {
    if (vector.length !== write.space.dimensions) {
      throw new ClauseGraphError(
        "VALIDATION",
        `a vector of ${vector.length} dimensions does not fit the ${write.space.modelId} space (${write.space.dimensions})`,
      );
    }
    rows.push({ id, documentId: write.documentId, sectionId: write.sectionOf(id), vector: vectorLiteral(vector) });
  }
  return rows;
}

/**
 * Inserts one document's vectors into one vector table, in a transaction that writes nothing else.
 * Must not be called inside another transaction (Kuzu refuses a nested BEGIN, so a caller that
 * tries fails loudly instead of mixing tables).
 */
export async function commitVectorRows(session: KuzuSession, write: VectorRowsWrite): Promise<number> {
  const rows = vectorRows(write);
  if (rows.length === 0) return 0;
  const { table } = write.spec;
  const dims = write.space.dimensions;
  await session.transaction(async () => {
    for (let i = 0; i < rows.length; i += write.batchSize) {
      await session.run(
        `UNWIND $rows AS r CREATE (:${table} {id: r.id, documentId: r.documentId, sectionId: r.sectionId,
           vector: CAST(r.vector AS FLOAT[${dims}])})`,
        { rows: rows.slice(i, i + write.batchSize) },
      );
    }
  });
  return rows.length;
}
