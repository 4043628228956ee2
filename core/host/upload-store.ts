import { randomUUID } from "node:crypto";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { UploadStore, UploadedFile } from "../contract/dispatch.ts";
import { ClauseGraphError } from "../model/errors.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../files/private-files.ts";

// A browser cannot hand the engine a path, only bytes. They are written under the data dir (same
// disk, owner-only like the library) and removed once imported, whether the import worked or not:
// the engine keeps its own copy. A crash between the two used to leave `<data>/uploads/<uuid>/`
// behind for good (20 folders after the robustness probes), so every host start empties the folder.

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, "uploads");
}

export interface UploadDir {
  dir: string;
  /** Removes the folder and everything in it; never throws. */
  cleanup(): Promise<void>;
}

/** A fresh owner-only folder for one upload request. */
export async function createUploadDir(dataDir: string): Promise<UploadDir> {
  const dir = path.join(uploadsDir(dataDir), randomUUID());
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }).catch(() => undefined) };
}

/**
 * Removes what earlier runs left in the upload folder (a crash or kill mid-import). Only call it
 * while holding the library (its engine open): another process's uploads would otherwise vanish.
 * Returns how many leftovers were removed.
 */
export async function clearUploads(dataDir: string): Promise<number> {
  const root = uploadsDir(dataDir);
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) await rm(path.join(root, name), { recursive: true, force: true });
  return names.length;
}

/** Where a file named `name` goes in `dir`; a second file of the same name gets a sub-folder so neither is lost. */
function uploadTarget(dir: string, name: string, index: number, used: Set<string>): string {
  const base = path.basename(name);
  const target = used.has(base) ? path.join(dir, String(index), base) : path.join(dir, base);
  used.add(base);
  if (path.dirname(path.relative(dir, target)).startsWith("..")) {
    throw new ClauseGraphError("VALIDATION", `Invalid upload name`, { file: name });
  }
  return target;
}

/** Uploads that arrive inside a message as base64 (Electron's path-less files). */
export function createUploadStore(dataDir: string): UploadStore {
  return {
    async save(files: UploadedFile[]) {
      const { dir, cleanup } = await createUploadDir(dataDir);
      try {
        const paths: string[] = [];
        const used = new Set<string>();
        for (const [index, file] of files.entries()) {
          const target = uploadTarget(dir, file.name, index, used);
          await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
          await writeFile(target, Buffer.from(file.bytesBase64, "base64"), { mode: PRIVATE_FILE_MODE, flag: "wx" });
          paths.push(target);
        }
        return { paths, cleanup };
      } catch (err) {
        await cleanup();
        throw err;
      }
    },
  };
}
