import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PDFDocument, PDFName, PDFNumber, PDFString, StandardFonts } from "pdf-lib";
import type { PDFDict, PDFRef } from "pdf-lib";
import { z } from "zod";
import { createEngine } from "../../core/engine.ts";
import type { Engine, ImportOptions, ImportResult } from "../../core/model/engine-types.ts";
import type { ErrorCode } from "../../core/model/errors.ts";
import { MAX_PDF_BYTES, MAX_TEXT_BYTES } from "../../core/ingest/limits.ts";
import { regulationPdf } from "./trust-fixtures.ts";

// "Hostile and broken inputs": files made to hurt an importer (2,000 pages, over the
// size limit, a 1 MB line, 500-deep outlines, odd encodings, a ZIP named .pdf, symlinks, a path
// with unicode and spaces) plus every file of ../shared/corpus/bad_inputs when present. Each must
// end in its documented outcome — imported, or a typed error that names the file — and a failed
// import must leave the library exactly as it was. The outcomes are listed in README.md.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BAD_INPUTS = path.resolve(ROOT, "../shared/corpus/bad_inputs");
const MANIFEST = path.resolve(ROOT, "../shared/corpus/manifest.json");

export interface HostileInputsOptions {
  /** Library to import into (created if missing); default a temporary one, removed afterwards. */
  dataDir?: string;
  /** Skip the generated files (for a run over ../shared only), or the shared ones. */
  generated?: boolean;
  shared?: boolean;
  log?: (line: string) => void;
}

export interface HostileInputsResult {
  tried: number;
  handled: number;
  failures: string[];
  /** One line per input: name, expected outcome, actual outcome. */
  outcomes: string[];
}

type Outcome = "imported" | ErrorCode;

interface HostileCase {
  name: string;
  expected: Outcome;
  /** Builds the file in dir and returns the path to import. */
  make: (dir: string) => Promise<string>;
}

async function pdfBytes(build: (pdf: PDFDocument) => Promise<void>): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  await build(pdf);
  return pdf.save({ useObjectStreams: false });
}

async function manyPages(pages: number): Promise<Uint8Array> {
  return pdfBytes(async (pdf) => {
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let i = 1; i <= pages; i++) {
      // Tiny pages keep the file small; the page count is what is being tested.
      const page = pdf.addPage([200, 100]);
      page.drawText(`Page ${i} of the long register.`, { x: 10, y: 50, size: 8, font });
    }
  });
}

async function oneHugeLine(chars: number): Promise<Uint8Array> {
  return pdfBytes(async (pdf) => {
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    const words = "obligation notify authority breach record ";
    page.drawText(words.repeat(Math.ceil(chars / words.length)).slice(0, chars), { x: 10, y: 400, size: 8, font });
  });
}

/** An outline (bookmarks) nested `depth` levels deep: each item is the only child of the previous one. */
async function deepOutline(depth: number): Promise<Uint8Array> {
  return pdfBytes(async (pdf) => {
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    page.drawText("Article 1 Bookmarks. The operator shall keep this document.", { x: 60, y: 700, size: 10, font });
    const context = pdf.context;
    const outlinesRef = context.nextRef();
    const refs: PDFRef[] = Array.from({ length: depth }, () => context.nextRef());
    refs.forEach((ref, i) => {
      const entries: Record<string, unknown> = {
        Title: PDFString.of(`Level ${i + 1}`),
        Parent: i === 0 ? outlinesRef : refs[i - 1],
        Dest: context.obj([page.ref, PDFName.of("XYZ"), null, null, null]),
      };
      const child = refs[i + 1];
      if (child !== undefined) Object.assign(entries, { First: child, Last: child, Count: PDFNumber.of(depth - i - 1) });
      context.assign(ref, context.obj(entries as Record<string, PDFRef | PDFString | PDFNumber>));
    });
    const first = refs[0];
    if (first === undefined) return;
    context.assign(outlinesRef, context.obj({ Type: "Outlines", First: first, Last: first, Count: PDFNumber.of(depth) }) as PDFDict);
    pdf.catalog.set(PDFName.of("Outlines"), outlinesRef);
  });
}

/** A file of `bytes` bytes that takes no disk space: the size check must refuse it before reading. */
async function sparseFile(file: string, bytes: number, head: string): Promise<string> {
  const handle = await open(file, "w");
  try {
    await handle.write(head);
    await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
  return file;
}

const LATIN1 = Buffer.from("Article 1 Données personnelles\nLe responsable du traitement doit notifier la violation à l'autorité de contrôle.\n", "latin1");
const UTF16 = Buffer.concat([
  Buffer.from([0xff, 0xfe]),
  Buffer.from("Article 1 Datenschutz\nDer Verantwortliche muss die Verletzung der Aufsichtsbehörde melden.\n", "utf16le"),
]);

export const GENERATED_CASES: HostileCase[] = [
  {
    name: "2,000-page PDF",
    expected: "imported",
    make: async (dir) => {
      const file = path.join(dir, "two-thousand-pages.pdf");
      await writeFile(file, await manyPages(2000));
      return file;
    },
  },
  {
    name: `PDF over the ${Math.round(MAX_PDF_BYTES / 1024 / 1024)} MB limit (sparse)`,
    expected: "TOO_LARGE",
    make: async (dir) => sparseFile(path.join(dir, "huge.pdf"), MAX_PDF_BYTES + 1, "%PDF-1.7\n"),
  },
  {
    name: "200 MB text file (sparse)",
    expected: "TOO_LARGE",
    make: async (dir) => sparseFile(path.join(dir, "huge.txt"), 200 * 1024 * 1024, "Article 1\n"),
  },
  {
    name: `text file just over the ${Math.round(MAX_TEXT_BYTES / 1024 / 1024)} MB text limit (sparse)`,
    expected: "TOO_LARGE",
    make: async (dir) => sparseFile(path.join(dir, "big-notes.txt"), MAX_TEXT_BYTES + 1, "Article 1\n"),
  },
  {
    name: "PDF with one 1 MB line of text",
    expected: "imported",
    make: async (dir) => {
      const file = path.join(dir, "one-line.pdf");
      await writeFile(file, await oneHugeLine(1024 * 1024));
      return file;
    },
  },
  {
    name: "PDF with outlines nested 500 deep",
    expected: "imported",
    make: async (dir) => {
      const file = path.join(dir, "deep-outline.pdf");
      await writeFile(file, await deepOutline(500));
      return file;
    },
  },
  {
    name: "Latin-1 text file",
    expected: "imported",
    make: async (dir) => {
      const file = path.join(dir, "latin1.txt");
      await writeFile(file, LATIN1);
      return file;
    },
  },
  {
    name: "UTF-16LE text file with BOM",
    expected: "imported",
    make: async (dir) => {
      const file = path.join(dir, "utf16.txt");
      await writeFile(file, UTF16);
      return file;
    },
  },
  {
    name: "UTF-16LE text file without BOM",
    expected: "imported",
    make: async (dir) => {
      const file = path.join(dir, "utf16le-nobom.txt");
      await writeFile(file, UTF16.subarray(2));
      return file;
    },
  },
  {
    name: "UTF-16BE text file without BOM",
    expected: "imported",
    make: async (dir) => {
      const file = path.join(dir, "utf16be-nobom.txt");
      await writeFile(file, Buffer.from(UTF16.subarray(2)).swap16());
      return file;
    },
  },
  {
    name: "binary junk named .txt",
    expected: "UNSUPPORTED_TYPE",
    make: async (dir) => {
      const file = path.join(dir, "junk.txt");
      const junk = Buffer.alloc(64 * 1024);
      for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 256;
      await writeFile(file, junk);
      return file;
    },
  },
  {
    name: "ZIP archive named .pdf",
    expected: "UNSUPPORTED_TYPE",
    make: async (dir) => {
      const file = path.join(dir, "archive.pdf");
      // A minimal empty-entry ZIP: local file header magic, then filler.
      await writeFile(file, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 0x20)]));
      return file;
    },
  },
  {
    name: "symlink to a valid PDF",
    expected: "imported",
    make: async (dir) => {
      const target = path.join(dir, "link-target.pdf");
      await writeFile(target, await regulationPdf(undefined, "Linked Regulation"));
      const link = path.join(dir, "link-to-valid.pdf");
      await symlink(target, link);
      return link;
    },
  },
  {
    name: "dangling symlink",
    expected: "FILE_NOT_FOUND",
    make: async (dir) => {
      const link = path.join(dir, "dangling.pdf");
      await symlink(path.join(dir, "does-not-exist.pdf"), link);
      return link;
    },
  },
  {
    name: "symlink to a folder",
    expected: "FILE_UNREADABLE",
    make: async (dir) => {
      const target = path.join(dir, "a-folder");
      await mkdir(target, { recursive: true });
      const link = path.join(dir, "folder-link.pdf");
      await symlink(target, link);
      return link;
    },
  },
  {
    name: "path with unicode and spaces",
    expected: "imported",
    make: async (dir) => {
      const folder = path.join(dir, "Règlement 2024 — données", "sous dossier ✓");
      await mkdir(folder, { recursive: true });
      const file = path.join(folder, "Verordnung über Daten 数据 .pdf");
      await writeFile(file, await regulationPdf(undefined, "Unicode Path Regulation"));
      return file;
    },
  },
];

/**
 * What importing each bad_inputs file without a password must give (manifest.json "expected" in
 * codes; test/corpus/ingest-bad-inputs.test.ts checks the same files at the parser level).
 */
export const BAD_INPUT_OUTCOMES: Record<string, Outcome> = {
  "corrupt_empty_zero_bytes.pdf": "EMPTY",
  "corrupt_header_only_no_xref.pdf": "CORRUPT",
  "corrupt_stream_zen_of_python_pdfminer.pdf": "imported",
  "corrupt_truncated_dora_55pct_DERIVED.pdf": "CORRUPT",
  "encrypted_owner_only_jp_kanpo_official_gazette_vertical.pdf": "imported",
  "encrypted_owner_only_us_copyright_office_dmca_summary_1998.pdf": "imported",
  "encrypted_user_password_aes256__userpw_baz_ownerpw_foo.pdf": "ENCRYPTED",
  "encrypted_user_password_libreoffice__pw_openpassword.pdf": "ENCRYPTED",
  // Scans are read with OCR under the engine's default (ocr "auto")…
  "scanned_image_only_gutenberg_page.pdf": "imported",
  "scanned_image_only_hipaa_164-306_164-308_DERIVED.groundtruth.txt": "imported",
  "scanned_image_only_hipaa_164-306_164-308_DERIVED.pdf": "imported",
  "scanned_image_only_two_column_brochure.pdf": "imported",
};

/** …and refused as before with OCR off (`--ocr never`): each of these is also imported that way first. */
export const BAD_INPUT_OUTCOMES_WITHOUT_OCR: Record<string, Outcome> = {
  "scanned_image_only_gutenberg_page.pdf": "NO_TEXT_LAYER",
  "scanned_image_only_hipaa_164-306_164-308_DERIVED.pdf": "NO_TEXT_LAYER",
  "scanned_image_only_two_column_brochure.pdf": "NO_TEXT_LAYER",
};

const manifestSchema = z.object({ files: z.array(z.object({ path: z.string() })) });

/** The bad_inputs files the manifest lists, or [] without ../shared. */
function sharedBadInputs(): string[] {
  if (!existsSync(MANIFEST)) return [];
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(MANIFEST, "utf8")));
  return manifest.files
    .map((f) => f.path)
    .filter((p) => p.startsWith("bad_inputs/"))
    .map((p) => path.basename(p));
}

interface LibraryShape {
  documents: number;
  sections: number;
  ids: string[];
}

async function libraryShape(engine: Engine): Promise<LibraryShape> {
  const stats = await engine.stats();
  const ids = (await engine.listDocuments()).map((d) => d.id).sort();
  return { documents: stats.documents, sections: stats.sections, ids };
}

function outcomeOf(result: ImportResult | undefined): Outcome | "skipped" | "missing" {
  if (result === undefined) return "missing";
  if (result.status === "ok") return "imported";
  if (result.status === "skipped") return "skipped";
  return result.error?.code ?? "INTERNAL";
}

/** Imports one file and checks the documented outcome; returns a failure message or null. */
async function tryOne(
  engine: Engine,
  name: string,
  file: string,
  expected: Outcome,
  options: ImportOptions = {},
): Promise<{ failure: string | null; actual: string }> {
  const before = await libraryShape(engine);
  let result: ImportResult | undefined;
  try {
    [result] = await engine.importFiles([file], options);
  } catch (err) {
    return { failure: `${name}: importFiles threw ${err instanceof Error ? err.message : String(err)}`, actual: "threw" };
  }
  const actual = outcomeOf(result);
  const after = await libraryShape(engine);
  if (actual !== expected) {
    return { failure: `${name}: expected ${expected}, got ${actual}${result?.error ? ` (${result.error.message})` : ""}`, actual };
  }
  if (expected === "imported") {
    if (after.documents !== before.documents + 1)
      return { failure: `${name}: imported but the library has ${after.documents} documents (was ${before.documents})`, actual };
    return { failure: null, actual };
  }
  const error = result?.error;
  const basename = path.basename(file);
  if (error === undefined || !error.message.includes(basename)) {
    return { failure: `${name}: the error does not name the file ${basename}: ${error?.message ?? "(no error)"}`, actual };
  }
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    return { failure: `${name}: a failed import changed the library (${JSON.stringify(before)} → ${JSON.stringify(after)})`, actual };
  }
  return { failure: null, actual };
}

export async function runHostileInputs(opts: HostileInputsOptions = {}): Promise<HostileInputsResult> {
  const log = opts.log ?? (() => {});
  const tmp = await mkdtemp(path.join(os.tmpdir(), "cg-hostile-"));
  const dataDir = opts.dataDir ?? path.join(tmp, "data");
  const result: HostileInputsResult = { tried: 0, handled: 0, failures: [], outcomes: [] };
  // Parsing and structure are under test, not embeddings: without them 2,000 pages import quickly.
  const engine = await createEngine({ dataDir, llm: null, embedder: null });
  const record = (name: string, expected: Outcome, check: { failure: string | null; actual: string }): void => {
    result.tried += 1;
    if (check.failure === null) result.handled += 1;
    else result.failures.push(check.failure);
    result.outcomes.push(`${name}: expected ${expected}, got ${check.actual}`);
    log(`hostile input ${name}: ${check.failure === null ? "ok" : check.failure} (rss ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB)`);
  };
  try {
    // A library with something in it, so "unchanged after a failure" means something.
    const baseline = path.join(tmp, "baseline.pdf");
    await writeFile(baseline, await regulationPdf());
    await engine.importFiles([baseline]);
    if (opts.generated !== false) {
      const dir = path.join(tmp, "inputs");
      await mkdir(dir, { recursive: true });
      for (const hostile of GENERATED_CASES) {
        let file: string;
        try {
          file = await hostile.make(dir);
        } catch (err) {
          record(hostile.name, hostile.expected, {
            failure: `${hostile.name}: could not be generated: ${err instanceof Error ? err.message : String(err)}`,
            actual: "not generated",
          });
          continue;
        }
        record(hostile.name, hostile.expected, await tryOne(engine, hostile.name, file, hostile.expected));
      }
    }
    if (opts.shared !== false) {
      for (const name of sharedBadInputs()) {
        const expected = BAD_INPUT_OUTCOMES[name];
        if (expected === undefined) {
          record(name, "INTERNAL", { failure: `${name}: no documented outcome (add it to BAD_INPUT_OUTCOMES and README.md)`, actual: "undocumented" });
          continue;
        }
        const withoutOcr = BAD_INPUT_OUTCOMES_WITHOUT_OCR[name];
        if (withoutOcr !== undefined)
          record(`${name} (--ocr never)`, withoutOcr, await tryOne(engine, name, path.join(BAD_INPUTS, name), withoutOcr, { ocr: "never" }));
        record(name, expected, await tryOne(engine, name, path.join(BAD_INPUTS, name), expected));
      }
    }
    return result;
  } finally {
    await engine.close();
    await rm(tmp, { recursive: true, force: true });
  }
}
