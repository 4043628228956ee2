import type { KuzuSession, Params } from "./session.ts";
import type { RelConnection } from "./rel-checkpoint-guard.ts";
import type { NodeDeletion } from "./schema.ts";

// Nodes are deleted edge by edge, never with DETACH DELETE: Kuzu 0.11.3 replays a DETACH DELETE
// from its write-ahead log wrongly. WALReplayer::replayRelDetachDeletionRecord gives the deleted
// node's vector and the scanned neighbour/edge vectors one shared state, so while it walks a
// node's edges it reads the node id at the position of the current edge: from the second edge on,
// whatever lies there. After a crash between a delete and the next checkpoint, other documents'
// edges came back readable from one end only, or gone (seen in the delete kill runs,
// bench/lib/kill-runs.ts). A plain edge deletion is logged with its own source, target and edge
// id, and replays exactly.

/**
 * Deletes the matching nodes after deleting, one statement per relationship table and end, every
 * edge they have. `detachDangling`: the nodes themselves go with DETACH DELETE, for edges whose
 * other end no longer exists (no MATCH reaches those; see GraphStore.purgeDocument).
 */
export async function deleteNodesWithEdges(
  session: KuzuSession,
  connections: readonly RelConnection[],
  deletion: NodeDeletion,
  params: Params,
  options: { detachDangling?: boolean } = {},
): Promise<void> {
  const { table, where } = deletion;
  for (const c of connections) {
    if (c.from === table) await session.run(`MATCH (n:${table})-[r:${c.rel}]->(:${c.to}) WHERE ${where} DELETE r`, params);
    if (c.to === table) await session.run(`MATCH (:${c.from})-[r:${c.rel}]->(n:${table}) WHERE ${where} DELETE r`, params);
  }
  await session.run(`MATCH (n:${table}) WHERE ${where} ${options.detachDangling ? "DETACH " : ""}DELETE n`, params);
}
