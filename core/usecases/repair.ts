import type { ImportOptions, ImportResult, RepairResult } from "../model/engine-types.ts";
import type { LibraryHealth } from "../model/store-records.ts";
import { ClauseGraphError } from "../model/errors.ts";
import { createKuzuStore } from "../store/kuzu/kuzu-store.ts";
import { withReadCache } from "../store/read-cache.ts";
import { finishRebuild, markRebuilt, planRebuild, rebuiltPath, removeRebuilt } from "../store/library-rebuild.ts";
import { libraryHealth } from "../store/source-record.ts";
import { databasePath, importJob, type EngineContext } from "./context.ts";

/** The library's health: damaged documents, and whether each still has its kept copy. */
export async function checkLibrary(ctx: EngineContext): Promise<LibraryHealth> {
  return libraryHealth(ctx.dataDir, await ctx.serialize(() => ctx.store.checkLibrary()));
}

/**
 * Repairs the library: a full-text index that could not be built (a buffer pool too small for it)
 * is built now, whatever else the check finds; damaged documents are rebuilt from their copies.
 */
export function repairLibrary(ctx: EngineContext, opts: ImportOptions = {}): Promise<RepairResult> {
  if (ctx.callerStore) return Promise.reject(new ClauseGraphError("INTERNAL", "a library with a store given by the caller cannot be rebuilt"));
  return ctx.serialize(async () => {
    await ctx.store.refreshSearchIndex();
    await ctx.store.searchIndexSettled();
    return rebuildLibrary(ctx, opts);
  });
}

/**
 * Builds the library again from the kept copies into a new database and swaps it in
 * (store/library-rebuild.ts); runs in the write queue. Nothing changes when the library is sound,
 * and the old database stays as it was when the rebuild fails or is cancelled.
 */
async function rebuildLibrary(ctx: EngineContext, opts: ImportOptions): Promise<RepairResult> {
  const { dataDir, store, log } = ctx;
  const dbPath = databasePath(dataDir);
  const before = await libraryHealth(dataDir, await store.checkLibrary());
  if (before.damaged.length === 0) return { rebuilt: false, reimported: [], missing: [], backup: null, health: before };
  const plan = await planRebuild(dataDir, await store.listDocuments(), before);
  log(`rebuilding the library: ${plan.items.length} documents from their kept copies, ${plan.missing.length} without one`);
  await removeRebuilt(dbPath);
  const target = withReadCache(createKuzuStore({ dbPath: rebuiltPath(dbPath), log }));
  const reimported: ImportResult[] = [];
  const cancelled = (): ClauseGraphError => new ClauseGraphError("CANCELLED", "the library rebuild was cancelled; the library is as it was");
  await target.open();
  try {
    for (const item of plan.items) {
      if (opts.signal?.aborted) throw cancelled();
      const result = await ctx.pipeline.importFile(item.source, { options: opts, job: importJob(item.source, opts, undefined), target, origin: item.origin });
      reimported.push(result);
      if (result.status === "error" && result.error?.code === "CANCELLED") throw cancelled();
    }
    await target.refreshSearchIndex();
  } catch (err) {
    await target.close().catch(() => undefined);
    await removeRebuilt(dbPath);
    throw err;
  }
  await target.close();
  await markRebuilt(dbPath);
  await store.close();
  let backup: string | null = null;
  try {
    backup = await finishRebuild(dbPath, log);
  } finally {
    await store.open();
  }
  return { rebuilt: true, reimported, missing: plan.missing, backup, health: await libraryHealth(dataDir, await store.checkLibrary()) };
}
