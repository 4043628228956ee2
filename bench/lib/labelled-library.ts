// The library of the ten corpus PDFs that bench:answer asks its labelled questions against,
// imported through the real engine (createEngine → importFiles) and kept under os.tmpdir()
// between runs: importing the ten files takes a minute or more on our 2-core machines, asking
// 150 questions a few seconds.
//
// The cache key is the PDFs' sha256 plus a hash of the engine code that decides what an import
// stores (reading, sectioning, graph, rule triplets, instrument names, embeddings, the store): a
// library left by older import code would measure answers over sections the app no longer makes.
// Answer code (core/answer) is not in the key: it reads the library, it does not shape it.
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createEngine, sha256OfFile } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const CORE_DIR = path.resolve(here, "../../core");
/** Engine code an import runs through; a change to any of it rebuilds the cached library. */
const IMPORT_CODE = ["ingest", "structure", "graph", "extract", "embed", "store", "names", "engine.ts"];
/** Written last: a library without it was interrupted while importing and is never reused. */
const COMPLETE_MARKER = "labelled-library-complete.json";

async function sourceFiles(entry: string): Promise<string[]> {
  const full = path.join(CORE_DIR, entry);
  if (!existsSync(full)) return [];
  if (entry.endsWith(".ts")) return [full];
  const found = await readdir(full, { recursive: true });
  return found.filter((f) => f.endsWith(".ts")).map((f) => path.join(full, f));
}

/** sha256 over the sorted PDFs (name and content hash) and the import code's sources. */
export async function libraryKey(pdfs: readonly string[]): Promise<string> {
  const hash = createHash("sha256");
  for (const pdf of [...pdfs].sort()) hash.update(`${path.basename(pdf)}\0${await sha256OfFile(pdf)}\n`);
  const code = (await Promise.all(IMPORT_CODE.map(sourceFiles))).flat().sort();
  for (const file of code) hash.update(`${path.relative(CORE_DIR, file)}\0`).update(await readFile(file));
  return hash.digest("hex");
}

/** The PDFs of a folder (../shared/corpus/regulatory: the ten the labelled library holds), sorted. */
export function pdfsIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith(".pdf"))
    .sort()
    .map((f) => path.join(dir, f));
}

export interface LabelledLibrary {
  engine: Engine;
  dataDir: string;
  /** True when this run imported the PDFs (the cache was missing or stale). */
  imported: boolean;
  importSeconds: number;
}

export interface OpenLabelledLibraryOptions {
  pdfs: readonly string[];
  /** Where the default embedding model is built (shared with the ObliQA run). */
  modelRoot: string;
  cacheRoot?: string;
  log: (line: string) => void;
}

/**
 * Opens the cached library of `pdfs`, importing them first when no complete library exists for
 * this key. Extractive answers only (llm: null), as every user starts. Two benches running at once
 * on the same cache would contend for Kuzu's lock: run one at a time.
 */
export async function openLabelledLibrary(options: OpenLabelledLibraryOptions): Promise<LabelledLibrary> {
  const cacheRoot = options.cacheRoot ?? path.join(os.tmpdir(), "clausegraph-labelled-library");
  const key = await libraryKey(options.pdfs);
  const dataDir = path.join(cacheRoot, key.slice(0, 24));
  let imported = false;
  let importSeconds = 0;
  if (!existsSync(path.join(dataDir, COMPLETE_MARKER))) {
    // Built beside the final place and renamed when complete, so an interrupted import is never
    // mistaken for a library.
    const building = `${dataDir}.building-${process.pid}`;
    await rm(building, { recursive: true, force: true });
    const started = performance.now();
    options.log(`importing ${options.pdfs.length} PDFs into ${building} (cached for later runs)`);
    const engine = await createEngine({ dataDir: building, modelRoot: options.modelRoot, llm: null, log: options.log });
    try {
      const results = await engine.importFiles([...options.pdfs]);
      const failed = results.filter((r) => r.status === "error");
      if (failed.length > 0) {
        throw new Error(`import failed: ${failed.map((r) => `${path.basename(r.file)}: ${r.error?.message ?? "unknown error"}`).join("; ")}`);
      }
      // Vectors re-embedded in the background must be in the store before it is reused.
      await engine.idle();
    } finally {
      await engine.close();
    }
    importSeconds = (performance.now() - started) / 1000;
    await writeFile(path.join(building, COMPLETE_MARKER), JSON.stringify({ key, pdfs: options.pdfs.map((p) => path.basename(p)), importSeconds }));
    await rm(dataDir, { recursive: true, force: true });
    await rename(building, dataDir);
    imported = true;
    // Each library is ~140 MB and only the current key's is ever reused: older ones go (imports
    // still under way, "….building-<pid>", are left to their process).
    for (const entry of await readdir(cacheRoot)) {
      if (entry !== path.basename(dataDir) && !entry.includes(".building-")) await rm(path.join(cacheRoot, entry), { recursive: true, force: true });
    }
  }
  const engine = await createEngine({ dataDir, modelRoot: options.modelRoot, llm: null, log: options.log });
  return { engine, dataDir, imported, importSeconds };
}
