import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";
import { throwIfCancelled } from "../ingest/cancel.ts";
import { fileError } from "../ingest/file-checks.ts";

// A dropped file as the import pipeline sees it: its bytes read once, the SHA-256 that names it
// (the document id is its prefix), and where the library keeps its copy.

/** Short, typeable and stable: the same file always gets the same id. */
export function documentIdFromSha(sha256: string): string {
  return sha256.slice(0, 16);
}

/** Where the engine keeps a copy of each imported file, for the viewer and for re-processing. */
export function sourcePath(dataDir: string, documentId: string, fileName: string): string {
  const ext = path
    .extname(fileName)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, "")
    .slice(0, 10);
  return path.join(dataDir, "sources", `${documentId}${ext}`);
}

/**
 * Streams the file through SHA-256, stopping with CANCELLED as soon as `signal` aborts. Only for
 * files checkFileBeforeReading accepted: /dev/zero or a FIFO would never end.
 */
export async function sha256OfFile(file: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(file)) {
      throwIfCancelled(signal, file);
      hash.update(chunk as Buffer);
    }
  } catch (err) {
    throw err instanceof ClauseGraphError ? err : fileError(err, file);
  }
  throwIfCancelled(signal, file);
  return hash.digest("hex");
}

export interface SourceBytes {
  bytes: Buffer;
  sha256: string;
}

/**
 * The whole file and its SHA-256, from one read (abortable). The import hashes, parses and copies
 * these bytes instead of reading the file three times (hash stream, parsing child, source copy):
 * the parent holds one file's bytes during its import, at most MAX_PDF_BYTES (checkFileBeforeReading
 * has refused larger files before this read), as the parsing child always did.
 */
export async function readSourceFile(file: string, signal?: AbortSignal): Promise<SourceBytes> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file, signal === undefined ? {} : { signal });
  } catch (err) {
    throwIfCancelled(signal, file);
    throw err instanceof ClauseGraphError ? err : fileError(err, file);
  }
  throwIfCancelled(signal, file);
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}
