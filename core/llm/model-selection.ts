import path from "node:path";
import type { AnswerLogModel } from "../model/answer-log-schema.ts";
import type { ModelManifest } from "../embed/model-manifest.ts";
import { ClauseGraphError, type ErrorInfo, toErrorInfo } from "../model/errors.ts";
import { type AnswerLimits, type AnswerLimitsPatch, answerLimitsSchema, DEFAULT_ANSWER_LIMITS } from "../model/answer-limits.ts";
import { readImportRecord } from "./import-record.ts";
import type { LlmClient } from "../model/llm-client.ts";
import type { LlmRuntime, LlmRuntimeOptions } from "./llama-runtime.ts";
import { defaultThreads } from "./llm-settings.ts";
import type { ModelEntry, ModelImportResult, ModelSelectSettings, ModelsState } from "../model/llm-model-schemas.ts";
import { assertModelId, modelsDir } from "./model-paths.ts";
import { findInstalledLlm, listModels, type ModelInfo } from "./model-registry.ts";
import { modelDisplayName } from "./model-display-name.ts";
import { type LlmChoice, readAnswerLimits, readLlmChoice, writeAnswerLimits, writeLlmChoice } from "../files/settings-file.ts";

// Which language model an engine answers with, and switching it while the engine runs. The choice
// is saved in <dataDir>/settings.json; a saved model is loaded on the first question (never at
// start-up, which must stay fast), and if it cannot be loaded the engine answers extractively and
// says why instead of failing. A model being used by a running answer is closed only when that
// answer is done. llama.cpp is started once per engine (one runtime), on the first load.

export interface ModelSelectionOptions {
  /** Where settings.json is kept. */
  dataDir: string;
  /** Models are installed in `<modelRoot>/models/<id>/`. */
  modelRoot: string;
  /**
   * A model the caller loaded (and closes). undefined: use the saved choice; null: no model and
   * ignore the saved choice (benchmarks, tests).
   */
  external?: LlmClient | null;
  runtime?: LlmRuntimeOptions;
  /** Defaults to models/manifest.json. */
  manifest?: ModelManifest;
  log: (message: string) => void;
}

/** A model held for one answer: release() when done so a switch can close it. */
export interface ModelLease {
  llm: LlmClient | null;
  /** What the answer log records about it. */
  model: AnswerLogModel | null;
  /** The name the app shows for it (display name or file name, never just the architecture). */
  name: string | null;
  /** Why the chosen model is not answering (it failed to load), when llm is null for that reason. */
  failure: ErrorInfo | null;
  /** The caps on this answer. */
  limits: AnswerLimits;
  release(): void;
}

export interface ModelSelection {
  /** The model answering now (null: extractive), without loading a saved one. */
  current(): LlmClient | null;
  /** The model for one answer; loads the saved choice first if it has not been tried yet. */
  acquire(signal?: AbortSignal): Promise<ModelLease>;
  state(): Promise<ModelsState>;
  /**
   * Loads `modelId` (null: no model) and makes it the one answering, then saves the choice.
   * Throws MODEL_NOT_FOUND, MODEL_INVALID, MODEL_TOO_LARGE_FOR_RAM, MODEL_TIMEOUT or VALIDATION;
   * on failure the previous model stays in use.
   */
  select(modelId: string | null, settings?: ModelSelectSettings): Promise<ModelsState>;
  importModel(file: string): Promise<ModelImportResult>;
  /** Changes the caps on written answers and saves them (settings.json). */
  setLimits(patch: AnswerLimitsPatch): Promise<ModelsState>;
  close(): Promise<void>;
}

interface Loaded {
  client: LlmClient;
  id: string;
  name: string;
  /** Resolved lazily for a caller's model (its import record, if it has one). */
  sha256: Promise<string | null>;
  owned: boolean;
}

type Status = ModelsState["active"]["status"];

/** A loaded model's file, when the client tells it (LoadedLlm does). */
function modelPathOf(client: LlmClient): string | null {
  const value: unknown = (client as unknown as Record<string, unknown>).modelPath;
  return typeof value === "string" ? value : null;
}

/** The sha256 recorded when the file was imported into a models folder, if it was. */
async function recordedSha256(modelPath: string | null): Promise<string | null> {
  if (modelPath === null) return null;
  const record = await readImportRecord(path.dirname(modelPath));
  return record !== null && record.file === path.basename(modelPath) ? record.sha256 : null;
}

function toEntry(m: ModelInfo, active: boolean): ModelEntry {
  return {
    id: m.id,
    name: m.displayName,
    origin: m.origin,
    present: m.installed,
    sizeBytes: m.installed ? m.sizeBytes : m.approxSizeBytes,
    parameters: m.parameters,
    quantization: m.quantization,
    contextLength: m.contextLength !== null && m.contextLength > 0 ? m.contextLength : null,
    license: m.license?.id ?? null,
    languages: m.languages,
    verified: m.verified,
    active,
  };
}

function settingsOf(choice: LlmChoice | null): ModelSelectSettings {
  return {
    ...(choice?.threads === undefined ? {} : { threads: choice.threads }),
    ...(choice?.contextSize === undefined ? {} : { contextSize: choice.contextSize }),
  };
}

// Long function: a closure over the loaded model, its leases and the saved choice.
export async function openModelSelection(options: ModelSelectionOptions): Promise<ModelSelection> {
  const { dataDir, modelRoot, log } = options;
  const registry = options.manifest === undefined ? {} : { manifest: options.manifest };

  let active: Loaded | null = null;
  let status: Status = "none";
  /** The chosen model while it is pending, loading or failed. */
  let chosen: string | null = null;
  let chosenSettings: ModelSelectSettings = {};
  let error: ErrorInfo | null = null;
  let closed = false;
  let limits: AnswerLimits = { ...DEFAULT_ANSWER_LIMITS };
  try {
    limits = (await readAnswerLimits(dataDir)) ?? limits;
  } catch (err) {
    log(`the saved answer limits could not be read, using the defaults: ${toErrorInfo(err).message}`);
  }

  if (options.external) {
    const client = options.external;
    const file = modelPathOf(client);
    active = {
      client,
      id: client.modelId,
      name: modelDisplayName(null, null, file ?? client.modelId),
      sha256: recordedSha256(file).catch(() => null),
      owned: false,
    };
    status = "ready";
  } else if (options.external === undefined) {
    try {
      const saved = await readLlmChoice(dataDir);
      if (saved !== null && saved.modelId !== null) {
        chosen = saved.modelId;
        chosenSettings = settingsOf(saved);
        status = "pending";
      }
    } catch (err) {
      // A damaged settings file must not keep the library from opening: answer extractively.
      log(`the saved model choice could not be read, answering without a model: ${toErrorInfo(err).message}`);
    }
  }

  let runtime: Promise<LlmRuntime> | null = null;
  const getRuntime = (): Promise<LlmRuntime> => {
    // node-llama-cpp is loaded only when a model is: an engine without one never pays for it.
    runtime ??= import("./llama-runtime.ts").then((m) => m.createLlmRuntime(options.runtime));
    return runtime;
  };

  // Selections and the first load run one at a time, so two quick clicks cannot load two models.
  let queue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  const users = new Map<LlmClient, number>();
  const retiring = new Set<LlmClient>();

  async function closeQuietly(client: LlmClient): Promise<void> {
    await client.close().catch((err: unknown) => log(`closing model ${client.modelId} failed: ${toErrorInfo(err).message}`));
  }

  /** Closes a replaced model once no answer uses it; a caller's model is the caller's to close. */
  async function retire(previous: Loaded | null): Promise<void> {
    if (previous === null || !previous.owned) return;
    if ((users.get(previous.client) ?? 0) > 0) retiring.add(previous.client);
    else await closeQuietly(previous.client);
  }

  async function load(info: ModelInfo, settings: ModelSelectSettings): Promise<Loaded> {
    const rt = await getRuntime();
    const client = await rt.loadLlm({
      modelPath: info.file,
      modelId: info.id,
      // Always explicit: llama.cpp's own default starves a small machine (see llm-settings.ts).
      threads: settings.threads ?? defaultThreads(),
      ...(settings.contextSize === undefined ? {} : { contextSize: settings.contextSize }),
    });
    const sha256 = info.sha256 !== null ? Promise.resolve(info.sha256) : recordedSha256(info.file).catch(() => null);
    return { client, id: info.id, name: info.displayName, sha256, owned: true };
  }

  /** The saved choice, loaded on first use; failure means extractive answers and a logged reason. */
  let firstLoad: Promise<void> | null = null;
  const loadSaved = (): Promise<void> =>
    serialize(async () => {
      if (status !== "pending" || chosen === null || closed) return;
      const id = chosen;
      status = "loading";
      try {
        const info = await findInstalledLlm(modelRoot, id, registry);
        const loaded = await load(info, chosenSettings);
        if (closed) {
          await closeQuietly(loaded.client);
          return;
        }
        active = loaded;
        status = "ready";
        error = null;
        log(`loaded model ${id}`);
      } catch (err) {
        status = "failed";
        error = toErrorInfo(err);
        log(`the saved model "${id}" could not be loaded, answering without a model: ${error.code} ${error.message}`);
      }
    });

  function ensureOpen(): void {
    if (closed) throw new ClauseGraphError("INTERNAL", "the engine is closed");
  }

  async function state(): Promise<ModelsState> {
    const infos = (await listModels(modelRoot, registry)).filter((m) => m.kind === "llm");
    const shownId = status === "ready" ? (active?.id ?? null) : chosen;
    const settings = status === "ready" && active !== null ? null : chosenSettings;
    const loaded = status === "ready" ? active?.client : undefined;
    const threads = loaded !== undefined ? numberSetting(loaded, "threads") : (settings?.threads ?? null);
    return {
      modelsDir: modelsDir(modelRoot),
      active: {
        modelId: shownId,
        status,
        mode: active === null ? "extractive" : "llm",
        threads,
        contextSize: loaded !== undefined ? loaded.contextSize : (settings?.contextSize ?? null),
        error,
        external: active !== null && !active.owned && status === "ready",
      },
      models: infos.map((m) => toEntry(m, m.id === shownId)),
      limits,
    };
  }

  return {
    current: () => active?.client ?? null,

    async acquire(signal) {
      ensureOpen();
      if (status === "pending") {
        firstLoad ??= loadSaved();
        // A Stop while the saved model loads (up to minutes) ends the answer now; the load goes on.
        await untilAborted(firstLoad, signal);
      }
      if (signal?.aborted === true) throw new ClauseGraphError("CANCELLED", "Answering cancelled.");
      const held = active;
      if (held === null) return { llm: null, model: null, name: null, failure: status === "failed" ? error : null, limits, release: () => undefined };
      users.set(held.client, (users.get(held.client) ?? 0) + 1);
      let released = false;
      return {
        llm: held.client,
        model: { id: held.id, sha256: await held.sha256 },
        name: held.name,
        failure: null,
        limits,
        release() {
          if (released) return;
          released = true;
          const left = (users.get(held.client) ?? 1) - 1;
          if (left > 0) {
            users.set(held.client, left);
            return;
          }
          users.delete(held.client);
          if (retiring.delete(held.client)) void closeQuietly(held.client);
        },
      };
    },

    state,

    select(modelId, settings = {}) {
      ensureOpen();
      return serialize(async () => {
        ensureOpen();
        if (modelId === null) {
          const previous = active;
          active = null;
          status = "none";
          chosen = null;
          chosenSettings = {};
          error = null;
          await writeLlmChoice(dataDir, { modelId: null });
          await retire(previous);
          log("no model selected: answers are quoted from the documents");
          return state();
        }
        assertModelId(modelId);
        const info = await findInstalledLlm(modelRoot, modelId, registry);
        const before = { status, chosen, error };
        status = "loading";
        chosen = modelId;
        chosenSettings = settings;
        let loaded: Loaded;
        try {
          loaded = await load(info, settings);
        } catch (err) {
          // The previous model (if any) keeps answering; the failed choice is shown with its reason.
          error = toErrorInfo(err);
          if (active !== null) {
            status = "ready";
            chosen = before.chosen;
          } else {
            status = "failed";
          }
          throw err;
        }
        if (closed) {
          await closeQuietly(loaded.client);
          throw new ClauseGraphError("CANCELLED", "The engine closed while the model loaded.");
        }
        const previous = active;
        active = loaded;
        status = "ready";
        error = null;
        try {
          await writeLlmChoice(dataDir, {
            modelId,
            ...(settings.threads === undefined ? {} : { threads: settings.threads }),
            ...(settings.contextSize === undefined ? {} : { contextSize: settings.contextSize }),
          });
        } catch (err) {
          log(`the model choice could not be saved (it applies until the app closes): ${toErrorInfo(err).message}`);
        }
        await retire(previous);
        log(`selected model ${modelId}`);
        return state();
      });
    },

    async importModel(file) {
      ensureOpen();
      // Reading GGUF headers needs node-llama-cpp's parser: loaded only when importing.
      const { importModel } = await import("./import-model.ts");
      const result = await importModel(modelRoot, file, registry);
      const info = (await listModels(modelRoot, registry)).find((m) => m.id === result.record.id);
      if (info === undefined) throw new ClauseGraphError("INTERNAL", `The imported model ${result.record.id} is not listed.`);
      const shownId = status === "ready" ? (active?.id ?? null) : chosen;
      return { status: result.status, model: toEntry(info, info.id === shownId) };
    },

    setLimits(patch) {
      ensureOpen();
      return serialize(async () => {
        const parsed = answerLimitsSchema.safeParse({ ...limits, ...patch });
        if (!parsed.success)
          throw new ClauseGraphError("VALIDATION", `Invalid answer limits: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
        const next = parsed.data;
        await writeAnswerLimits(dataDir, next);
        limits = next;
        log(`answers are capped at ${next.maxTokens} tokens and ${next.maxSeconds} s`);
        return state();
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      const held = active;
      active = null;
      if (held?.owned === true) await closeQuietly(held.client);
      for (const client of retiring) await closeQuietly(client);
      retiring.clear();
      if (runtime !== null) {
        await runtime.then((rt) => rt.dispose()).catch((err: unknown) => log(`stopping the model runtime failed: ${toErrorInfo(err).message}`));
      }
    },
  };
}

/** Resolves when `work` settles, or rejects with CANCELLED as soon as `signal` aborts. */
function untilAborted(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return work.then(() => undefined);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(new ClauseGraphError("CANCELLED", "Answering cancelled."));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    const done = (): void => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    };
    work.then(done, done);
  });
}

function numberSetting(client: LlmClient, key: "threads"): number | null {
  const settings: unknown = (client as unknown as Record<string, unknown>).settings;
  if (typeof settings !== "object" || settings === null) return null;
  const value: unknown = (settings as Record<string, unknown>)[key];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : null;
}
