import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { createEngine, databasePath, sourcePath } from "../../core/engine.ts";
import { toErrorInfo } from "../../core/errors.ts";
import type { StoreStats } from "../../core/store/graph-store.ts";
import { createKuzuStore } from "../../core/store/kuzu-store.ts";
import { writeCrashFixtures } from "./crash-fixtures.ts";
import { createScriptedLlm } from "./scripted-llm.ts";
import { checkStoreConsistency } from "./store-consistency.ts";

// Crash safety, measured: a child process imports a few small documents and is killed with
// SIGKILL at a random point (after a random number of its output lines, or after a random delay
// within an uninterrupted run's duration), so kills land in every stage of an import: opening and
// migrating the database, reading, sectioning, building the graph, embedding, storing, and the
// index refresh after it. After each kill the database must reopen, hold no half document, and a
// re-run of the import must end with the same counts as an uninterrupted run. Extraction runs do
// the same to LLM triplet extraction over an imported library, with a scripted model.

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, "../..");
const CHILD = path.join(here, "kill-child.ts");
const RUN_TS = path.join(ROOT, "bin", "run-ts.mjs");

export interface KillRunsOptions {
  /** Kills during import. */
  runs: number;
  seed: number;
  /** Kills during LLM triplet extraction, after the import runs (default 0). */
  extractRuns?: number;
  log?: (line: string) => void;
}

export interface KillRunsReport {
  /** Import and extraction runs together. */
  runs: number;
  /** Runs after which the database opened without error. */
  cleanReopen: number;
  /** Runs whose re-run import ended with the counts of an uninterrupted run, consistent throughout. */
  resumedEqual: number;
  failures: string[];
  /** Where the kills landed: the last step the child reported before it died, by count. */
  killedIn: Record<string, number>;
}

/** mulberry32: a tiny seeded generator, so a failing run can be replayed from its seed. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type KillPlan = { kind: "line"; line: number } | { kind: "time"; ms: number } | { kind: "never" };

interface ChildRun {
  lines: string[];
  /** ms from spawn to each line. */
  times: number[];
  durationMs: number;
  killed: boolean;
  stderr: string;
}

function runChild(dataDir: string, modelRoot: string, args: string[], plan: KillPlan): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [RUN_TS, CHILD, "--data", dataDir, "--models", modelRoot, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const run: ChildRun = { lines: [], times: [], durationMs: 0, killed: false, stderr: "" };
    const kill = (): void => {
      if (run.killed) return;
      run.killed = true;
      child.kill("SIGKILL");
    };
    const timer = plan.kind === "time" ? setTimeout(kill, plan.ms) : null;
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      if (run.killed) return;
      pending += chunk.toString("utf8");
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const line of parts) {
        run.lines.push(line);
        run.times.push(performance.now() - started);
        if (plan.kind === "line" && run.lines.length >= plan.line) {
          kill();
          return;
        }
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      run.stderr = (run.stderr + chunk.toString("utf8")).slice(-4000);
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (timer) clearTimeout(timer);
      run.durationMs = performance.now() - started;
      if (!run.killed && code !== 0) {
        reject(new Error(`import child exited with ${String(code ?? signal)}: ${run.stderr}`));
        return;
      }
      resolve(run);
    });
  });
}

/** The step a child was in when it died, from its last progress or log line. */
function stageOf(lines: readonly string[]): string {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? "";
    if (line.startsWith("done")) return "finished";
    if (line.startsWith("log search index") || line.startsWith("log vector index")) return "index refresh";
    if (line.startsWith("log database schema")) return "migration";
    if (line.startsWith("log embedding space") || line.startsWith("log building")) return "embeddings";
    const progress = /^progress (\w+) (\w+)/.exec(line);
    if (progress) return progress[1] === "done" ? "between files" : (progress[2] ?? "?");
    if (line === "opened") return "opened";
  }
  return "startup";
}

interface Counts {
  stats: StoreStats;
  ids: string[];
}

/** Runs the import (files) or the extraction (null) to completion in this process and counts. */
async function completeAndCount(dataDir: string, modelRoot: string, files: string[] | null): Promise<Counts> {
  const engine = await createEngine({ dataDir, modelRoot, llm: files === null ? createScriptedLlm(0) : null });
  try {
    if (files === null) {
      await engine.extractTriplets();
    } else {
      const results = await engine.importFiles(files);
      const failed = results.filter((r) => r.status === "error");
      if (failed.length > 0) throw new Error(`re-run import failed: ${failed.map((r) => `${r.file}: ${r.error?.code} ${r.error?.message}`).join("; ")}`);
    }
    // Re-embedding a document a kill left without vectors runs in the background: wait for it.
    await engine.idle();
    const ids = (await engine.listDocuments()).map((d) => d.id).sort();
    return { stats: await engine.stats(), ids };
  } finally {
    await engine.close();
  }
}

function sameCounts(a: StoreStats, b: StoreStats): string | null {
  const diff = (Object.keys(a) as Array<keyof StoreStats>).filter((k) => a[k] !== b[k]);
  return diff.length === 0 ? null : diff.map((k) => `${k} ${String(b[k])} (expected ${String(a[k])})`).join(", ");
}

interface Reference {
  lines: number;
  first: number;
  last: number;
  counts: Counts;
}

/** An uninterrupted child run: how long it takes, how much it prints, what it ends with. */
async function referenceRun(dataDir: string, modelRoot: string, args: string[], files: string[] | null): Promise<Reference> {
  const run = await runChild(dataDir, modelRoot, args, { kind: "never" });
  const counts = await completeAndCount(dataDir, modelRoot, files);
  // Time kills fall between the child's first line and the one before "done": before it the
  // process is only loading code, after it only closing and exiting.
  return { lines: run.lines.length, first: run.times[0] ?? 0, last: run.times.at(-2) ?? run.durationMs, counts };
}

export async function runKillRuns(opts: KillRunsOptions): Promise<KillRunsReport> {
  const log = opts.log ?? (() => {});
  const random = seededRandom(opts.seed);
  const work = await mkdtemp(path.join(os.tmpdir(), "cg-kill-"));
  const report: KillRunsReport = { runs: 0, cleanReopen: 0, resumedEqual: 0, failures: [], killedIn: {} };
  try {
    const docs = path.join(work, "docs");
    await mkdir(docs);
    const files = await writeCrashFixtures(docs);
    // One model folder for every run: the default embedding model is built once, by the warm-up.
    const modelRoot = path.join(work, "models");
    await runChild(path.join(work, "warm-up"), modelRoot, files, { kind: "never" });
    await rm(path.join(work, "warm-up"), { recursive: true, force: true });
    // The imported library doubles as the starting point of every extraction run.
    const library = path.join(work, "library");
    const imported = await referenceRun(library, modelRoot, files, files);
    const { stats } = imported.counts;
    log(
      `uninterrupted import: ${imported.lines} lines in ${Math.round(imported.last)} ms; ` +
        `${stats.documents} documents, ${stats.sections} sections, ${stats.crossReferences} references, ` +
        `${stats.terms} terms, ${stats.triplets} triplets, ${stats.embeddedSections} section vectors`,
    );
    const extractRuns = Math.max(0, opts.extractRuns ?? 0);
    let extracted: Reference | null = null;
    if (extractRuns > 0) {
      const dir = path.join(work, "extracted");
      await cp(library, dir, { recursive: true });
      extracted = await referenceRun(dir, modelRoot, ["--extract"], null);
      await rm(dir, { recursive: true, force: true });
      log(`uninterrupted extraction: ${extracted.lines} lines in ${Math.round(extracted.last)} ms; ${extracted.counts.stats.triplets} triplets`);
    }

    const total = opts.runs + extractRuns;
    for (let i = 0; i < total; i++) {
      const extracting = i >= opts.runs;
      const reference = extracting && extracted ? extracted : imported;
      // Half the runs kill right after a reported step, half at an arbitrary moment in between.
      const plan: KillPlan =
        i % 2 === 0
          ? { kind: "line", line: 1 + Math.floor(random() * reference.lines) }
          : { kind: "time", ms: Math.round(reference.first + random() * (reference.last - reference.first)) };
      const dataDir = path.join(work, `run-${i}`);
      const name = `${extracting ? "extraction" : "import"} run ${i} (seed ${opts.seed}, ${plan.kind === "line" ? `after line ${plan.line}` : plan.kind === "time" ? `at ${plan.ms} ms` : "no kill"})`;
      report.runs++;
      try {
        if (extracting) await cp(library, dataDir, { recursive: true });
        const child = await runChild(dataDir, modelRoot, extracting ? ["--extract"] : files, plan);
        const stage = `${extracting ? "extract:" : ""}${child.killed ? stageOf(child.lines) : "finished"}`;
        report.killedIn[stage] = (report.killedIn[stage] ?? 0) + 1;

        const store = createKuzuStore({ dbPath: databasePath(dataDir) });
        // A stored document always has its kept source copy (the viewer reads it).
        let withoutSource: string[] = [];
        try {
          await store.open();
          withoutSource = (await store.listDocuments()).filter((d) => !existsSync(sourcePath(dataDir, d.id, d.fileName))).map((d) => d.id);
          await store.close();
        } catch (err) {
          report.failures.push(`${name}, killed in ${stage}: the database does not reopen: ${toErrorInfo(err).code} ${toErrorInfo(err).message}`);
          continue;
        }
        report.cleanReopen++;
        const before = await checkStoreConsistency(databasePath(dataDir));
        const resumed = await completeAndCount(dataDir, modelRoot, extracting ? null : files);
        const after = await checkStoreConsistency(databasePath(dataDir));
        const problems = [
          ...withoutSource.map((id) => `after the kill: document ${id} has no source copy`),
          ...before.problems.map((p) => `after the kill: ${p}`),
          ...after.problems.map((p) => `after the re-run: ${p}`),
        ];
        const diff = sameCounts(reference.counts.stats, resumed.stats);
        if (diff !== null) problems.push(`re-run counts differ: ${diff}`);
        const expectedIds = reference.counts.ids.join(",");
        if (resumed.ids.join(",") !== expectedIds) problems.push(`re-run documents ${resumed.ids.join(",")} (expected ${expectedIds})`);
        if (problems.length === 0) report.resumedEqual++;
        else report.failures.push(`${name}, killed in ${stage}: ${problems.join("; ")}`);
        log(`${name}: killed in ${stage}, ${before.documents} documents survived, ${problems.length === 0 ? "ok" : problems.join("; ")}`);
      } catch (err) {
        report.failures.push(`${name}: ${toErrorInfo(err).message}`);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }
    return report;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
