import { randomBytes } from "node:crypto";
import { link, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type LlmModelEntry, loadModelManifest, type ModelManifest } from "../embed/model-manifest.ts";
import { ClauseGraphError } from "../model/errors.ts";
import { copyWithSha256, sha256File } from "./file-sha256.ts";
import { readGgufHeader } from "./gguf-header.ts";
import { type ImportRecord, readImportRecord, writeImportRecord } from "./import-record.ts";
import { assertModelId, modelIdFromFileName, modelsDir, STAGING_PREFIX, TRASH_PREFIX } from "./model-paths.ts";

// Importing a GGUF a user downloaded: validate it, recognise it against the manifest, and place it in
// <dataDir>/models/<id>/ so that a failed or interrupted import never leaves a half-written model.
// Everything is assembled in a staging folder beside the target and renamed into place at the end.

export interface ImportModelOptions {
  /** Defaults to models/manifest.json. */
  manifest?: ModelManifest;
  /** Id for a model the manifest does not know; defaults to one made from the file name. */
  id?: string;
  /**
   * Hard-link instead of copying when the file is on the same disk (instant, no second copy of
   * gigabytes). Default true; falls back to copying across disks or where links are not allowed.
   */
  link?: boolean;
  /** Bytes hashed or copied so far, for a progress bar. */
  onProgress?: (bytes: number, totalBytes: number) => void;
}

export interface ImportModelResult {
  /** "already-installed": the same bytes were there; nothing changed. "replaced": another file with this id was swapped out. */
  status: "imported" | "already-installed" | "replaced";
  record: ImportRecord;
  /** Absolute path of the installed GGUF. */
  file: string;
}

const STALE_STAGING_MS = 24 * 3600 * 1000;

function llmEntries(manifest: ModelManifest): LlmModelEntry[] {
  return manifest.models.filter((m): m is LlmModelEntry => m.kind === "llm");
}

function remoteBaseName(entry: LlmModelEntry): string | null {
  const remote = entry.source.type === "huggingface" ? entry.source.remoteFiles.model : undefined;
  return remote === undefined ? null : path.posix.basename(remote);
}

/** A pinned hash identifies a manifest model whatever the file is called; otherwise its file name does. */
function recogniseEntry(manifest: ModelManifest, fileName: string, sha256: string): LlmModelEntry | null {
  const entries = llmEntries(manifest);
  const bySha = entries.find((e) => e.sha256 === sha256);
  if (bySha !== undefined) return bySha;
  const name = fileName.toLowerCase();
  return entries.find((e) => path.posix.basename(e.files.model).toLowerCase() === name || remoteBaseName(e)?.toLowerCase() === name) ?? null;
}

async function placeFile(from: string, to: string, useLink: boolean, total: number, onProgress: ImportModelOptions["onProgress"]): Promise<string> {
  if (useLink) {
    try {
      await link(from, to);
      return await sha256File(to);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Other disk, a filesystem without hard links, or not allowed: copy instead.
      if (code !== "EXDEV" && code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "EMLINK" && code !== "EACCES") throw err;
    }
  }
  return copyWithSha256(from, to, onProgress === undefined ? undefined : (bytes) => onProgress(bytes, total));
}

/** Staging folders of crashed imports and trash of interrupted removals. */
async function sweepLeftovers(root: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const full = path.join(root, name);
    if (name.startsWith(TRASH_PREFIX)) {
      await rm(full, { recursive: true, force: true });
    } else if (name.startsWith(STAGING_PREFIX)) {
      // A recent one may belong to an import running in another process.
      const s = await stat(full).catch(() => null);
      if (s !== null && now - s.mtimeMs > STALE_STAGING_MS) await rm(full, { recursive: true, force: true });
    }
  }
}

/**
 * Imports a GGUF file into `<dataDir>/models/<id>/`. Throws MODEL_NOT_FOUND (no such file),
 * MODEL_INVALID (not a GGUF, damaged, truncated, or not the manifest model it is named after —
 * pinned sha256 or architecture differ), VALIDATION (bad id).
 */
export async function importModel(dataDir: string, file: string, options: ImportModelOptions = {}): Promise<ImportModelResult> {
  const source = path.resolve(file);
  const header = await readGgufHeader(source);
  const manifest = options.manifest ?? (await loadModelManifest());
  if (options.id !== undefined) assertModelId(options.id);

  const root = modelsDir(dataDir);
  await mkdir(root, { recursive: true });
  await sweepLeftovers(root);
  const staging = path.join(root, `${STAGING_PREFIX}${randomBytes(6).toString("hex")}`);
  await mkdir(staging);
  try {
    const stagedFile = path.join(staging, "model.gguf.partial");
    const sha256 = await placeFile(source, stagedFile, options.link ?? true, header.sizeBytes, options.onProgress);

    const entry = recogniseEntry(manifest, path.basename(source), sha256);
    if (entry !== null) {
      if (options.id !== undefined && options.id !== entry.id) {
        throw new ClauseGraphError("VALIDATION", `${path.basename(source)} is the manifest model "${entry.id}"; it cannot be imported as "${options.id}".`, {
          file: source,
        });
      }
      if (entry.sha256 !== null && entry.sha256 !== sha256) {
        throw new ClauseGraphError(
          "MODEL_INVALID",
          `${path.basename(source)} is named like "${entry.displayName}" but its sha256 ${sha256} is not the pinned ${entry.sha256} (a different or damaged file).`,
          { file: source },
        );
      }
      if (entry.architecture !== undefined && entry.architecture !== header.architecture) {
        throw new ClauseGraphError(
          "MODEL_INVALID",
          `${path.basename(source)} is named like "${entry.displayName}" (architecture ${entry.architecture}) but it is a ${header.architecture} model.`,
          { file: source },
        );
      }
    }
    const id = entry?.id ?? options.id ?? modelIdFromFileName(source);
    assertModelId(id);
    if (entry === null && manifest.models.some((m) => m.id === id)) {
      throw new ClauseGraphError("VALIDATION", `"${id}" is a manifest model id; choose another id for ${path.basename(source)}.`, { file: source });
    }
    const fileName = entry === null ? path.basename(source) : path.posix.basename(entry.files.model);
    const record: ImportRecord = {
      schemaVersion: 1,
      id,
      kind: "llm",
      file: fileName,
      sha256,
      sizeBytes: header.sizeBytes,
      importedAt: new Date().toISOString(),
      manifestId: entry?.id ?? null,
      verified: entry !== null && entry.sha256 === sha256,
      architecture: header.architecture,
      name: header.name,
      parameterCount: header.parameterCount,
      contextLength: header.contextLength,
      fileType: header.fileType,
    };
    await rename(stagedFile, path.join(staging, fileName));
    await writeImportRecord(staging, record);

    const target = path.join(root, id);
    const existing = await stat(target).catch(() => null);
    if (existing === null) {
      await rename(staging, target);
      return { status: "imported", record, file: path.join(target, fileName) };
    }
    const previous = await readImportRecord(target);
    if (previous !== null && previous.sha256 === sha256 && previous.file === fileName) {
      await rm(staging, { recursive: true, force: true });
      return { status: "already-installed", record: previous, file: path.join(target, fileName) };
    }
    // Swap: the old folder goes to the trash first, so the id always names one complete model.
    const trash = path.join(root, `${TRASH_PREFIX}${id}-${randomBytes(4).toString("hex")}`);
    await rename(target, trash);
    await rename(staging, target);
    await rm(trash, { recursive: true, force: true });
    return { status: "replaced", record, file: path.join(target, fileName) };
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
}
