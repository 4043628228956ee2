import { createHash } from "node:crypto";
import { open, readFile, stat } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { ClauseGraphError } from "../errors.ts";
import { throwIfCancelled } from "./cancel.ts";
import { detectFormat, hasPdfHeader, PDF_HEADER_WINDOW } from "./file-type.ts";
import { formatMegabytes, MAX_PDF_BYTES, MAX_TEXT_BYTES } from "./limits.ts";
import { readPdf } from "./pdf-reader.ts";
import { readText } from "./text-reader.ts";
import type { ParseOptions, ParsedDocument } from "./types.ts";

// The one door into ingestion: any file in, a ParsedDocument or a ClauseGraphError out. Every
// error names the file, because imports run in batches and the user must know which one failed.

function fileError(err: unknown, file: string): ClauseGraphError {
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

async function readBytes(file: string, signal: AbortSignal | undefined): Promise<Buffer> {
  let size: number;
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    if (!info.isFile()) throw Object.assign(new Error("not a regular file"), { code: "ENOTFILE" });
    size = info.size;
  } catch (err) {
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
  try {
    return await readFile(file, signal === undefined ? {} : { signal });
  } catch (err) {
    throwIfCancelled(signal, file);
    throw fileError(err, file);
  }
}

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

function textTooLarge(file: string, size: number): ClauseGraphError {
  return new ClauseGraphError(
    "TOO_LARGE",
    `${path.basename(file)} is ${formatMegabytes(size)} of text; the limit is ${formatMegabytes(MAX_TEXT_BYTES)}.`,
    { file },
  );
}

function withFile(err: unknown, file: string): ClauseGraphError {
  if (err instanceof ClauseGraphError) {
    return err.file === file ? err : new ClauseGraphError(err.code, err.message, { file, cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ClauseGraphError("INTERNAL", `${path.basename(file)}: unexpected error while reading (${message}).`, {
    file,
    cause: err,
  });
}

async function parse(file: string, options: ParseOptions): Promise<ParsedDocument> {
  throwIfCancelled(options.signal, file);
  const bytes = await readBytes(file, options.signal);
  if (bytes.length === 0) throw new ClauseGraphError("EMPTY", `${path.basename(file)} is empty (0 bytes).`, { file });
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const size = bytes.length;
  const format = detectFormat(file, bytes);
  if (format === "pdf") {
    const pdf = await readPdf(file, bytes, options);
    return { file: path.resolve(file), format, sha256, bytes: size, ...pdf };
  }
  if (size > MAX_TEXT_BYTES) throw textTooLarge(file, size);
  const text = readText(file, bytes, format, options);
  return { file: path.resolve(file), format, sha256, bytes: size, pageCount: text.pages.length, ...text };
}

/**
 * Reads a PDF, .txt or .md file into pages of lines in reading order.
 * @throws ClauseGraphError with `file` set: FILE_NOT_FOUND, FILE_UNREADABLE, EMPTY, TOO_LARGE,
 *   UNSUPPORTED_TYPE, CORRUPT, ENCRYPTED, WRONG_PASSWORD, NO_TEXT_LAYER, CANCELLED.
 */
export async function parseDocument(file: string, options: ParseOptions = {}): Promise<ParsedDocument> {
  try {
    return await parse(file, options);
  } catch (err) {
    throw withFile(err, file);
  }
}
