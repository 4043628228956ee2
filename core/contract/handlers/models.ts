import type { FeatureHandlers, HandlerContext } from "./handler-types.ts";

// Local language models: which are known, which answers, importing one, and the answer limits.

type ModelChannels = "models.list" | "models.select" | "models.import" | "models.limits";

export function modelHandlers({ engine }: HandlerContext): FeatureHandlers<ModelChannels> {
  return {
    "models.list": () => engine.listModels(),
    "models.select": (params) => {
      const { modelId, threads, contextSize } = params;
      return engine.selectModel(modelId, {
        ...(threads === undefined ? {} : { threads }),
        ...(contextSize === undefined ? {} : { contextSize }),
      });
    },
    "models.import": (params) => engine.importModel(params.path),
    "models.limits": (params) => engine.setAnswerLimits(params),
  };
}
