import { type FileHandle, open, stat } from "node:fs/promises";
import path from "node:path";
import type { GgufFileInfo } from "node-llama-cpp";
import { z } from "zod";
import { ClauseGraphError } from "../model/errors.ts";
import { ggmlTensorBytes } from "./ggml-type-size.ts";
import { findGgufStructureProblem } from "./gguf-structure.ts";

// Everything about a GGUF file that can be learnt without loading its weights. It runs before a file
// reaches llama.cpp, so a wrong or damaged file becomes MODEL_INVALID with a message a user can act
// on instead of a native failure, and it is all the registry needs to describe an import.

export interface GgufHeader {
  file: string;
  sizeBytes: number;
  version: number;
  /** general.architecture, e.g. "llama", "qwen2", "phi3". */
  architecture: string;
  name: string | null;
  /** Total weights, summed over the tensor shapes. */
  parameterCount: number;
  /** The context length the model was trained with (`<arch>.context_length`). */
  contextLength: number | null;
  /** general.file_type as llama.cpp names it, e.g. "MOSTLY_Q4_K_M". */
  fileType: string | null;
  tensorCount: number;
  hasChatTemplate: boolean;
  /** node-llama-cpp's parse, for its resource estimates. */
  info: GgufFileInfo;
}

const MAGIC = "GGUF";
/** magic, version, tensor count, metadata count. */
const FIXED_HEADER_BYTES = 4 + 4 + 8 + 8;
// Sanity bounds on the counts: a hostile or random file must not make the parser allocate or loop
// for ever. Real models have hundreds to a few thousand tensors and well under 100 metadata keys.
const MAX_TENSORS = 1_000_000;
const MAX_METADATA_KEYS = 100_000;
// The tokenizer arrays are the bulk of the metadata (150k entries for Qwen) and nothing here needs them.
const IGNORED_KEYS = ["tokenizer.ggml.tokens", "tokenizer.ggml.scores", "tokenizer.ggml.token_type", "tokenizer.ggml.merges"];

const metadataSchema = z.object({
  general: z.object({
    architecture: z.string().min(1),
    name: z.string().optional(),
    file_type: z.number().optional(),
  }),
  split: z.object({ count: z.number().optional() }).optional(),
  tokenizer: z.object({ chat_template: z.string().optional() }).optional(),
});

const contextLengthSchema = z.object({ context_length: z.union([z.number(), z.bigint()]).optional() });

function invalid(file: string, reason: string, cause?: unknown): ClauseGraphError {
  return new ClauseGraphError("MODEL_INVALID", `${file} is not a usable GGUF model: ${reason}`, { file, cause });
}

async function statModelFile(file: string): Promise<number> {
  try {
    const s = await stat(file);
    if (s.isDirectory()) throw invalid(file, "it is a folder, not a file");
    if (!s.isFile()) throw invalid(file, "it is not a regular file");
    return s.size;
  } catch (err) {
    if (err instanceof ClauseGraphError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new ClauseGraphError("MODEL_NOT_FOUND", `Model file not found: ${file}`, { file, cause: err });
    }
    throw new ClauseGraphError("FILE_UNREADABLE", `Model file cannot be read: ${file}`, { file, cause: err });
  }
}

function describeForeignBytes(head: Buffer): string {
  const text = head.toString("latin1");
  if (text.startsWith("PK")) return "it is a ZIP archive";
  if (/^\s*</.test(text)) return "it is an HTML/XML page (a failed download?)";
  if (/^\s*[{[]/.test(text)) return "it is a JSON file";
  if (text.startsWith("version https://git-lfs")) return "it is a Git LFS pointer, not the model itself";
  if (text.startsWith("%PDF")) return "it is a PDF";
  return "the file does not start with the GGUF signature";
}

/**
 * Checks the whole header with bounded reads of our own before node-llama-cpp's parser sees the
 * file (see gguf-structure.ts for why). Returns the GGUF version.
 */
async function checkHeaderStructure(file: string, sizeBytes: number): Promise<number> {
  if (sizeBytes === 0) throw invalid(file, "the file is empty");
  let handle: FileHandle;
  try {
    handle = await open(file, "r");
  } catch (err) {
    throw new ClauseGraphError("FILE_UNREADABLE", `Model file cannot be read: ${file}`, { file, cause: err });
  }
  try {
    const head = Buffer.alloc(FIXED_HEADER_BYTES);
    const { bytesRead: read } = await handle.read(head, 0, FIXED_HEADER_BYTES, 0);
    if (head.toString("latin1", 0, 4) !== MAGIC) throw invalid(file, describeForeignBytes(head.subarray(0, read)));
    if (read < FIXED_HEADER_BYTES) throw invalid(file, "the header is truncated");
    const version = head.readUInt32LE(4);
    // llama.cpp reads versions 2 and 3; a byte-swapped (big-endian) file shows up as a huge number.
    if (version !== 2 && version !== 3) throw invalid(file, `unsupported GGUF version ${version}`);
    const tensors = head.readBigUInt64LE(8);
    const metadata = head.readBigUInt64LE(16);
    if (tensors > BigInt(MAX_TENSORS) || metadata > BigInt(MAX_METADATA_KEYS)) throw invalid(file, "the header counts are implausible");
    const problem = await findGgufStructureProblem(handle, sizeBytes, FIXED_HEADER_BYTES, { tensors, metadata });
    if (problem !== null) throw invalid(file, `the header is damaged (${problem})`);
    return version;
  } catch (err) {
    if (err instanceof ClauseGraphError) throw err;
    throw new ClauseGraphError("FILE_UNREADABLE", `Model file cannot be read: ${file}`, { file, cause: err });
  } finally {
    await handle.close();
  }
}

/** The tensor data must lie inside the file: an interrupted download fails here, not in llama.cpp. */
function checkTensorBounds(file: string, info: GgufFileInfo, sizeBytes: number): void {
  if (info.infoEndOffset !== undefined && info.infoEndOffset > sizeBytes) throw invalid(file, "the header is truncated");
  for (const tensor of info.tensorInfo ?? []) {
    const start = BigInt(tensor.fileOffset);
    const bytes = ggmlTensorBytes(tensor.ggmlType, tensor.dimensions);
    const end = bytes === null ? start + 1n : start + BigInt(bytes);
    if (end > BigInt(sizeBytes)) {
      throw invalid(file, `tensor "${tensor.name}" lies beyond the end of the file (the download is incomplete or the file is damaged)`);
    }
  }
}

function countParameters(info: GgufFileInfo): number {
  let total = 0n;
  for (const tensor of info.tensorInfo ?? []) {
    let n = 1n;
    for (const d of tensor.dimensions) n *= BigInt(d);
    total += n;
  }
  return Number(total);
}

function fileTypeName(names: object, value: number | undefined): string | null {
  if (value === undefined) return null;
  const name: unknown = (names as Record<number, unknown>)[value];
  return typeof name === "string" ? name : null;
}

/**
 * Validates a GGUF file and reads its header. Throws MODEL_NOT_FOUND (no such file), FILE_UNREADABLE
 * (permissions) or MODEL_INVALID (anything else: wrong format, damaged, truncated, split).
 */
export async function readGgufHeader(modelPath: string): Promise<GgufHeader> {
  const file = path.resolve(modelPath);
  const sizeBytes = await statModelFile(file);
  const version = await checkHeaderStructure(file, sizeBytes);
  // Loaded when a model is read, not with the engine: importing node-llama-cpp takes most of a
  // second, which every start would pay for a feature most libraries never use.
  const { GgufFileType, readGgufFileInfo } = await import("node-llama-cpp");
  let info: GgufFileInfo;
  try {
    info = await readGgufFileInfo(file, {
      sourceType: "filesystem",
      logWarnings: false,
      spliceSplitFiles: false,
      ignoreKeys: IGNORED_KEYS,
    });
  } catch (err) {
    throw invalid(file, `the header cannot be parsed (${err instanceof Error ? err.message : String(err)})`, err);
  }
  checkTensorBounds(file, info, sizeBytes);
  const meta = metadataSchema.safeParse(info.metadata);
  if (!meta.success) throw invalid(file, "the header names no model architecture");
  if ((meta.data.split?.count ?? 1) > 1) {
    throw invalid(file, "it is one part of a split model; merge the parts first (llama-gguf-split --merge)");
  }
  const architecture = meta.data.general.architecture;
  const archMeta = contextLengthSchema.safeParse((info.metadata as unknown as Record<string, unknown>)[architecture]);
  const contextLength = archMeta.success && archMeta.data.context_length !== undefined ? Number(archMeta.data.context_length) : null;
  return {
    file,
    sizeBytes,
    version,
    architecture,
    name: meta.data.general.name ?? null,
    parameterCount: countParameters(info),
    contextLength,
    fileType: fileTypeName(GgufFileType, meta.data.general.file_type),
    tensorCount: Number(info.tensorCount),
    hasChatTemplate: meta.data.tokenizer?.chat_template !== undefined,
    info,
  };
}
