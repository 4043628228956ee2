import { cypherString } from "./driver.ts";
import type { KuzuSession } from "./session.ts";

// Kuzu 0.11.3 loses edges when a checkpoint follows deletions (found by the soak; the
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
// (test/integration/store-rel-checkpoint.test.ts).
//
// The guard: before any checkpoint can write deletions, each relationship table gets one edge per
// node group that still has edges (in each direction) deleted and re-created unchanged. The
// re-created edge is a change in a region that keeps an edge, so the sum is never 0 while edges
// survive, and Kuzu then rewrites the changed regions correctly. A node group left with no edge
// at all is rightly emptied. The store checkpoints itself (automatic checkpoints are off), so the
// only checkpoint that could come between deletions and their anchors is one after a crash: the
// store anchors again when it opens a library whose log was left behind. Cost: a few
// milliseconds per table and delete.

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
 * before the checkpoint that writes the deletions, and in a transaction that creates no nodes:
 * Kuzu 0.11.3 replays a transaction that re-creates an edge this way and also creates nodes
 * wrongly after a crash (the kill runs lost the new nodes, differently at each opening). So it
 * ends the transaction of a delete, which only deletes, or runs in a transaction of its own right
 * after one that replaced data (writers/, kuzu-store.ts). Returns how many edges were re-created.
 */
export async function anchorSurvivingEdges(session: KuzuSession, connections: readonly RelConnection[]): Promise<number> {
  let recreated = 0;
  // Most libraries fit one node group per table; then any one edge covers it, and finding one
  // needs no scan of the whole table.
  const lastOffsets = new Map<string, number>();
  const lastOffset = async (table: string): Promise<number> => {
    let last = lastOffsets.get(table);
    if (last === undefined) {
      const [row] = await session.run(`MATCH (n:${identifier(table)}) RETURN max(offset(id(n))) AS m`);
      last = Number(row?.m ?? 0);
      lastOffsets.set(table, last);
    }
    return last;
  };
  for (const c of connections) {
    const rel = identifier(c.rel);
    const from = identifier(c.from);
    const to = identifier(c.to);
    const fromKey = identifier(c.fromKey);
    const toKey = identifier(c.toKey);
    const oneGroup = (await lastOffset(c.from)) < KUZU_NODE_GROUP_SIZE && (await lastOffset(c.to)) < KUZU_NODE_GROUP_SIZE;
    const pairs = oneGroup
      ? [{ fromGroup: 0, toGroup: 0 }]
      : coveringPairs(
          (
            await session.run(
              `MATCH (a:${from})-[:${rel}]->(b:${to})
               RETURN DISTINCT offset(id(a)) / ${KUZU_NODE_GROUP_SIZE} AS fromGroup, offset(id(b)) / ${KUZU_NODE_GROUP_SIZE} AS toGroup`,
            )
          ).map((g) => ({ fromGroup: Number(g.fromGroup), toGroup: Number(g.toGroup) })),
        );
    const props = c.properties.map(identifier);
    const carried = props.map((p, i) => `r.${p} AS p${i}`);
    const assigned = props.map((p, i) => `${p}: p${i}`);
    for (const pair of pairs) {
      const [edge] = oneGroup
        ? await session.run(`MATCH (a:${from})-[:${rel}]->(b:${to}) RETURN a.${fromKey} AS a, b.${toKey} AS b LIMIT 1`)
        : await session.run(
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
