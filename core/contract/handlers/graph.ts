import type { FeatureHandlers, HandlerContext } from "./handler-types.ts";

// The knowledge graph: a node's neighbours, an entity's facts, and filling it with a model's
// triplets (a tracked job: every per-document job id, and the caller's own, cancels the run).

type GraphChannels = "graph.neighbors" | "graph.entityFacts" | "triplets.extract";

export function graphHandlers({ engine, jobs }: HandlerContext): FeatureHandlers<GraphChannels> {
  return {
    "graph.neighbors": (params) => engine.graphNeighbors(params.nodeId),
    "graph.entityFacts": (params) => engine.entityFacts(params.nodeId),
    "triplets.extract": (params) => {
      const { documentIds, jobId } = params;
      return jobs.runTracked(jobId, (signal, onProgress) =>
        engine.extractTriplets({ ...(documentIds === undefined ? {} : { documentIds }), signal, onProgress }),
      );
    },
  };
}
