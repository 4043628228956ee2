import kuzu from "kuzu";
import { createKuzuSession, type KuzuSession } from "../../core/store/kuzu/session.ts";
import { readRelConnections, type RelConnection } from "../../core/store/kuzu/rel-checkpoint-guard.ts";
import { VECTOR_TABLES } from "../../core/store/kuzu/schema.ts";

// What "no document is half present" means, checked on the database itself with read-only Cypher:
// every listed document has exactly the sections it records, each linked to it, and nothing
// derived (sections, references, terms, entities, triplets, vectors) exists for a document that is
// not listed; and every edge is found from both of its ends (Kuzu keeps a forward and a backward
// adjacency per relationship table, and a checkpoint bug once emptied one of them, see
// core/store/kuzu/rel-checkpoint-guard.ts). Opens its own read-only connection, so the database must be
// closed by its writer.

export interface ConsistencyReport {
  documents: number;
  problems: string[];
}

const DERIVED_TABLES = ["Section", "Reference", "Term", "Entity", "Triplet", "Deadline", "Comparison"] as const;

export interface EdgeViews {
  /** `REL from -> to` for every edge read from its source node, sorted. */
  forward: string[];
  /** The same, read from each destination node. */
  backward: string[];
}

/**
 * Every edge of every relationship table, looked up from each end node by primary key, one node
 * at a time: a lookup by key makes Kuzu extend from that node, so each view reads one adjacency
 * (a count, or a batch joined in one statement, may read either and hide the loss of the other).
 */
export async function readEdgesBothWays(session: KuzuSession, connections?: readonly RelConnection[]): Promise<EdgeViews> {
  const forward: string[] = [];
  const backward: string[] = [];
  for (const c of connections ?? (await readRelConnections(session))) {
    const pattern = `(a:${c.from})-[:${c.rel}]->(b:${c.to})`;
    const views = [
      { list: forward, table: c.from, key: c.fromKey, end: "a" },
      { list: backward, table: c.to, key: c.toKey, end: "b" },
    ] as const;
    for (const view of views) {
      const keys = (await session.run(`MATCH (n:${view.table}) RETURN n.${view.key} AS k`)).map((r) => r.k ?? null);
      const cypher = `MATCH ${pattern} WHERE ${view.end}.${view.key} = $k RETURN a.${c.fromKey} AS a, b.${c.toKey} AS b`;
      for (const k of keys) {
        for (const r of await session.run(cypher, { k })) view.list.push(`${c.rel} ${String(r.a)} -> ${String(r.b)}`);
      }
    }
  }
  return { forward: forward.sort(), backward: backward.sort() };
}

/** The edges one adjacency holds and the other lacks, as readable lines (at most `limit`). */
export function edgeViewProblems(views: EdgeViews, limit = 5): string[] {
  const count = (list: string[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const e of list) m.set(e, (m.get(e) ?? 0) + 1);
    return m;
  };
  const f = count(views.forward);
  const b = count(views.backward);
  const problems: string[] = [];
  const perTable = new Map<string, { onlyForward: number; onlyBackward: number }>();
  for (const key of new Set([...f.keys(), ...b.keys()])) {
    const diff = (f.get(key) ?? 0) - (b.get(key) ?? 0);
    if (diff === 0) continue;
    const rel = key.split(" ")[0] ?? "";
    const t = perTable.get(rel) ?? { onlyForward: 0, onlyBackward: 0 };
    if (diff > 0) t.onlyForward += diff;
    else t.onlyBackward -= diff;
    perTable.set(rel, t);
  }
  for (const [rel, t] of perTable) {
    problems.push(`${rel}: ${t.onlyForward} edges readable only from their source, ${t.onlyBackward} only from their target`);
  }
  return problems.slice(0, limit);
}

/**
 * Comparisons (schema v7) hold together: both documents of each are listed, and every SIMILAR_TO
 * edge belongs to a comparison that exists, from a section of its A document to one of its B side.
 */
async function comparisonProblems(session: KuzuSession, listed: ReadonlySet<string>): Promise<string[]> {
  const problems: string[] = [];
  const comparisons = await session.run("MATCH (c:Comparison) RETURN c.id AS id, c.documentId AS a, c.otherDocumentId AS b, c.libraryDocuments AS library");
  const byId = new Map(comparisons.map((c) => [String(c.id), c]));
  for (const c of comparisons) {
    if (c.b !== "" && !listed.has(String(c.b))) problems.push(`comparison ${String(c.id)} names unlisted document ${String(c.b)}`);
  }
  const edges = await session.run(
    "MATCH (a:Section)-[r:SIMILAR_TO]->(b:Section) RETURN r.comparisonId AS id, a.documentId AS a, b.documentId AS b, count(*) AS n",
  );
  for (const e of edges) {
    const c = byId.get(String(e.id));
    const side = c === undefined ? [] : c.b === "" ? (Array.isArray(c.library) ? c.library.map(String) : []) : [String(c.b)];
    if (c === undefined) problems.push(`${String(e.n)} SIMILAR_TO edges of missing comparison ${String(e.id)}`);
    else if (c.a !== e.a || !side.includes(String(e.b)))
      problems.push(`${String(e.n)} SIMILAR_TO edges of ${String(e.id)} between ${String(e.a)} and ${String(e.b)}`);
  }
  return problems;
}

export interface ConsistencyOptions {
  /**
   * Also read every edge from both ends (readEdgesBothWays): one query per node, so seconds for a
   * library of thousands of sections; the soak and the delete tests ask for it.
   */
  edgesBothWays?: boolean;
}

export async function checkStoreConsistency(dbPath: string, options: ConsistencyOptions = {}): Promise<ConsistencyReport> {
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
    if (options.edgesBothWays) {
      const views = await readEdgesBothWays(session);
      problems.push(...edgeViewProblems(views));
      // Each section's own link to its document, read from the section.
      const linkedForward = new Set(views.forward.filter((e) => e.startsWith("IN_DOCUMENT ")).map((e) => e.split(" ")[1]));
      const [sectionCount] = await rows("MATCH (s:Section) RETURN count(s) AS n");
      const unreachable = Number(sectionCount?.n ?? 0) - linkedForward.size;
      if (unreachable !== 0) problems.push(`${unreachable} sections cannot reach their document`);
    }
    const vectorTables = VECTOR_TABLES.map((v) => v.table).filter((t) => tables.has(t));
    for (const table of [...DERIVED_TABLES.filter((t) => tables.has(t)), ...vectorTables]) {
      const owners = await rows(`MATCH (x:${table}) RETURN x.documentId AS id, count(x) AS n`);
      for (const o of owners) {
        if (!ids.has(String(o.id))) problems.push(`${String(o.n)} ${table} rows of unlisted document ${String(o.id)}`);
      }
    }
    if (tables.has("Comparison")) problems.push(...(await comparisonProblems(session, ids)));
    return { documents: docs.length, problems };
  } finally {
    await conn.close().catch(() => undefined);
    await db.close().catch(() => undefined);
  }
}
