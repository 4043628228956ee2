import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";
import { throwIfCancelled } from "./cancel.ts";
import { checkFileBeforeReading, fileError, textTooLarge } from "./file-checks.ts";
import { detectFormat } from "./file-type.ts";
import { MAX_TEXT_BYTES } from "./limits.ts";
import { resolveParseLimits } from "./parse-limits.ts";
import type { ParseLimits } from "./parse-limits.ts";
import { prescanPdf } from "./pdf-prescan.ts";
import { readPdf } from "./pdf-reader.ts";
import { readText } from "./text-reader.ts";
import { OcrNeededError } from "./ocr/ocr-needed.ts";
import type { ParseOptions, ParsedDocument } from "../model/ingest-types.ts";

// The one door into ingestion: any file in, a ParsedDocument or a ClauseGraphError out. Every
// error names the file, because imports run in batches and the user must know which one failed.

export interface ParseDocumentOptions extends ParseOptions {
  /** The file's SHA-256 when the caller has already hashed it (the engine has), saving a pass. */
  sha256?: string;
  /** The file's bytes when the caller has already read them (the engine has): `file` then only names it. */
  bytes?: Uint8Array;
  /** Overrides of the parse limits; the defaults otherwise. */
  limits?: Partial<ParseLimits>;
}

async function readBytes(file: string, signal: AbortSignal | undefined): Promise<Buffer> {
  await checkFileBeforeReading(file);
  try {
    return await readFile(file, signal === undefined ? {} : { signal });
  } catch (err) {
    throwIfCancelled(signal, file);
    throw fileError(err, file);
  }
}

function withFile(err: unknown, file: string): ClauseGraphError {
  if (err instanceof OcrNeededError && err.file !== file) return new OcrNeededError(file, err.offer);
  if (err instanceof ClauseGraphError) {
    return err.file === file ? err : new ClauseGraphError(err.code, err.message, { file, cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ClauseGraphError("INTERNAL", `${path.basename(file)}: unexpected error while reading (${message}).`, {
    file,
    cause: err,
  });
}

async function parse(file: string, options: ParseDocumentOptions): Promise<ParsedDocument> {
  throwIfCancelled(options.signal, file);
  // Bytes crossing from the engine arrive as a plain Uint8Array; the readers take a Buffer (a view, not a copy).
  const bytes =
    options.bytes === undefined ? await readBytes(file, options.signal) : Buffer.from(options.bytes.buffer, options.bytes.byteOffset, options.bytes.byteLength);
  if (bytes.length === 0) throw new ClauseGraphError("EMPTY", `${path.basename(file)} is empty (0 bytes).`, { file });
  // The engine hashes the file before parsing (to skip known files) and passes the hash on.
  const sha256 = options.sha256 ?? createHash("sha256").update(bytes).digest("hex");
  const size = bytes.length;
  const format = detectFormat(file, bytes);
  if (format === "pdf") {
    // Before pdf.js: the limits pdf.js cannot enforce (inflated bytes, operators, nesting).
    const limits = resolveParseLimits(options.limits);
    prescanPdf(file, bytes, limits);
    throwIfCancelled(options.signal, file);
    const pdf = await readPdf(file, bytes, options, limits);
    return { file: path.resolve(file), format, sha256, bytes: size, ...pdf };
  }
  if (size > MAX_TEXT_BYTES) throw textTooLarge(file, size);
  const text = readText(file, bytes, format, options);
  return { file: path.resolve(file), format, sha256, bytes: size, pageCount: text.pages.length, ...text };
}

/**
 * Reads a PDF, .txt or .md file into pages of lines in reading order.
 * In-process: the engine runs it in a child process it can bound and kill (parse-isolated.ts).
 * @throws ClauseGraphError with `file` set: FILE_NOT_FOUND, FILE_UNREADABLE, EMPTY, TOO_LARGE,
 *   TOO_COMPLEX, UNSUPPORTED_TYPE, CORRUPT, ENCRYPTED, WRONG_PASSWORD, NO_TEXT_LAYER, CANCELLED.
 */
export async function parseDocument(file: string, options: ParseDocumentOptions = {}): Promise<ParsedDocument> {
  try {
    return await parse(file, options);
  } catch (err) {
    throw withFile(err, file);
  }
}
