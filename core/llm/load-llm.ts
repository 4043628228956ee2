import type { LoadedLlm } from "./llama-client.ts";
import { createLlmRuntime, type LlmRuntimeOptions, type LoadLlmOptions } from "./llama-runtime.ts";

// One model, its own runtime: for scripts and tools that load a single model. An engine that may
// switch models keeps one createLlmRuntime() instead, so llama.cpp starts once.

export interface StandaloneLoadLlmOptions extends LoadLlmOptions {
  runtime?: LlmRuntimeOptions;
}

/** Loads a GGUF model; close() frees the model and the llama.cpp runtime started for it. */
export async function loadLlm(options: StandaloneLoadLlmOptions): Promise<LoadedLlm> {
  const runtime = createLlmRuntime(options.runtime);
  let client: LoadedLlm;
  try {
    client = await runtime.loadLlm(options);
  } catch (err) {
    await runtime.dispose();
    throw err;
  }
  let closing: Promise<void> | null = null;
  return {
    modelId: client.modelId,
    modelPath: client.modelPath,
    architecture: client.architecture,
    settings: client.settings,
    contextSize: client.contextSize,
    generate: (o) => client.generate(o),
    countTokens: (text) => client.countTokens(text),
    close: () => {
      closing ??= client.close().finally(() => runtime.dispose());
      return closing;
    },
  };
}
