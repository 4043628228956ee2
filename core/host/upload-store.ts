import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { UploadStore, UploadedFile } from "../contract/dispatch.ts";
import { ClauseGraphError } from "../errors.ts";

// A browser cannot hand the engine a path, only bytes. They are written under the data dir (same
// disk, same permissions as the library) and removed once imported: the engine keeps the text.
export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, "uploads");
}

export function createUploadStore(dataDir: string): UploadStore {
  return {
    async save(files: UploadedFile[]) {
      const dir = path.join(uploadsDir(dataDir), randomUUID());
      await mkdir(dir, { recursive: true });
      const cleanup = (): Promise<void> => rm(dir, { recursive: true, force: true });
      try {
        const paths: string[] = [];
        const used = new Set<string>();
        for (const [index, file] of files.entries()) {
          // Two uploads may share a name; the second gets its own sub-folder so neither is lost.
          const name = path.basename(file.name);
          const target = used.has(name) ? path.join(dir, String(index), name) : path.join(dir, name);
          used.add(name);
          if (path.dirname(path.relative(dir, target)).startsWith("..")) {
            throw new ClauseGraphError("VALIDATION", `Invalid upload name`, { file: file.name });
          }
          await mkdir(path.dirname(target), { recursive: true });
          await writeFile(target, Buffer.from(file.bytesBase64, "base64"));
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
