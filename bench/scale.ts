// bench:scale — a library the size of a compliance department's. Builds a library of the 52 real
// documents (the 40 ADGM rulebooks ObliQA ships as text, the ten corpus PDFs, the two text laws),
// then grows it to N times that size with the same texts as distinct editions (each file's text
// changed, so each is a new document), and prints for each size: import throughput against
// `pdftotext` on the same PDFs (ratio), the import time of one more 100-page PDF (against its time
// in an empty library, measured in the same run), the engine's peak RSS, search and ask p50/p95 on
// ObliQA test questions, cold open to first answer, disk size, the web host's document list and a
// graph load, and the full-text segments. Writes bench-results/scale.json and a Markdown table.
//
// Usage: npm run bench:scale -- [--sizes 1,10] [--questions 100] [--keep DIR]
//        npm run bench:scale -- --measure DIR   (the query-side figures of a library built before)
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { PDFDocument } from "pdf-lib";
import { createEngine, databasePath } from "../core/engine.ts";
import type { Engine } from "../core/model/engine-types.ts";
import { startWebHost } from "../core/host/web-host.ts";
import type { KuzuGraphStore } from "../core/store/kuzu/kuzu-store.ts";
import { createLibraryStore } from "../core/store/library-store.ts";
import type { SectionFileControls } from "../core/store/section-files.ts";
import { coldStart } from "./lib/cold-start.ts";
import { connectHost } from "./lib/host-client.ts";
import { percentile } from "./lib/metrics.ts";
import { loadObliqaQuestions } from "./lib/obliqa-corpus.ts";
import { sampleRss } from "./lib/rss-sampler.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const corpus = path.resolve(root, "../shared/corpus");
const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1,10" },
    questions: { type: "string", default: "100" },
    keep: { type: "string" },
    measure: { type: "string" },
  },
});
if (!existsSync(corpus)) {
  console.log(`bench:scale skipped: ${corpus} is not here (the shared corpus exists on the build machines only)`);
  process.exit(0);
}

const sizes = String(values.sizes)
  .split(",")
  .map(Number)
  .filter((n) => Number.isInteger(n) && n >= 1);
const questionCount = Math.max(1, Number(values.questions));
const work = values.keep ?? mkdtempSync(path.join(os.tmpdir(), "cg-scale-"));
mkdirSync(work, { recursive: true });
const MB = 1024 * 1024;

const textFiles = [
  ...readdirSync(path.join(corpus, "qa/obliqa/documents_txt"))
    .filter((f) => f.endsWith(".txt"))
    .sort()
    .map((f) => path.join(corpus, "qa/obliqa/documents_txt", f)),
  ...readdirSync(path.join(corpus, "text"))
    .filter((f) => f.endsWith(".txt"))
    .sort()
    .map((f) => path.join(corpus, "text", f)),
];
const pdfFiles = readdirSync(path.join(corpus, "regulatory"))
  .filter((f) => f.endsWith(".pdf"))
  .sort()
  .map((f) => path.join(corpus, "regulatory", f));
/** The "one more" document: a real ~100-page regulation (HIPAA's 115 pages), as a new edition each time. */
const ONE_MORE = pdfFiles.find((f) => f.includes("hipaa")) ?? pdfFiles[0] ?? "";

/** Edition `k` of a text file: its text with an edition line and its dates restated, so a new document. */
function textEdition(file: string, k: number, dir: string): string {
  const out = path.join(dir, `${path.basename(file, ".txt")} (edition ${k}).txt`);
  if (!existsSync(out)) writeFileSync(out, `Consolidated edition ${k}\n\n${readFileSync(file, "utf8")}`);
  return out;
}

/** Edition `k` of a PDF: the same pages with a changed title and a blank last page, so a new document. */
async function pdfEdition(file: string, k: number, dir: string): Promise<string> {
  const out = path.join(dir, `${path.basename(file, ".pdf")} (edition ${k}).pdf`);
  if (existsSync(out)) return out;
  const pdf = await PDFDocument.load(readFileSync(file), { ignoreEncryption: true, updateMetadata: false });
  pdf.setTitle(`${pdf.getTitle() ?? path.basename(file)} — edition ${k}`);
  pdf.setSubject(`edition ${k}`);
  writeFileSync(out, await pdf.save());
  return out;
}

/** The floor: pdftotext over the same PDFs, in this run. */
function pdftotextMs(files: readonly string[]): number | null {
  if (spawnSync("pdftotext", ["-v"]).error) return null;
  const started = performance.now();
  for (const f of files) execFileSync("pdftotext", ["-layout", f, "-"], { stdio: ["ignore", "ignore", "ignore"], maxBuffer: 256 * MB });
  return performance.now() - started;
}

function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? diskBytes(p) : statSync(p).size;
  }
  return total;
}

async function importAll(engine: Engine, files: readonly string[]): Promise<{ ms: number; pages: number; failed: string[] }> {
  const started = performance.now();
  const results = await engine.importFiles([...files]);
  return {
    ms: performance.now() - started,
    pages: results.reduce((sum, r) => sum + r.pages, 0),
    failed: results.filter((r) => r.status === "error").map((r) => `${path.basename(r.file)}: ${r.error?.code} ${r.error?.message}`),
  };
}

/**
 * The engine on `dir`, with its store at hand: the bench waits for the index's background merges.
 * `warmUp`: warmed up at open as the app's engine is (the first answer after a cold open is
 * measured apart, in a process of its own).
 */
async function openLibrary(dir: string, options: { warmUp?: boolean } = {}): Promise<{ engine: Engine; store: KuzuGraphStore & SectionFileControls }> {
  mkdirSync(dir, { recursive: true });
  const store = createLibraryStore({ dbPath: databasePath(dir) });
  return { engine: await createEngine({ dataDir: dir, llm: null, store, warmUp: options.warmUp ?? false }), store };
}

interface QueryFigures {
  searchP50: number;
  searchP95: number;
  askP50: number;
  askP95: number;
}

/** Search and ask latencies over the ObliQA test questions, on an open library. */
async function measureQueries(
  engine: Engine,
  store: KuzuGraphStore,
): Promise<{ figures: QueryFigures; documents: number; sections: number; errors: string[] }> {
  await store.searchIndexSettled();
  const searchMs: number[] = [];
  const askMs: number[] = [];
  const errors: string[] = [];
  for (const q of questions) {
    try {
      let t = performance.now();
      await engine.search(q.text, { k: 10 });
      searchMs.push(performance.now() - t);
      t = performance.now();
      await engine.ask(q.text);
      askMs.push(performance.now() - t);
    } catch (err) {
      errors.push(`${q.id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const stats = await engine.stats();
  return {
    figures: { searchP50: percentile(searchMs, 50), searchP95: percentile(searchMs, 95), askP50: percentile(askMs, 50), askP95: percentile(askMs, 95) },
    documents: stats.documents,
    sections: stats.sections,
    errors,
  };
}

/** A contract reply's value (`{ ok, value }`), or the reply itself. */
function valueOf(reply: unknown): unknown {
  return typeof reply === "object" && reply !== null && "value" in reply ? (reply as { value: unknown }).value : reply;
}

/** Cold starts measured per library: their median is the figure. */
const COLD_STARTS = 3;

/** With the library closed: cold open to first answer in a process of its own, the web host, the disk. */
async function afterClose(
  dir: string,
): Promise<{ figures: { coldOpenToAnswerMs: number; diskMb: number; hostListMs: number; hostGraphMs: number }; errors: string[] }> {
  const errors: string[] = [];
  const question = questions[0]?.text ?? "What must be reported to the Regulator?";
  // The median of a few: the first process started right after this one closed a large library
  // shares the machine with this one's clean-up, which no user's first start does.
  const colds: number[] = [];
  for (let run = 0; run < COLD_STARTS; run++) {
    const cold = await coldStart({ dataDir: dir, question }).catch((err: unknown) => {
      errors.push(`cold start: ${String(err).slice(-300)}`);
      return null;
    });
    if (cold !== null) colds.push(cold.totalMs);
  }
  console.log(`cold open to first answer, ${colds.length} runs: ${colds.map((ms) => fmt(ms)).join(", ")}`);
  const coldOpenToAnswerMs = colds.length === 0 ? NaN : percentile(colds, 50);

  // The web host on the same library: the document list and a section's graph, as the UI loads them.
  const host = await startWebHost({ dataDir: dir, port: 0, staticDir: path.join(root, "dist/renderer") });
  let hostListMs = NaN;
  let hostGraphMs = NaN;
  try {
    const client = await connectHost(host);
    // The first list waits for the host to open its engine (that is the cold open above); the
    // figure is a list as the UI asks for it again on every change.
    let t = performance.now();
    await client.call("documents.list", {}, 120_000);
    t = performance.now();
    const docs = valueOf(await client.call("documents.list", {}, 120_000));
    hostListMs = performance.now() - t;
    if (!Array.isArray(docs)) errors.push("web host: documents.list gave no list");
    const hits = valueOf(await client.call("search", { query: question, k: 1 }, 120_000));
    const first =
      typeof hits === "object" && hits !== null && "results" in hits && Array.isArray(hits.results) ? (hits.results[0] as { sectionId?: unknown }) : null;
    if (typeof first?.sectionId === "string") {
      t = performance.now();
      await client.call("graph.neighbors", { nodeId: `section:${first.sectionId}` }, 120_000);
      hostGraphMs = performance.now() - t;
    } else errors.push("web host: the search found no section to load the graph of");
    client.close();
  } finally {
    await host.close();
  }
  return { figures: { coldOpenToAnswerMs, diskMb: Math.round(diskBytes(dir) / MB), hostListMs, hostGraphMs }, errors };
}

const fmt = (ms: number): string => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const questions = (await loadObliqaQuestions(path.join(corpus, "qa/obliqa/ObliQA_test.json"))).slice(0, questionCount);

interface SizeFigures {
  size: number;
  documents: number;
  sections: number;
  importMs: number;
  pdfPages: number;
  pdfImportMs: number;
  pdftotextMs: number | null;
  oneMoreMs: number;
  oneMoreEmptyMs: number;
  peakRssMb: number;
  searchP50: number;
  searchP95: number;
  askP50: number;
  askP95: number;
  coldOpenToAnswerMs: number;
  diskMb: number;
  hostListMs: number;
  hostGraphMs: number;
  segments: number;
  errors: string[];
}

// One more 100-page PDF in an empty library: the reference the large library's import is held to.
async function oneMoreInEmpty(k: number): Promise<number> {
  const dir = path.join(work, `empty-${k}`);
  rmSync(dir, { recursive: true, force: true });
  const { engine } = await openLibrary(dir);
  try {
    const file = await pdfEdition(ONE_MORE, 1000 + k, editionsDir);
    return (await importAll(engine, [file])).ms;
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const editionsDir = path.join(work, "editions");
mkdirSync(editionsDir, { recursive: true });
const dataDir = path.join(work, "library");
rmSync(dataDir, { recursive: true, force: true });
const figures: SizeFigures[] = [];
/** Each edition's import time as the library grows: the growth curve. */
const curve: Array<{ edition: number; documents: number; sections: number; textsMs: number; pdfsMs: number }> = [];
if (values.measure !== undefined) {
  // The query side of a library built before (its import figures are in that run's output).
  const rss = sampleRss(200);
  const { engine, store } = await openLibrary(values.measure, { warmUp: true });
  const warmStarted = performance.now();
  await engine.idle();
  console.log(`warmed up as the app does in ${fmt(performance.now() - warmStarted)}`);
  // A search index of a format before, or none, is built once before the questions: measured apart.
  const indexStarted = performance.now();
  await store.refreshSearchIndex();
  const shape = await store.searchIndexSettled();
  console.log(`search index ready in ${fmt(performance.now() - indexStarted)} (${shape.segments} segments, ${Math.round(shape.bytes / MB)} MB)`);
  // A library built before the section files gets them once, in the background: measured apart.
  const filesStarted = performance.now();
  await store.sectionFilesSettled();
  console.log(`section files settled in ${fmt(performance.now() - filesStarted)}`);
  const q = await measureQueries(engine, store);
  await engine.close();
  const peaks = rss.stop();
  const after = await afterClose(values.measure);
  console.log(
    JSON.stringify({
      library: values.measure,
      documents: q.documents,
      sections: q.sections,
      segments: shape.segments,
      peakRssMb: Math.round(peaks.engine / MB),
      ...q.figures,
      ...after.figures,
      errors: [...q.errors, ...after.errors],
    }),
  );
  process.exit(0);
}
// One more 100-page PDF in an empty library, first, so its engine adds nothing to the peaks below.
const oneMoreEmptyMs = await oneMoreInEmpty(0);
let importedEditions = 0;
let importMsTotal = 0;
let pdfImportMsTotal = 0;
let pdfPagesTotal = 0;
let floorMsTotal = 0;
const errors: string[] = [];

for (const size of sizes.sort((a, b) => a - b)) {
  console.log(`\n== ${size}× the 52 documents ==`);
  const rss = sampleRss(200);
  const { engine, store } = await openLibrary(dataDir);
  // Editions 0 (the files themselves) up to size-1: the texts first, then the PDFs of each edition.
  for (let k = importedEditions; k < size; k++) {
    const texts = k === 0 ? textFiles : textFiles.map((f) => textEdition(f, k, editionsDir));
    const pdfs = k === 0 ? pdfFiles : await Promise.all(pdfFiles.map((f) => pdfEdition(f, k, editionsDir)));
    const t = await importAll(engine, texts);
    const p = await importAll(engine, pdfs);
    importMsTotal += t.ms + p.ms;
    pdfImportMsTotal += p.ms;
    pdfPagesTotal += p.pages;
    floorMsTotal += pdftotextMs(pdfs) ?? 0;
    errors.push(...t.failed, ...p.failed);
    const stats = await engine.stats();
    curve.push({ edition: k, documents: stats.documents, sections: stats.sections, textsMs: t.ms, pdfsMs: p.ms });
    console.log(
      `edition ${k}: ${texts.length} texts in ${fmt(t.ms)}, ${pdfs.length} PDFs in ${fmt(p.ms)}${t.failed.length + p.failed.length > 0 ? `, ${t.failed.length + p.failed.length} failed` : ""}`,
    );
  }
  importedEditions = size;
  await store.searchIndexSettled();

  // One more 100-page PDF into this library, end to end (read, graph, vectors, store, index).
  const oneMoreFile = await pdfEdition(ONE_MORE, 500 + size, editionsDir);
  const oneMore = await importAll(engine, [oneMoreFile]);
  errors.push(...oneMore.failed);
  const shape = await store.searchIndexSettled();

  const q = await measureQueries(engine, store);
  await engine.close();
  const peaks = rss.stop();
  const after = await afterClose(dataDir);
  errors.push(...q.errors, ...after.errors);

  const row: SizeFigures = {
    size,
    documents: q.documents,
    sections: q.sections,
    importMs: importMsTotal,
    pdfPages: pdfPagesTotal,
    pdfImportMs: pdfImportMsTotal,
    pdftotextMs: floorMsTotal,
    oneMoreMs: oneMore.ms,
    oneMoreEmptyMs,
    peakRssMb: Math.round(peaks.engine / MB),
    ...q.figures,
    ...after.figures,
    segments: shape.segments,
    errors: [...errors],
  };
  figures.push(row);
  errors.length = 0;
  console.log(JSON.stringify(row));
}

const lines = [
  `bench:scale — ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${questionCount} ObliQA test questions`,
  "",
  "| library | documents | sections | import (PDF pages/s, × pdftotext) | one more 100-page PDF (× empty library) | peak RSS | search p50/p95 | ask p50/p95 | cold open → answer | disk | host list / graph | segments | errors |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ...figures.map((f) => {
    const pagesPerS = f.pdfPages / (f.pdfImportMs / 1000);
    const ratio = f.pdftotextMs ? f.pdfImportMs / f.pdftotextMs : null;
    return (
      `| ${f.size}× | ${f.documents} | ${f.sections.toLocaleString("en")} | ${fmt(f.importMs)} (${pagesPerS.toFixed(1)} p/s, ${ratio === null ? "n/a" : `${ratio.toFixed(0)}×`}) ` +
      `| ${fmt(f.oneMoreMs)} (${(f.oneMoreMs / f.oneMoreEmptyMs).toFixed(2)}× ${fmt(f.oneMoreEmptyMs)}) | ${f.peakRssMb} MB | ${Math.round(f.searchP50)} / ${Math.round(f.searchP95)} ms ` +
      `| ${Math.round(f.askP50)} / ${Math.round(f.askP95)} ms | ${fmt(f.coldOpenToAnswerMs)} | ${f.diskMb} MB | ${Math.round(f.hostListMs)} / ${Math.round(f.hostGraphMs)} ms | ${f.segments} | ${f.errors.length} |`
    );
  }),
];
lines.push(
  "",
  "Growth curve: each edition's 42 text files and 10 PDFs imported into the library as it stood.",
  "",
  "| edition | documents after | sections after | 42 texts | 10 PDFs |",
  "|---|---|---|---|---|",
  ...curve.map((c) => `| ${c.edition} | ${c.documents} | ${c.sections.toLocaleString("en")} | ${fmt(c.textsMs)} | ${fmt(c.pdfsMs)} |`),
);
console.log(`\n${lines.join("\n")}`);
for (const f of figures) for (const e of f.errors.slice(0, 20)) console.log(`  ${f.size}×: ${e}`);
mkdirSync(path.join(root, "bench-results"), { recursive: true });
writeFileSync(path.join(root, "bench-results/scale.json"), `${JSON.stringify({ figures, curve }, null, 2)}\n`);
writeFileSync(path.join(root, "bench-results/scale.md"), `${lines.join("\n")}\n`);
if (values.keep === undefined) rmSync(work, { recursive: true, force: true });
else cpSync(path.join(root, "bench-results/scale.md"), path.join(work, "scale.md"));
