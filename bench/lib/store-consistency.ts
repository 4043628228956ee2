import kuzu from "kuzu";
import { createKuzuSession } from "../../core/store/kuzu-session.ts";
import { VECTOR_TABLES } from "../../core/store/schema.ts";

// What "no document is half present" means, checked on the database itself with read-only Cypher:
// every listed document has exactly the sections it records, each linked to it, and nothing
// derived (sections, references, terms, entities, triplets, vectors) exists for a document that is
// not listed. Opens its own read-only connection, so the database must be closed by its writer.

export interface ConsistencyReport {
  documents: number;
  problems: string[];
}

const DERIVED_TABLES = ["Section", "Reference", "Term", "Entity", "Triplet"] as const;

export async function checkStoreConsistency(dbPath: string): Promise<ConsistencyReport> {
  const db = new kuzu.Database(dbPath, 64 * 1024 * 1024, true, true);
  const conn = new kuzu.Connection(db, 1);
  const problems: string[] = [];
  try {
    await db.init();
    await conn.init();
    const session = createKuzuSession(conn, dbPath);
    const rows = (cypher: string): ReturnType<typeof session.run> => session.run(cypher);
    const tables = new Set((await rows("CALL show_tables() RETURN name")).map((r) => String(r.name)));
    if (!tables.has("Document")) return { documents: 0, problems: tables.size === 0 ? [] : ["schema without a Document table"] };
    const docs = await rows("MATCH (d:Document) RETURN d.id AS id, d.sections AS sections");
    const ids = new Set(docs.map((d) => String(d.id)));
    const counts = new Map(
      (await rows("MATCH (s:Section)-[:IN_DOCUMENT]->(d:Document) RETURN d.id AS id, count(s) AS n")).map((r) => [String(r.id), Number(r.n)]),
    );
    for (const d of docs) {
      const id = String(d.id);
      const recorded = Number(d.sections);
      if (recorded < 1) problems.push(`document ${id} records ${recorded} sections`);
      if ((counts.get(id) ?? 0) !== recorded) problems.push(`document ${id} records ${recorded} sections but has ${counts.get(id) ?? 0} linked`);
    }
    const unlinked = await rows("MATCH (s:Section) WHERE NOT EXISTS { MATCH (s)-[:IN_DOCUMENT]->(:Document) } RETURN count(s) AS n");
    if (Number(unlinked[0]?.n ?? 0) > 0) problems.push(`${String(unlinked[0]?.n)} sections without a document`);
    const vectorTables = VECTOR_TABLES.map((v) => v.table).filter((t) => tables.has(t));
    for (const table of [...DERIVED_TABLES.filter((t) => tables.has(t)), ...vectorTables]) {
      const owners = await rows(`MATCH (x:${table}) RETURN x.documentId AS id, count(x) AS n`);
      for (const o of owners) {
        if (!ids.has(String(o.id))) problems.push(`${String(o.n)} ${table} rows of unlisted document ${String(o.id)}`);
      }
    }
    return { documents: docs.length, problems };
  } finally {
    await conn.close().catch(() => undefined);
    await db.close().catch(() => undefined);
  }
}
