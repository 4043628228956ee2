import { randomBytes } from "node:crypto";
import { readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type EmbeddingModelEntry, type LlmModelEntry, loadModelManifest, type ModelManifest } from "../embed/model-manifest.ts";
import { ClauseGraphError } from "../model/errors.ts";
import { type ImportRecord, readImportRecord } from "./import-record.ts";
import { modelDisplayName } from "./model-display-name.ts";
import { assertModelId, modelDir, modelsDir, TRASH_PREFIX } from "./model-paths.ts";

// What models a user has: every manifest entry (recommended LLMs and embedders) with whether it is
// installed in <dataDir>/models, plus the GGUF files the user imported that the manifest does not know.

export interface ModelInfo {
  id: string;
  kind: "llm" | "embedding";
  /** "manifest": a model the app recommends; "imported": a user's own GGUF. */
  origin: "manifest" | "imported";
  displayName: string;
  installed: boolean;
  /** The main model file (GGUF or ONNX), where it is or would be installed. */
  file: string;
  /** On disk, when installed. */
  sizeBytes: number | null;
  /** The manifest's approximate download size. */
  approxSizeBytes: number | null;
  /** Recorded at import (installs placed by hand have none). */
  sha256: string | null;
  /** The recorded sha256 equals the manifest's pinned one. */
  verified: boolean;
  architecture: string | null;
  /** "1.5B" from the manifest, or counted from the GGUF tensors. */
  parameters: string | null;
  contextLength: number | null;
  quantization: string | null;
  languages: string[];
  license: { id: string; url: string; note?: string } | null;
  importedAt: string | null;
}

export interface RegistryOptions {
  /** Defaults to models/manifest.json. */
  manifest?: ModelManifest;
}

async function fileSize(file: string): Promise<number | null> {
  const s = await stat(file).catch(() => null);
  return s !== null && s.isFile() ? s.size : null;
}

/** 1_543_714_304 → "1.5B". */
export function formatParameterCount(count: number): string {
  if (count >= 1e9) return `${(count / 1e9).toFixed(1)}B`;
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  if (count >= 1e3) return `${(count / 1e3).toFixed(0)}K`;
  return String(count);
}

async function describeLlm(dataDir: string, entry: LlmModelEntry): Promise<ModelInfo> {
  const dir = modelDir(dataDir, entry.id);
  const file = path.join(dir, entry.files.model);
  const sizeBytes = await fileSize(file);
  const record = sizeBytes === null ? null : await readImportRecord(dir);
  const sha256 = record !== null && record.file === path.basename(file) ? record.sha256 : null;
  return {
    id: entry.id,
    kind: "llm",
    origin: "manifest",
    displayName: entry.displayName,
    installed: sizeBytes !== null,
    file,
    sizeBytes,
    approxSizeBytes: entry.approxSizeBytes,
    sha256,
    verified: sha256 !== null && sha256 === entry.sha256,
    architecture: record?.architecture ?? entry.architecture ?? null,
    parameters: entry.parameters,
    contextLength: entry.contextLength,
    quantization: entry.quantization,
    languages: entry.languages,
    license: entry.license,
    importedAt: record?.importedAt ?? null,
  };
}

async function describeEmbedder(dataDir: string, entry: EmbeddingModelEntry): Promise<ModelInfo> {
  const dir = modelDir(dataDir, entry.id);
  const files = Object.values(entry.files).filter((f): f is string => f !== undefined);
  const sizes = await Promise.all(files.map((f) => fileSize(path.join(dir, f))));
  const installed = sizes.every((s) => s !== null);
  return {
    id: entry.id,
    kind: "embedding",
    origin: "manifest",
    displayName: entry.displayName,
    installed,
    file: path.join(dir, entry.files.model),
    sizeBytes: installed ? sizes.reduce<number>((a, s) => a + (s ?? 0), 0) : null,
    approxSizeBytes: entry.approxSizeBytes,
    sha256: null,
    verified: false,
    architecture: null,
    parameters: null,
    contextLength: entry.maxTokens,
    quantization: null,
    languages: entry.languages,
    license: entry.license,
    importedAt: null,
  };
}

function describeImported(id: string, dir: string, record: ImportRecord | null, ggufName: string, sizeBytes: number | null): ModelInfo {
  return {
    id,
    kind: "llm",
    origin: "imported",
    displayName: modelDisplayName(record?.name, record?.architecture, ggufName),
    installed: sizeBytes !== null,
    file: path.join(dir, ggufName),
    sizeBytes,
    approxSizeBytes: null,
    sha256: record?.sha256 ?? null,
    verified: false,
    architecture: record?.architecture ?? null,
    parameters: record === null ? null : formatParameterCount(record.parameterCount),
    contextLength: record?.contextLength ?? null,
    quantization: record?.fileType ?? null,
    languages: [],
    license: null,
    importedAt: record?.importedAt ?? null,
  };
}

/** Manifest models (installed or not) first, in manifest order, then imported ones by id. */
export async function listModels(dataDir: string, options: RegistryOptions = {}): Promise<ModelInfo[]> {
  const manifest = options.manifest ?? (await loadModelManifest());
  const known = await Promise.all(manifest.models.map((m) => (m.kind === "llm" ? describeLlm(dataDir, m) : describeEmbedder(dataDir, m))));
  const manifestIds = new Set(manifest.models.map((m) => m.id));
  const names = await readdir(modelsDir(dataDir), { withFileTypes: true }).catch(() => []);
  const imported: ModelInfo[] = [];
  for (const dirent of names.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!dirent.isDirectory() || dirent.name.startsWith(".") || manifestIds.has(dirent.name)) continue;
    const dir = path.join(modelsDir(dataDir), dirent.name);
    const record = await readImportRecord(dir);
    const gguf = record?.file ?? (await readdir(dir).catch(() => [])).find((n) => n.toLowerCase().endsWith(".gguf"));
    if (gguf === undefined) continue; // not a model folder (e.g. a user's own notes)
    imported.push(describeImported(dirent.name, dir, record, gguf, await fileSize(path.join(dir, gguf))));
  }
  return [...known, ...imported];
}

/** The GGUF file of an installed LLM, for loadLlm(). Throws MODEL_NOT_FOUND when it is not installed. */
export async function findInstalledLlm(dataDir: string, id: string, options: RegistryOptions = {}): Promise<ModelInfo> {
  assertModelId(id);
  const model = (await listModels(dataDir, options)).find((m) => m.id === id);
  if (model === undefined || model.kind !== "llm") {
    throw new ClauseGraphError("MODEL_NOT_FOUND", `No language model "${id}" (see \`clausegraph models list\`).`);
  }
  if (!model.installed) {
    throw new ClauseGraphError("MODEL_NOT_FOUND", `The model "${id}" is not installed: import its GGUF file (${path.basename(model.file)}) first.`, {
      file: model.file,
    });
  }
  return model;
}

export interface RemoveModelResult {
  id: string;
  freedBytes: number;
}

async function folderBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(entries.map((e) => (e.isFile() ? fileSize(path.join(dir, e.name)) : Promise.resolve(0))));
  return sizes.reduce<number>((a, s) => a + (s ?? 0), 0);
}

/**
 * Deletes an installed language model's folder. Embedding models are not removable here: the engine
 * owns them (the default one is rebuilt on next use, and stored vectors depend on the model).
 * Throws MODEL_NOT_FOUND when nothing is installed under `id`, VALIDATION for an embedder or bad id.
 */
export async function removeModel(dataDir: string, id: string, options: RegistryOptions = {}): Promise<RemoveModelResult> {
  assertModelId(id);
  const manifest = options.manifest ?? (await loadModelManifest());
  if (manifest.models.some((m) => m.id === id && m.kind === "embedding")) {
    throw new ClauseGraphError("VALIDATION", `"${id}" is an embedding model; the engine manages it and it cannot be removed here.`);
  }
  const dir = modelDir(dataDir, id);
  const s = await stat(dir).catch(() => null);
  if (s === null || !s.isDirectory()) throw new ClauseGraphError("MODEL_NOT_FOUND", `No installed model "${id}".`);
  const freedBytes = await folderBytes(dir);
  // Renamed away first, so an interrupted delete never leaves a half model that looks installed.
  const trash = path.join(modelsDir(dataDir), `${TRASH_PREFIX}${id}-${randomBytes(4).toString("hex")}`);
  await rename(dir, trash);
  await rm(trash, { recursive: true, force: true });
  return { id, freedBytes };
}
