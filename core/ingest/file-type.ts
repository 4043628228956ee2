import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";
import type { SourceFormat } from "../model/ingest-types.ts";

// The content decides, not the name: a renamed .docx must not reach pdfjs, and a PDF saved as
// ".bin" is still a PDF. The extension only breaks ties for formats without magic bytes (text).

/** Formats we recognise only to explain the refusal in words. */
const KNOWN_BINARY: Array<{ magic: number[]; what: string }> = [
  { magic: [0x50, 0x4b, 0x03, 0x04], what: "a ZIP archive (e.g. .docx, .xlsx, .odt)" },
  { magic: [0x50, 0x4b, 0x05, 0x06], what: "an empty ZIP archive" },
  { magic: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], what: "a legacy Office file (.doc, .xls)" },
  { magic: [0x89, 0x50, 0x4e, 0x47], what: "a PNG image" },
  { magic: [0xff, 0xd8, 0xff], what: "a JPEG image" },
  { magic: [0x47, 0x49, 0x46, 0x38], what: "a GIF image" },
  { magic: [0x49, 0x49, 0x2a, 0x00], what: "a TIFF image" },
  { magic: [0x4d, 0x4d, 0x00, 0x2a], what: "a TIFF image" },
  { magic: [0x7b, 0x5c, 0x72, 0x74, 0x66], what: "an RTF document" },
  { magic: [0x1f, 0x8b], what: "a gzip archive" },
  { magic: [0x52, 0x61, 0x72, 0x21], what: "a RAR archive" },
  { magic: [0x37, 0x7a, 0xbc, 0xaf], what: "a 7-Zip archive" },
];

const TEXT_EXTENSIONS = new Set([".txt", ".text"]);
const MARKDOWN_EXTENSIONS = new Set([".md", ".markdown"]);
/** The PDF spec tolerates junk before the header; Acrobat looks in the first 1024 bytes. */
export const PDF_HEADER_WINDOW = 1024;

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.length <= bytes.length && magic.every((b, i) => bytes[i] === b);
}

export function hasPdfHeader(bytes: Uint8Array): boolean {
  const window = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PDF_HEADER_WINDOW));
  return window.includes("%PDF-", 0, "latin1");
}

function knownBinary(bytes: Uint8Array): string | undefined {
  return KNOWN_BINARY.find((k) => startsWith(bytes, k.magic))?.what;
}

/** Decides how to read a non-empty file, or throws UNSUPPORTED_TYPE / CORRUPT. */
export function detectFormat(file: string, bytes: Uint8Array): SourceFormat {
  if (hasPdfHeader(bytes)) return "pdf";
  const ext = path.extname(file).toLowerCase();
  const binary = knownBinary(bytes);
  if (binary !== undefined) {
    throw new ClauseGraphError("UNSUPPORTED_TYPE", `${path.basename(file)} is ${binary}, not a PDF or text file. Export it to PDF first.`, { file });
  }
  if (ext === ".pdf") {
    throw new ClauseGraphError("CORRUPT", `${path.basename(file)} is not a valid PDF: it has no %PDF header (damaged or not a PDF).`, { file });
  }
  if (TEXT_EXTENSIONS.has(ext)) return "text";
  if (MARKDOWN_EXTENSIONS.has(ext)) return "markdown";
  throw new ClauseGraphError("UNSUPPORTED_TYPE", `${path.basename(file)}: unsupported file type "${ext || "(no extension)"}". Supported: .pdf, .txt, .md.`, {
    file,
  });
}
