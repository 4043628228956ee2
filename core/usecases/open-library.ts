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
 * stopped is completed first. What is checked at every open comes a moment later
 * (`scheduleOpenChecks`): a first question asked at once need not wait for it.
 */
export async function openLibrary(
  dataDir: string,
  given: GraphStore | undefined,
  log: Logger,
): Promise<{ store: GraphStore & ReadCacheControls; openChecks: OpenChecks }> {
  await ensurePrivateDir(dataDir);
  if (!given) await finishRebuild(databasePath(dataDir), log);
  const store = withReadCache(given ?? createLibraryStore({ dbPath: databasePath(dataDir), log }));
  await store.open();
  return { store, openChecks: scheduleOpenChecks(dataDir, store, log) };
}

/**
 * Idle time after an open before its checks run: a first question asked at once would otherwise
 * wait behind their reads of the whole library (they hold the read lane for a second at ten
 * times the 52-document library).
 */
export const OPEN_CHECKS_AFTER_MS = 3_000;

export interface OpenChecks {
  /** Runs the checks now unless they ran or are running; resolves when they are done. */
  now(): Promise<void>;
  /** At close: what ran is awaited; checks that never started only make the folder owner-only. */
  close(): Promise<void>;
}

/**
 * At every open, once the library is open and a moment later: Kuzu has just created or reopened
 * its files, which are made owner-only like everything else in the library (the folder itself
 * already is, so nothing was readable meanwhile), and a library damaged by a storage bug is
 * reported (the user repairs it from the kept copies: `clausegraph check --repair`, the UI).
 * Neither changes an answer, and on a large library walking its files and counting its rows
 * took longer than opening it.
 */
export function scheduleOpenChecks(dataDir: string, store: Pick<GraphStore, "checkLibrary">, log: Logger): OpenChecks {
  let running: Promise<void> | null = null;
  const tighten = (): Promise<void> => tightenDataDir(dataDir).catch((err: unknown) => log(`library folder not made owner-only: ${toErrorInfo(err).message}`));
  const run = async (): Promise<void> => {
    await tighten();
    const opening = await store.checkLibrary().catch((err: unknown) => {
      log(`library check failed: ${toErrorInfo(err).message}`);
      return null;
    });
    if (opening && opening.damaged.length > 0) {
      log(`library check: ${opening.damaged.length} damaged document(s): ${opening.damaged.map((d) => `${d.documentId} (${d.problem})`).join(", ")}`);
    }
  };
  const now = (): Promise<void> => {
    clearTimeout(timer);
    return (running ??= run());
  };
  const timer = setTimeout(() => void now(), OPEN_CHECKS_AFTER_MS);
  timer.unref();
  return {
    now,
    close: () => {
      clearTimeout(timer);
      return running ?? tighten();
    },
  };
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
