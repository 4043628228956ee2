import { readdirSync } from "node:fs";
import path from "node:path";
import { createEngine } from "../../core/engine.ts";
import type { Engine, EngineResources, ImportResult } from "../../core/model/engine-types.ts";
import { toErrorInfo } from "../../core/model/errors.ts";
import { createRandom } from "./fuzz-payloads.ts";
import { percentile } from "./metrics.ts";
import { killParseChildren, parseChildPids } from "./rss-sampler.ts";

// The mixed soak: one engine through thousands of operations of every kind a user's weeks bring:
// searches, questions, graph lookups, comparisons, deletes and re-imports of real regulations,
// bad inputs of every kind, parsing children killed mid-import, OCR of a scanned PDF. At each
// hundred it records the engine process's peak RSS over that hundred, its heap, handles, file
// descriptors, child processes and the size of every cache and buffer the engine keeps
// (Engine.resources). Passing: the last hundred's peak within 10 % of the first's, no INTERNAL
// error, no operation failing in a way it should not.

export type MixedOperation = "search" | "ask" | "graph" | "reimport" | "bad-input" | "kill-parse" | "compare" | "ocr";

/** Share of each operation among the draws (OCR comes every OCR_EVERY operations instead). */
const MIX: ReadonlyArray<[MixedOperation, number]> = [
  ["search", 40],
  ["ask", 27],
  ["graph", 12],
  ["reimport", 6],
  ["bad-input", 10],
  ["kill-parse", 2],
  ["compare", 3],
];
const OCR_EVERY = 500;
/** The goal: the last hundred's peak RSS within this share of the first hundred's. */
export const FLAT_RSS_SHARE = 0.1;
const SAMPLE_MS = 100;

export interface MixedSoakOptions {
  dataDir: string;
  modelRoot?: string;
  /** Imported first and kept (deleted and re-imported one at a time). */
  library: string[];
  /** Damaged, encrypted and empty files (corpus/bad_inputs without the scanned ones): a typed error, or read. */
  badInputs: string[];
  /** A scanned PDF read with OCR now and then (null: no OCR). */
  scanned: string | null;
  operations: number;
  queries: readonly string[];
  questions: readonly string[];
  seed?: number;
  log: (line: string) => void;
}

export interface MixedTracePoint {
  operations: number;
  /** The engine process's peak RSS over these hundred operations. */
  peakRssMb: number;
  /** The operation running when that peak was sampled (with its file, for imports). */
  peakDuring: string;
  /** RSS at the hundred's end, between operations. */
  endRssMb: number;
  heapMb: number;
  externalMb: number;
  handles: number;
  fds: number;
  parseChildren: number;
  resources: EngineResources;
}

export interface MixedSoakSummary {
  operations: number;
  seconds: number;
  setupSeconds: number;
  counts: Record<string, number>;
  msByOperation: Record<string, { p50: number; p95: number }>;
  internalErrors: string[];
  unexpected: string[];
  trace: MixedTracePoint[];
  firstPeakMb: number;
  lastPeakMb: number;
  growthPct: number;
  flat: boolean;
}

function openFds(): number {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return -1;
  }
}

/** Timers, sockets, child processes and file handles keeping the event loop alive. */
function activeHandles(): number {
  return process.getActiveResourcesInfo().length;
}

// Long function: one loop over the operations, each a short case.
export async function runMixedSoak(options: MixedSoakOptions): Promise<MixedSoakSummary> {
  const { log } = options;
  const next = createRandom(options.seed ?? 20261129);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const total = MIX.reduce((sum, [, w]) => sum + w, 0);
  const draw = (): MixedOperation => {
    let r = next() * total;
    for (const [op, w] of MIX) if ((r -= w) < 0) return op;
    return "search";
  };

  let windowPeak = 0;
  /** What runs now, and what ran when the window's peak was sampled: a peak is a growth or one operation's own work. */
  let running = "between operations";
  let windowPeakDuring = running;
  const sample = (): void => {
    const rss = process.memoryUsage.rss();
    if (rss <= windowPeak) return;
    windowPeak = rss;
    windowPeakDuring = running;
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  sampler.unref();
  // Compactions and pool changes are printed where they happen: each one is a peak of its own.
  const engineLog = (message: string): void => {
    if (/compacted|buffer pool/.test(message)) log(`  engine: ${message} (during ${running})`);
  };
  const engine: Engine = await createEngine({
    dataDir: options.dataDir,
    llm: null,
    log: engineLog,
    ...(options.modelRoot ? { modelRoot: options.modelRoot } : {}),
  });
  const counts: Record<string, number> = {};
  const times = new Map<string, number[]>();
  const internalErrors: string[] = [];
  const unexpected: string[] = [];
  const trace: MixedTracePoint[] = [];
  const note = (op: string, what: string): void => {
    const list = what.includes("INTERNAL") ? internalErrors : unexpected;
    if (list.length < 50) list.push(`${op}: ${what}`);
  };
  /** Imports `file`; `expect` says which outcomes are right for it. */
  const importOne = async (
    op: string,
    file: string,
    expect: (r: ImportResult) => boolean,
    extra: { ocr?: "auto" | "never" } = {},
  ): Promise<ImportResult | null> => {
    running = `${op} ${path.basename(file)}`;
    try {
      const [r] = await engine.importFiles([file], { ocr: extra.ocr ?? "never" });
      if (r === undefined) return null;
      if (r.error?.code === "INTERNAL" || !expect(r)) note(op, `${path.basename(file)} → ${r.status} ${r.error?.code ?? ""} ${r.error?.message ?? ""}`.trim());
      return r;
    } catch (err) {
      const info = toErrorInfo(err);
      note(op, `${path.basename(file)} threw ${info.code} ${info.message}`);
      return null;
    }
  };
  const imported = new Map<string, string>(); // file → document id
  const documentFiles = (): string[] => [...imported.keys()];

  const setupStarted = performance.now();
  for (const file of options.library) {
    const r = await importOne("setup", file, (x) => x.status === "ok" || x.status === "skipped");
    if (r?.documentId) imported.set(file, r.documentId);
  }
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  log(`setup: ${imported.size} of ${options.library.length} documents imported in ${setupSeconds.toFixed(0)} s`);

  /** One operation of the given kind; what goes wrong is noted, never thrown. */
  const perform = async (op: MixedOperation): Promise<void> => {
    running = op;
    try {
      switch (op) {
        case "search": {
          const r = await engine.search(pick(options.queries), { k: 10 });
          if (r.results.length === 0 && imported.size > 0) note(op, `no result for "${r.query}"`);
          break;
        }
        case "ask": {
          await engine.ask(pick(options.questions));
          break;
        }
        case "graph": {
          const r = await engine.search(pick(options.queries), { k: 1 });
          const hit = r.results[0];
          if (hit !== undefined) await engine.graphNeighbors(`section:${hit.sectionId}`);
          break;
        }
        case "reimport": {
          const file = pick(documentFiles());
          const id = imported.get(file);
          if (id === undefined) break;
          await engine.deleteDocument(id);
          imported.delete(file);
          const r = await importOne(op, file, (x) => x.status === "ok");
          if (r?.documentId) imported.set(file, r.documentId);
          break;
        }
        case "bad-input": {
          const file = pick(options.badInputs);
          // A typed refusal, or (owner-password PDFs, a damaged stream pdf.js recovers) a document
          // read, which is taken out again so that the library stays the same.
          const r = await importOne(op, file, (x) => x.status === "ok" || (x.status === "error" && x.error !== undefined));
          if (r?.status === "ok" && r.documentId) await engine.deleteDocument(r.documentId);
          break;
        }
        case "kill-parse": {
          // The largest document, deleted and imported again; its parsing child killed once it runs.
          const file = [...documentFiles()].sort((a, b) => b.length - a.length).find((f) => f.endsWith(".pdf"));
          const id = file === undefined ? undefined : imported.get(file);
          if (file === undefined || id === undefined) break;
          await engine.deleteDocument(id);
          imported.delete(file);
          const importing = importOne(op, file, (x) => x.status === "ok" || (x.status === "error" && x.error?.code !== "INTERNAL"));
          const killer = setInterval(killParseChildren, 50);
          const r = await importing.finally(() => clearInterval(killer));
          if (r?.status === "ok" && r.documentId) imported.set(file, r.documentId);
          else {
            const again = await importOne(op, file, (x) => x.status === "ok");
            if (again?.documentId) imported.set(file, again.documentId);
          }
          break;
        }
        case "compare": {
          const ids = [...imported.values()];
          if (ids.length < 2) break;
          const a = pick(ids);
          const b = pick(ids.filter((x) => x !== a));
          const r = await engine.compareDocuments(a, b);
          await engine.deleteComparison(r.comparison.id);
          break;
        }
        case "ocr": {
          if (options.scanned === null) break;
          const r = await importOne(op, options.scanned, (x) => x.status === "ok" || x.status === "skipped", { ocr: "auto" });
          if (r?.status === "ok" && r.documentId) await engine.deleteDocument(r.documentId);
          break;
        }
      }
    } catch (err) {
      const info = toErrorInfo(err);
      note(op, `${info.code} ${info.message}`);
    }
    running = "between operations";
  };

  // A warm-up round, every kind of operation once, not counted: the first hundred is then compared
  // with the last as equals (pools, the OCR worker and the caches have met every kind of work).
  for (const op of [...MIX.map(([kind]) => kind), ...(options.scanned !== null ? (["ocr"] as const) : [])]) await perform(op);
  log(`warm-up: every kind of operation once`);

  const started = performance.now();
  windowPeak = process.memoryUsage.rss();
  windowPeakDuring = running;
  for (let i = 1; i <= options.operations; i++) {
    const op: MixedOperation = options.scanned !== null && i % OCR_EVERY === 0 ? "ocr" : draw();
    counts[op] = (counts[op] ?? 0) + 1;
    const t = performance.now();
    await perform(op);
    const list = times.get(op) ?? [];
    list.push(performance.now() - t);
    times.set(op, list);

    if (i % 100 === 0) {
      const memory = process.memoryUsage();
      const point: MixedTracePoint = {
        operations: i,
        peakRssMb: Math.round(Math.max(windowPeak, memory.rss) / 2 ** 20),
        peakDuring: windowPeak >= memory.rss ? windowPeakDuring : "between operations",
        endRssMb: Math.round(memory.rss / 2 ** 20),
        heapMb: Math.round(memory.heapUsed / 2 ** 20),
        externalMb: Math.round(memory.external / 2 ** 20),
        handles: activeHandles(),
        fds: openFds(),
        parseChildren: parseChildPids().length,
        resources: await engine.resources(),
      };
      trace.push(point);
      windowPeak = memory.rss;
      windowPeakDuring = running;
      const r = point.resources;
      log(
        `${String(i).padStart(5)} ops ${((performance.now() - started) / 1000).toFixed(0).padStart(5)} s | peak RSS ${point.peakRssMb} MB (${point.peakDuring}), end ${point.endRssMb} MB, heap ${point.heapMb} MB, external ${point.externalMb} MB, ` +
          `handles ${point.handles}, fds ${point.fds}, parse children ${point.parseChildren} | read cache ${r.readCacheEntries}, stems ${r.stemCacheEntries}, ` +
          `contexts ${r.contextCacheEntries}, section vectors ${r.sectionVectorCacheEntries}, mirror rows ${r.vectorMirrorRows}, segments ${r.searchSegments} (${r.searchIndexMb} MB), ` +
          `pools ${r.kuzuPoolMb} MB, writes ${r.pendingWrites} | INTERNAL ${internalErrors.length}, unexpected ${unexpected.length}`,
      );
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await engine.close();
  clearInterval(sampler);

  const firstPeakMb = trace[0]?.peakRssMb ?? 0;
  const lastPeakMb = trace.at(-1)?.peakRssMb ?? 0;
  const growthPct = firstPeakMb > 0 ? Math.round(((lastPeakMb - firstPeakMb) / firstPeakMb) * 1000) / 10 : 0;
  const msByOperation: Record<string, { p50: number; p95: number }> = {};
  for (const [op, list] of times) msByOperation[op] = { p50: Math.round(percentile(list, 50)), p95: Math.round(percentile(list, 95)) };
  return {
    operations: options.operations,
    seconds: Math.round(seconds),
    setupSeconds: Math.round(setupSeconds),
    counts,
    msByOperation,
    internalErrors,
    unexpected,
    trace,
    firstPeakMb,
    lastPeakMb,
    growthPct,
    flat: lastPeakMb <= firstPeakMb * (1 + FLAT_RSS_SHARE),
  };
}
