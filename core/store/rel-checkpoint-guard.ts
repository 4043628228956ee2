import { cypherString, type KuzuSession } from "./kuzu-session.ts";

// Kuzu 0.11.3 loses edges when a checkpoint follows deletions (found by the issue 6 soak; the
// project is archived upstream, so this can only be worked around).
//
// A relationship table keeps its edges per node group (131,072 nodes of the source table for the
// forward direction, of the destination table for the backward one) in a packed CSR split into
// leaf regions of 1,024 nodes. At checkpoint, CSRNodeGroup::checkpointInMemAndOnDisk rewrites only
// the regions that changed, but first sums the edges left in those regions and, when that sum is
// 0, discards the node group's whole persistent CSR: every edge of the other, untouched regions
// goes with it. So deleting a document whose sections sit in 1,024-node regions of their own
// (nodes are never reused, so a re-imported document always lands in fresh regions) wiped the
// IN_DOCUMENT, PART_OF, NEXT, CITES … edges of every other document at the next checkpoint:
// searches came back empty. Reproduced with two node tables and six edges
// (test/unit/store-rel-checkpoint.test.ts).
//
// The guard: inside every transaction that deletes edges, each relationship table gets one edge
// per node group that still has edges (in each direction) deleted and re-created unchanged. The
// re-created edge is a change in a region that keeps an edge, so the sum is never 0 while edges
// survive, and Kuzu then rewrites the changed regions correctly. A node group left with no edge
// at all is rightly emptied. Cost: a scan of each table's edges per delete (milliseconds here).

/** Kuzu's node group size (StorageConfig::NODE_GROUP_SIZE of the npm build, 2^17). */
export const KUZU_NODE_GROUP_SIZE = 131_072;

export interface RelConnection {
  rel: string;
  from: string;
  to: string;
  fromKey: string;
  toKey: string;
  properties: string[];
}

export interface GroupPair {
  fromGroup: number;
  toGroup: number;
}

/**
 * The fewest (source group, destination group) pairs that still touch every source group and
 * every destination group present: one re-created edge per chosen pair then covers both
 * directions of every node group.
 */
export function coveringPairs(pairs: readonly GroupPair[]): GroupPair[] {
  const fromCovered = new Set<number>();
  const toCovered = new Set<number>();
  const chosen: GroupPair[] = [];
  const sorted = [...pairs].sort((a, b) => a.fromGroup - b.fromGroup || a.toGroup - b.toGroup);
  // First pairs that cover two new groups at once, then whatever is still missing.
  for (const pass of [2, 1] as const) {
    for (const p of sorted) {
      const gain = Number(!fromCovered.has(p.fromGroup)) + Number(!toCovered.has(p.toGroup));
      if (gain < pass) continue;
      chosen.push(p);
      fromCovered.add(p.fromGroup);
      toCovered.add(p.toGroup);
    }
  }
  return chosen;
}

function identifier(name: string): string {
  // Table and property names come from the database's own catalog, which our schema fills; the
  // backticks only guard against a name that is also a keyword.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier in the schema: ${name}`);
  return `\`${name}\``;
}

/** Every (relationship table, source table, destination table) with its key and property names. */
export async function readRelConnections(session: KuzuSession): Promise<RelConnection[]> {
  const tables = await session.run("CALL show_tables() WHERE type = 'REL' RETURN name ORDER BY name");
  const out: RelConnection[] = [];
  for (const t of tables) {
    const rel = String(t.name);
    const info = await session.run(`CALL TABLE_INFO(${cypherString(rel)}) RETURN name`);
    const properties = info.map((p) => String(p.name));
    const connections = await session.run(`CALL SHOW_CONNECTION(${cypherString(rel)}) RETURN *`);
    for (const c of connections) {
      out.push({
        rel,
        from: String(c["source table name"]),
        to: String(c["destination table name"]),
        fromKey: String(c["source table primary key"]),
        toKey: String(c["destination table primary key"]),
        properties,
      });
    }
  }
  return out;
}

/**
 * Re-creates one surviving edge per node group of every relationship table (see above). Must run
 * inside the transaction that deleted edges, after the deletions, so that the checkpoint which
 * writes them also writes these. Returns how many edges were re-created.
 */
export async function anchorSurvivingEdges(session: KuzuSession, connections: readonly RelConnection[]): Promise<number> {
  let recreated = 0;
  for (const c of connections) {
    const rel = identifier(c.rel);
    const from = identifier(c.from);
    const to = identifier(c.to);
    const fromKey = identifier(c.fromKey);
    const toKey = identifier(c.toKey);
    const groups = await session.run(
      `MATCH (a:${from})-[:${rel}]->(b:${to})
       RETURN DISTINCT offset(id(a)) / ${KUZU_NODE_GROUP_SIZE} AS fromGroup, offset(id(b)) / ${KUZU_NODE_GROUP_SIZE} AS toGroup`,
    );
    const pairs = coveringPairs(groups.map((g) => ({ fromGroup: Number(g.fromGroup), toGroup: Number(g.toGroup) })));
    const props = c.properties.map(identifier);
    const carried = props.map((p, i) => `r.${p} AS p${i}`);
    const assigned = props.map((p, i) => `${p}: p${i}`);
    for (const pair of pairs) {
      const [edge] = await session.run(
        `MATCH (a:${from})-[:${rel}]->(b:${to})
         WHERE offset(id(a)) >= $fromLo AND offset(id(a)) < $fromHi AND offset(id(b)) >= $toLo AND offset(id(b)) < $toHi
         RETURN a.${fromKey} AS a, b.${toKey} AS b LIMIT 1`,
        {
          fromLo: pair.fromGroup * KUZU_NODE_GROUP_SIZE,
          fromHi: (pair.fromGroup + 1) * KUZU_NODE_GROUP_SIZE,
          toLo: pair.toGroup * KUZU_NODE_GROUP_SIZE,
          toHi: (pair.toGroup + 1) * KUZU_NODE_GROUP_SIZE,
        },
      );
      if (!edge) continue;
      // Every edge between the two nodes is re-created as it was, properties included.
      const rows = await session.run(
        `MATCH (a:${from})-[r:${rel}]->(b:${to}) WHERE a.${fromKey} = $a AND b.${toKey} = $b
         WITH a, b, r${carried.length > 0 ? `, ${carried.join(", ")}` : ""}
         DELETE r
         CREATE (a)-[:${rel}${assigned.length > 0 ? ` {${assigned.join(", ")}}` : ""}]->(b)
         RETURN count(*) AS n`,
        { a: edge.a ?? null, b: edge.b ?? null },
      );
      recreated += Number(rows[0]?.n ?? 0);
    }
  }
  return recreated;
}
