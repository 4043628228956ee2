import type { FeatureHandlers, HandlerContext } from "./handler-types.ts";

// Crosswalks between two documents: running one (a tracked job), and reading, exporting and
// deleting the ones kept.

type CompareChannels = "compare.run" | "compare.list" | "compare.get" | "compare.pair" | "compare.export" | "compare.delete";

export function compareHandlers({ engine, jobs }: HandlerContext): FeatureHandlers<CompareChannels> {
  return {
    "compare.run": (params) => {
      const { documentA, documentB, k, verdicts, provisions, jobId } = params;
      return jobs.runTracked(jobId, (signal, onProgress) =>
        engine.compareDocuments(documentA, documentB, {
          ...(k === undefined ? {} : { k }),
          ...(verdicts === undefined ? {} : { verdicts }),
          ...(provisions === undefined ? {} : { provisions }),
          ...(jobId === undefined ? {} : { jobId }),
          signal,
          onProgress,
        }),
      );
    },
    "compare.list": () => engine.listComparisons(),
    "compare.get": (params) => engine.getComparison(params.id),
    "compare.pair": (params) => engine.getComparisonPair(params.id, params.aSectionId, params.bSectionId),
    "compare.export": (params) => engine.exportComparison(params.id, params.format),
    "compare.delete": (params) => engine.deleteComparison(params.id),
  };
}
