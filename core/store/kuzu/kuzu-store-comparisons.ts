import { ClauseGraphError } from "../../model/errors.ts";
import type { GraphStore } from "../graph-store.ts";
import type { StoreCore } from "./kuzu-store-core.ts";
import { readComparison } from "./readers/comparisons.ts";
import { MAX_K } from "./readers/graph.ts";
import { hasVectorIndex, indexNames, readSpace } from "./readers/metadata.ts";
import { anchorSurvivingEdges } from "./rel-checkpoint-guard.ts";
import { SECTION_VECTORS } from "./schema.ts";
import { toStoreError } from "./store-errors.ts";
import { nearestSectionsIn } from "./vector-neighbours.ts";
import { removeComparison, replaceComparisonEdges, startComparison, updateVerdicts, writeComparisonCache } from "./writers/comparisons.ts";

// The Kuzu store's comparisons of documents: the nearest sections they start from, and their
// records, edges, verdicts and cache. Each runs in the write lane; a deletion of edges anchors the
// surviving ones before anything checkpoints (rel-checkpoint-guard.ts).

type ComparisonMethods = Pick<
  GraphStore,
  "nearestSections" | "startComparison" | "writeComparison" | "setComparisonVerdicts" | "deleteComparison" | "putComparisonCache"
>;

export function createStoreComparisons(core: StoreCore): ComparisonMethods {
  const { dbPath, lanes, vectors, opened, context, beforeWrite, checkpoint, batchSize, fault } = core;
  return {
    nearestSections: (queries, k, documentIds) =>
      // A restricted search projects a graph, which Kuzu counts as a write: the write lane.
      lanes.write(async () => {
        const open = opened();
        const space = await readSpace(open.writer);
        if (space === null || queries.length === 0) return new Map();
        // A comparison is stored in the library anyway, so a read-only one says so here, before any work.
        if (open.readOnly) {
          throw new ClauseGraphError("WRITE_FAILED", `the library ${dbPath} is open read-only: comparisons are stored in it, so none can be computed`, {
            file: dbPath,
          });
        }
        await vectors.refresh();
        if (!hasVectorIndex(await indexNames(open.writer), SECTION_VECTORS)) return new Map();
        return nearestSectionsIn(open.writer, space, queries, Math.min(MAX_K, k), documentIds);
      }),

    startComparison: (comparison) =>
      lanes.write(async () => {
        await beforeWrite(`starting the comparison ${comparison.id}`);
        try {
          await startComparison(opened().writer, comparison);
          await checkpoint();
        } catch (err) {
          throw toStoreError(err, dbPath, `starting the comparison ${comparison.id}`);
        }
      }),

    writeComparison: (write) =>
      lanes.write(async () => {
        const ctx = context();
        await beforeWrite(`storing the comparison ${write.comparison.id}`);
        let deleted = 0;
        try {
          await ctx.session.transaction(async () => {
            deleted = await replaceComparisonEdges(ctx.session, write, batchSize);
            fault("compare:edges");
            // Replaced edges were deleted: the survivors are anchored before anything checkpoints
            // (rel-checkpoint-guard.ts). This transaction creates no node, so the anchors may end it.
            if (deleted > 0) await anchorSurvivingEdges(ctx.session, await ctx.relConnections());
          });
          await checkpoint();
        } catch (err) {
          throw toStoreError(err, dbPath, `storing the comparison ${write.comparison.id}`);
        }
        return { deleted, created: write.edges.length };
      }),

    setComparisonVerdicts: (comparison, verdicts) =>
      lanes.write(async () => {
        const { writer } = opened();
        await beforeWrite(`storing verdicts of the comparison ${comparison.id}`);
        try {
          const updated = await writer.transaction(() => updateVerdicts(writer, comparison, verdicts, batchSize));
          await checkpoint();
          return updated;
        } catch (err) {
          throw toStoreError(err, dbPath, `storing verdicts of the comparison ${comparison.id}`);
        }
      }),

    deleteComparison: (id) =>
      lanes.write(async () => {
        const ctx = context();
        const comparison = await readComparison(ctx.session, id);
        if (comparison === null) return false;
        await beforeWrite(`deleting the comparison ${id}`);
        try {
          await ctx.session.transaction(async () => {
            const deleted = await removeComparison(ctx.session, comparison);
            if (deleted > 0) await anchorSurvivingEdges(ctx.session, await ctx.relConnections());
          });
          await checkpoint();
        } catch (err) {
          throw toStoreError(err, dbPath, `deleting the comparison ${id}`);
        }
        return true;
      }),

    putComparisonCache: (entry) =>
      lanes.write(async () => {
        await beforeWrite("saving a comparison result");
        await writeComparisonCache(opened().writer, entry, new Date().toISOString());
      }),
  };
}
