import { open, stat } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";
import { hasPdfHeader, PDF_HEADER_WINDOW } from "./file-type.ts";
import { formatMegabytes, MAX_PDF_BYTES, MAX_TEXT_BYTES } from "./limits.ts";

// What is checked before a single byte of a file is read or hashed: that it exists, that it is a
// regular file (a symlink to one is fine), and that its size is within the limits. /dev/zero, a
// `.txt` symlink to it or a FIFO used to hang the import (the whole "file" was hashed first, and
// a FIFO blocks on open); a huge sparse `.txt` was hashed at length before it reached TOO_LARGE.

/** An fs error as the typed error that names the file. */
export function fileError(err: unknown, file: string): ClauseGraphError {
  const code = typeof err === "object" && err !== null && "code" in err ? err.code : undefined;
  const name = path.basename(file);
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new ClauseGraphError("FILE_NOT_FOUND", `${name} was not found.`, { file, cause: err });
  }
  if (code === "EISDIR") {
    return new ClauseGraphError("FILE_UNREADABLE", `${name} is a folder, not a file.`, { file, cause: err });
  }
  const reason = code === "EACCES" || code === "EPERM" ? "permission denied" : String(code ?? "I/O error");
  return new ClauseGraphError("FILE_UNREADABLE", `${name} cannot be read (${reason}).`, { file, cause: err });
}

export function textTooLarge(file: string, size: number): ClauseGraphError {
  return new ClauseGraphError("TOO_LARGE", `${path.basename(file)} is ${formatMegabytes(size)} of text; the limit is ${formatMegabytes(MAX_TEXT_BYTES)}.`, {
    file,
  });
}

/** Reads only the first bytes: opening a regular file never blocks. */
async function startsAsPdf(file: string): Promise<boolean> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, "r");
    const head = Buffer.alloc(PDF_HEADER_WINDOW);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return hasPdfHeader(head.subarray(0, bytesRead));
  } catch (err) {
    throw fileError(err, file);
  } finally {
    await handle?.close();
  }
}

/**
 * The file's size once it is known to be a regular, non-empty file within the size limits.
 * @throws ClauseGraphError FILE_NOT_FOUND, FILE_UNREADABLE (folder, device, FIFO, socket), EMPTY, TOO_LARGE.
 */
export async function checkFileBeforeReading(file: string): Promise<number> {
  let size: number;
  try {
    // stat follows symlinks: a link to a regular file is that file; to /dev/zero, a device.
    const info = await stat(file);
    if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    if (!info.isFile()) {
      throw new ClauseGraphError("FILE_UNREADABLE", `${path.basename(file)} is not a regular file (a device, pipe or socket): only files can be imported.`, {
        file,
      });
    }
    size = info.size;
  } catch (err) {
    if (err instanceof ClauseGraphError) throw err;
    throw fileError(err, file);
  }
  if (size === 0) throw new ClauseGraphError("EMPTY", `${path.basename(file)} is empty (0 bytes).`, { file });
  if (size > MAX_PDF_BYTES) {
    throw new ClauseGraphError(
      "TOO_LARGE",
      `${path.basename(file)} is ${formatMegabytes(size)}; the limit is ${formatMegabytes(MAX_PDF_BYTES)}. Split it into smaller files.`,
      { file },
    );
  }
  // Text has a lower ceiling than PDF: a large file that is not a PDF is refused from its first
  // bytes, before hundreds of MB are read into memory only to be rejected.
  if (size > MAX_TEXT_BYTES && !(await startsAsPdf(file))) throw textTooLarge(file, size);
  return size;
}
