import type { Embedder } from "../model/embedder.ts";
import { toErrorInfo } from "../model/errors.ts";
import { ensurePrivateDir, tightenDataDir } from "../files/private-files.ts";
import { defaultEmbeddingModel, loadModelManifest } from "../embed/model-manifest.ts";
import type { GraphStore } from "../store/graph-store.ts";
import { createLibraryStore } from "../store/library-store.ts";
import { finishRebuild } from "../store/library-rebuild.ts";
import { withReadCache, type ReadCacheControls } from "../store/read-cache.ts";
import { databasePath, type EngineContext, type Logger } from "./context.ts";

/**
 * Opens the library of a data dir: a rebuild that finished but was not swapped in when the app
 * stopped is completed first, and a library damaged by a storage bug is reported at every open
 * (the user repairs it from the kept copies: `clausegraph check --repair`, the UI).
 */
export async function openLibrary(dataDir: string, given: GraphStore | undefined, log: Logger): Promise<GraphStore & ReadCacheControls> {
  await ensurePrivateDir(dataDir);
  if (!given) await finishRebuild(databasePath(dataDir), log);
  const store = withReadCache(given ?? createLibraryStore({ dbPath: databasePath(dataDir), log }));
  await store.open();
  // Kuzu has just created or reopened its files: owner-only, like everything else in the library.
  await tightenDataDir(dataDir);
  const opening = await store.checkLibrary().catch((err: unknown) => {
    log(`library check failed: ${toErrorInfo(err).message}`);
    return null;
  });
  if (opening && opening.damaged.length > 0) {
    log(`library check: ${opening.damaged.length} damaged document(s): ${opening.damaged.map((d) => `${d.documentId} (${d.problem})`).join(", ")}`);
  }
  return store;
}

/**
 * A library filled with another embedding model (or an interrupted re-embed) is brought up to date
 * in the background, in the write queue; searches meanwhile use BM25, the graph and whatever
 * vectors exist. `embedder`: the caller's choice (undefined: the default model, null: none).
 */
export async function bringVectorsUpToDate(ctx: EngineContext, embedder: Embedder | null | undefined): Promise<void> {
  const space = await ctx.store.embeddingSpace();
  const wanted = embedder === null ? null : (embedder?.id ?? defaultEmbeddingModel(await loadModelManifest()).id);
  if (wanted === null) return;
  const modelChanged = space !== null && space.modelId !== wanted;
  if (!modelChanged && (await ctx.store.documentsMissingEmbeddings()).length === 0) return;
  void ctx
    .serialize(async () => {
      const current = await ctx.getEmbedder();
      if (current && !ctx.isClosed()) await ctx.pipeline.prepareVectors(current, ctx.store);
    })
    .catch((err: unknown) => ctx.log(`re-embedding failed: ${toErrorInfo(err).message}`));
}
