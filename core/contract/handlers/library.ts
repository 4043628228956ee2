import type { FeatureHandlers, HandlerContext } from "./handler-types.ts";

// The library as a whole: its figures, its health check and the rebuild from the kept copies.

type LibraryChannels = "stats" | "library.check" | "library.repair";

export function libraryHandlers({ engine, jobs }: HandlerContext): FeatureHandlers<LibraryChannels> {
  return {
    stats: () => engine.stats(),
    "library.check": () => engine.checkLibrary(),
    "library.repair": (params) => jobs.runTracked(params.jobId, (signal, onProgress) => engine.repairLibrary({ signal, onProgress })),
  };
}
