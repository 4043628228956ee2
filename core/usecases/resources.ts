import type { EngineResources } from "../model/engine-types.ts";
import type { EngineContext } from "./context.ts";

/** What the engine keeps between requests, by cache and buffer: each is bounded, and this shows it. */
export function engineResources(ctx: EngineContext): EngineResources {
  const store = ctx.store.memoryUse();
  return {
    readCacheEntries: ctx.store.readCacheStats().entries,
    stemCacheEntries: ctx.retrievalCaches.stems.size,
    contextCacheEntries: ctx.retrievalCaches.contexts.size,
    sectionVectorCacheEntries: ctx.retrievalCaches.sectionVectors.size,
    vectorMirrorRows: store.vectorMirrorRows,
    searchSegments: store.searchSegments,
    searchIndexMb: Math.round(store.searchIndexBytes / 2 ** 20),
    kuzuPoolMb: Math.round(store.poolBytes / 2 ** 20),
    pendingWrites: ctx.writes.pending,
  };
}
