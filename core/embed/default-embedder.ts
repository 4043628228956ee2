import path from "node:path";
import { buildStaticEmbeddingModel } from "./build-static-model.ts";
import { withDirLock } from "./build-lock.ts";
import type { Embedder } from "../model/embedder.ts";
import { defaultEmbeddingModel, loadModelManifest, type ModelManifest } from "./model-manifest.ts";
import { createOnnxEmbedder } from "./onnx-embedder.ts";
import { readValidStaticBuild, STATIC_MODEL_ID } from "./static-model-config.ts";

// The engine's entry point for the default embedder: the static GloVe model lives in
// <dataDir>/models/<id>/ and is built there on first use (a few seconds, no network).

export interface DefaultEmbedderOptions {
  /** Defaults to models/manifest.json. */
  manifest?: ModelManifest;
  threads?: number;
  batchSize?: number;
  /** Called before a build starts, so a UI can say why the first import takes a few seconds longer. */
  onBuild?: (modelDir: string) => void;
  /**
   * A read-only folder of prebuilt models (`<dir>/<id>/`), e.g. the installer's resources: used
   * when it holds a valid build, so an installed app never spends its first import building one.
   */
  bundledDir?: string;
}

export function defaultModelDir(dataDir: string, modelId: string): string {
  return path.join(dataDir, "models", modelId);
}

/** Builds the default static model into `dataDir` if it is missing or stale; returns its folder. */
export async function ensureDefaultModel(dataDir: string, options: DefaultEmbedderOptions = {}): Promise<string> {
  const manifest = options.manifest ?? (await loadModelManifest());
  const entry = defaultEmbeddingModel(manifest);
  const dir = defaultModelDir(dataDir, entry.id);
  // Only the static model can be made here; a transformer default must be placed by the user and
  // createOnnxEmbedder reports MODEL_NOT_FOUND if it is not.
  if (entry.id !== STATIC_MODEL_ID) return dir;
  if (options.bundledDir !== undefined) {
    const bundled = path.join(options.bundledDir, entry.id);
    if ((await readValidStaticBuild(bundled)) !== null) return bundled;
  }
  if ((await readValidStaticBuild(dir)) !== null) return dir;
  await withDirLock(`${dir}.lock`, async () => {
    // Another process may have finished the build while this one waited for the lock.
    if ((await readValidStaticBuild(dir)) !== null) return;
    options.onBuild?.(dir);
    await buildStaticEmbeddingModel(dir);
  });
  return dir;
}

export async function ensureDefaultEmbedder(dataDir: string, options: DefaultEmbedderOptions = {}): Promise<Embedder> {
  const manifest = options.manifest ?? (await loadModelManifest());
  const entry = defaultEmbeddingModel(manifest);
  const modelDir = await ensureDefaultModel(dataDir, { ...options, manifest });
  return createOnnxEmbedder({
    modelDir,
    manifestEntry: entry,
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
  });
}
