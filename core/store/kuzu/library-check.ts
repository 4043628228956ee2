import type { DamagedDocument, LibraryCheck } from "../../model/store-records.ts";
import type { KuzuSession } from "./session.ts";
import { COMPARISON_TABLE, DEADLINE_TABLE, VECTOR_TABLES } from "./schema.ts";

// The consistency check the engine runs at every open. A document is stored by one transaction
// (its graph) and then its vectors, so a library is consistent when every listed document has
// the sections it records linked to it and no row carries the id of a document that is not
// listed. Kuzu 0.11.3 broke that once (hnsw-commit-guard.ts: a commit kept a document's
// triplets, references and vectors and dropped its Document and Section rows); libraries damaged
// before that fix, or by a bug not known yet, are found here and repaired by the engine from the
// kept source copy. Read-only grouped counts, cheap enough (bench:scale) that
// it runs at every open.

/** Tables whose rows carry the id of the document they come from, besides Document itself (a Comparison: its A document). */
const OWNED_TABLES = ["Section", "Reference", "Term", "Entity", "Triplet", DEADLINE_TABLE, COMPARISON_TABLE, ...VECTOR_TABLES.map((v) => v.table)] as const;

async function existingTables(session: KuzuSession): Promise<Set<string>> {
  return new Set((await session.run("CALL show_tables() RETURN name")).map((r) => String(r.name)));
}

/** The rows stored under one document id, per table (tables without any left out). */
export async function rowsByDocument(session: KuzuSession, documentId: string): Promise<Record<string, number>> {
  const tables = await existingTables(session);
  const rows: Record<string, number> = {};
  if (tables.has("Document")) {
    const [doc] = await session.run("MATCH (d:Document) WHERE d.id = $id RETURN count(d) AS n", { id: documentId });
    if (Number(doc?.n ?? 0) > 0) rows.Document = Number(doc?.n);
  }
  for (const table of OWNED_TABLES) {
    if (!tables.has(table)) continue;
    const [row] = await session.run(`MATCH (x:${table}) WHERE x.documentId = $id RETURN count(x) AS n`, { id: documentId });
    const n = Number(row?.n ?? 0);
    if (n > 0) rows[table] = n;
  }
  return rows;
}

export async function checkLibraryRows(session: KuzuSession): Promise<LibraryCheck> {
  const tables = await existingTables(session);
  if (!tables.has("Document")) return { documents: 0, damaged: [] };
  const docs = await session.run("MATCH (d:Document) RETURN d.id AS id, d.sections AS sections");
  const listed = new Map(docs.map((d) => [String(d.id), Number(d.sections)]));
  const linked = new Map(
    (await session.run("MATCH (s:Section)-[:IN_DOCUMENT]->(d:Document) RETURN d.id AS id, count(s) AS n")).map((r) => [String(r.id), Number(r.n)]),
  );
  const lost = new Map<string, Record<string, number>>();
  for (const table of OWNED_TABLES) {
    if (!tables.has(table)) continue;
    for (const r of await session.run(`MATCH (x:${table}) RETURN x.documentId AS id, count(x) AS n`)) {
      const id = String(r.id);
      if (listed.has(id)) continue;
      const rows = lost.get(id) ?? {};
      rows[table] = Number(r.n);
      lost.set(id, rows);
    }
  }
  const damaged: DamagedDocument[] = [...lost].map(([documentId, rows]) => ({ documentId, problem: "lost", rows }));
  for (const [documentId, recorded] of listed) {
    const have = linked.get(documentId) ?? 0;
    if (have === recorded) continue;
    damaged.push({
      documentId,
      problem: "incomplete",
      rows: await rowsByDocument(session, documentId),
      recordedSections: recorded,
      linkedSections: have,
    });
  }
  damaged.sort((a, b) => (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0));
  return { documents: listed.size, damaged };
}
