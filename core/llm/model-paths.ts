import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";

// Models live in <dataDir>/models/<id>/, the layout the embedders use too (core/embed). Folder names
// starting with "." are the registry's own staging and trash folders, never models.

/** Same rule as manifest ids: lowercase, usable as a folder name on every OS. */
const MODEL_ID = /^[a-z0-9][a-z0-9._-]*$/;
export const IMPORT_RECORD = "import.json";
export const STAGING_PREFIX = ".import-";
export const TRASH_PREFIX = ".trash-";

export function modelsDir(dataDir: string): string {
  return path.join(dataDir, "models");
}

export function modelDir(dataDir: string, id: string): string {
  assertModelId(id);
  return path.join(modelsDir(dataDir), id);
}

export function isModelId(id: string): boolean {
  return MODEL_ID.test(id) && id.length <= 128;
}

export function assertModelId(id: string): void {
  if (!isModelId(id)) {
    throw new ClauseGraphError("VALIDATION", `"${id}" is not a model id (lowercase letters, digits, ".", "_" and "-").`);
  }
}

/** "Mistral-7B-Instruct-v0.3.Q4_K_M.gguf" → "mistral-7b-instruct-v0.3.q4_k_m". */
export function modelIdFromFileName(fileName: string): string {
  const stem = path.basename(fileName).replace(/\.gguf$/i, "");
  const id = stem
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .replace(/[^a-z0-9]+$/, "")
    .slice(0, 128);
  return id === "" ? "model" : id;
}
