import path from "node:path";
import {
  type GbnfJsonSchema,
  type Llama,
  type LlamaContext,
  type LlamaModel,
  GgufInsights,
  getLlama,
  InsufficientMemoryError,
  LlamaJsonSchemaGrammar,
  LlamaLogLevel,
} from "node-llama-cpp";
import { ClauseGraphError, isClauseGraphError } from "../model/errors.ts";
import { type GgufHeader, readGgufHeader } from "./gguf-header.ts";
import { LlamaClient, type LoadedLlm } from "./llama-client.ts";
import { type LlmSettings, type LlmSettingsInput, resolveLlmSettings } from "./llm-settings.ts";
import { assertFitsInRam, estimateRamFromHeader, type MemoryProbe, systemMemoryProbe } from "./memory-check.ts";

// The engine owns one LlmRuntime; it starts llama.cpp (one Llama instance) the first time a model is
// loaded and frees it in dispose(). Nothing is global, so two engines (or two tests) in one process
// never share or leak native state.

export type LlmGpu = false | "auto";

export interface LlmRuntimeOptions {
  /**
   * false (default): CPU only, which works everywhere with the prebuilt binary. "auto" lets
   * node-llama-cpp use Metal/CUDA/Vulkan when a prebuilt binary for it works; only on request.
   */
  gpu?: LlmGpu;
  /** Defaults to the OS's total and available memory. */
  memoryProbe?: MemoryProbe;
  /** llama.cpp messages at or above this level go to stderr. Default "error". */
  logLevel?: "error" | "warn" | "info" | "disabled";
  /** How the Llama instance is made; a seam for tests. Never builds from source or downloads. */
  createLlama?: (gpu: LlmGpu) => Promise<Llama>;
}

export interface LoadLlmOptions extends LlmSettingsInput {
  /** A .gguf file. */
  modelPath: string;
  /** The manifest id, when known; defaults to the file name. */
  modelId?: string;
  /** Aborting rejects the load with CANCELLED. */
  signal?: AbortSignal;
  /** Load progress from 0 to 1. */
  onLoadProgress?: (fraction: number) => void;
}

export interface LlmRuntime {
  /**
   * Validates and loads a GGUF model. Throws MODEL_NOT_FOUND, MODEL_INVALID, MODEL_TOO_LARGE_FOR_RAM,
   * MODEL_TIMEOUT (settings.loadTimeoutMs, default 2 minutes), CANCELLED or VALIDATION (settings).
   */
  loadLlm(options: LoadLlmOptions): Promise<LoadedLlm>;
  /** Closes every model loaded through this runtime, then llama.cpp itself. */
  dispose(): Promise<void>;
}

const LOG_LEVELS = {
  error: LlamaLogLevel.error,
  warn: LlamaLogLevel.warn,
  info: LlamaLogLevel.info,
  disabled: LlamaLogLevel.disabled,
} as const;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// Long function: a closure over node-llama-cpp's handle and its load limits.
export function createLlmRuntime(options: LlmRuntimeOptions = {}): LlmRuntime {
  const gpu = options.gpu ?? false;
  const probe = options.memoryProbe ?? systemMemoryProbe;
  const logLevel = LOG_LEVELS[options.logLevel ?? "error"];
  const createLlama =
    options.createLlama ?? ((g: LlmGpu) => getLlama({ gpu: g, build: "never", skipDownload: true, usePrebuiltBinaries: true, progressLogs: false, logLevel }));
  let llama: Promise<Llama> | null = null;
  let started: Llama | null = null;
  let disposed = false;
  const clients = new Set<LlamaClient>();

  function getRuntimeLlama(): Promise<Llama> {
    llama ??= createLlama(gpu).then(
      async (instance) => {
        if (disposed) {
          // dispose() ran while llama.cpp was starting: free it now that it exists.
          await instance.dispose();
          throw new ClauseGraphError("CANCELLED", "The model runtime was disposed while it started.");
        }
        started = instance;
        return instance;
      },
      (err: unknown) => {
        llama = null; // let a later load try again
        throw new ClauseGraphError("INTERNAL", `The local model runtime (llama.cpp) could not start: ${message(err)}`, { cause: err });
      },
    );
    return llama;
  }

  async function checkMemory(header: GgufHeader, settings: LlmSettings, runtime: Llama | null): Promise<void> {
    const memory = await probe();
    if (runtime === null) {
      // Fast pre-check from the header alone; with GPU offload the weights may live elsewhere.
      if (gpu === false || settings.gpuLayers === 0) assertFitsInRam(estimateRamFromHeader(header, settings.contextSize), memory, header.file);
      return;
    }
    // node-llama-cpp's own estimate knows the compute buffers and the real KV cache layout.
    const insights = await GgufInsights.from(header.info, runtime);
    if (!insights.isSupportedByLlamaCpp) {
      throw new ClauseGraphError("MODEL_INVALID", `The model architecture "${header.architecture}" is not supported by this version of llama.cpp.`, {
        file: header.file,
      });
    }
    const gpuLayers = runtime.supportsGpuOffloading ? settings.gpuLayers : 0;
    const modelRam = await insights.estimateModelResourceRequirementsV2({ gpuLayers });
    const contextRam = await insights.estimateContextResourceRequirementsV2({
      contextSize: settings.contextSize,
      modelGpuLayers: gpuLayers,
      sequences: 1,
    });
    assertFitsInRam(modelRam.cpuRam + contextRam.cpuRam, memory, header.file);
  }

  async function loadInto(
    load: LoadLlmOptions,
    header: GgufHeader,
    settings: LlmSettings,
    signal: AbortSignal,
    created: { model?: LlamaModel; context?: LlamaContext },
  ): Promise<LoadedLlm> {
    const runtime = await getRuntimeLlama();
    signal.throwIfAborted();
    await checkMemory(header, settings, runtime);
    signal.throwIfAborted();
    try {
      created.model = await runtime.loadModel({
        modelPath: header.file,
        gpuLayers: runtime.supportsGpuOffloading ? settings.gpuLayers : 0,
        loadSignal: signal,
        ...(load.onLoadProgress === undefined ? {} : { onLoadProgress: load.onLoadProgress }),
      });
      signal.throwIfAborted();
      created.context = await created.model.createContext({
        contextSize: settings.contextSize,
        threads: settings.threads,
        sequences: 1,
        createSignal: signal,
      });
      signal.throwIfAborted();
    } catch (err) {
      if (signal.aborted || isClauseGraphError(err)) throw err;
      if (err instanceof InsufficientMemoryError) {
        throw new ClauseGraphError("MODEL_TOO_LARGE_FOR_RAM", `Not enough memory to load this model: ${message(err)}`, { file: header.file, cause: err });
      }
      throw new ClauseGraphError("MODEL_INVALID", `llama.cpp could not load ${header.file}: ${message(err)}`, { file: header.file, cause: err });
    }
    const client: LlamaClient = new LlamaClient({
      modelId: load.modelId ?? path.basename(header.file),
      modelPath: header.file,
      architecture: header.architecture,
      settings,
      model: created.model,
      context: created.context,
      createGrammar: async (schema) => new LlamaJsonSchemaGrammar<GbnfJsonSchema>(runtime, schema),
      createTextGrammar: async (gbnf) => runtime.createGrammar({ grammar: gbnf }),
      onClosed: async () => {
        clients.delete(client);
      },
    });
    clients.add(client);
    if (disposed) {
      // The runtime was disposed while this model loaded: nobody can close it later.
      await client.close();
      throw new ClauseGraphError("CANCELLED", "The model runtime was disposed while the model loaded.", { file: header.file });
    }
    return client;
  }

  async function loadLlm(load: LoadLlmOptions): Promise<LoadedLlm> {
    if (disposed) throw new ClauseGraphError("INTERNAL", "The model runtime has been disposed.");
    const file = path.resolve(load.modelPath);
    const header = await readGgufHeader(file);
    const settings = resolveLlmSettings(load, { trainContextSize: header.contextLength });
    await checkMemory(header, settings, null);

    const controller = new AbortController();
    const timeout = new ClauseGraphError("MODEL_TIMEOUT", `Loading the model took longer than ${Math.round(settings.loadTimeoutMs / 1000)} s.`, { file });
    const timer = setTimeout(() => controller.abort(timeout), settings.loadTimeoutMs);
    const onAbort = (): void => controller.abort(new ClauseGraphError("CANCELLED", "Model loading cancelled.", { file }));
    if (load.signal?.aborted === true) onAbort();
    else load.signal?.addEventListener("abort", onAbort, { once: true });
    const created: { model?: LlamaModel; context?: LlamaContext } = {};
    const loading = loadInto(load, header, settings, controller.signal, created);
    // Starting llama.cpp cannot be interrupted, so the timeout races the load rather than waiting
    // for it to notice the signal; whatever the late load produces is freed when it arrives.
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
      if (controller.signal.aborted) reject(controller.signal.reason);
    });
    aborted.catch(() => undefined); // only the race observes it; an abort after the load settles is moot
    try {
      return await Promise.race([loading, aborted]);
    } catch (err) {
      void loading.then(
        (client) => client.close(),
        async () => {
          await created.context?.dispose();
          await created.model?.dispose();
        },
      );
      if (controller.signal.aborted && isClauseGraphError(controller.signal.reason)) throw controller.signal.reason;
      throw err;
    } finally {
      clearTimeout(timer);
      load.signal?.removeEventListener("abort", onAbort);
    }
  }

  async function dispose(): Promise<void> {
    if (disposed) return;
    disposed = true;
    await Promise.all([...clients].map((c) => c.close()));
    // A start still under way is not awaited (it may hang: that is what the load timeout is for);
    // it frees itself when it finishes.
    const instance = started;
    started = null;
    if (instance !== null) await instance.dispose();
  }

  return { loadLlm, dispose };
}
