import { spawn } from "node:child_process";
import { createRandom } from "./fuzz-payloads.ts";
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { createEngine, databasePath, sourcePath } from "../../core/engine.ts";
import { toErrorInfo } from "../../core/model/errors.ts";
import type { StoreStats } from "../../core/model/store-records.ts";
import { createKuzuStore } from "../../core/store/kuzu/kuzu-store.ts";
import { writeCrashFixtures } from "./crash-fixtures.ts";
import { createScriptedLlm, scriptedVerdictLlm } from "./scripted-llm.ts";
import { checkStoreConsistency } from "./store-consistency.ts";

// Crash safety, measured: a child process imports a few small documents and is killed with
// SIGKILL at a random point (after a random number of its output lines, or after a random delay
// within an uninterrupted run's duration), so kills land in every stage of an import: opening and
// migrating the database, reading, sectioning, building the graph, embedding, storing, and the
// index refresh after it. After each kill the database must reopen, hold no half document, have
// every edge readable from both its ends, and a re-run of the import must end with the same counts
// as an uninterrupted run. Extraction runs do the same to LLM triplet extraction with a scripted
// model, half over a freshly imported library and half over one already extracted (so the killed
// run replaces triplets); delete runs kill the deletion of a document from an extracted library;
// compare runs kill a crosswalk of two imported documents with a scripted model's verdicts, and the
// re-run must end with the comparison an uninterrupted run stores.
// Deletes and replacements are where Kuzu 0.11.3's crash recovery went wrong (delete-nodes.ts,
// rel-checkpoint-guard.ts).

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
  /** Kills while a document is deleted, after the extraction runs (default 0). */
  deleteRuns?: number;
  /** Kills while two imported documents are compared (crosswalk and scripted verdicts), after the delete runs (default 0). */
  compareRuns?: number;
  /**
   * Also kill at arbitrary moments (half the runs), not only right after a reported step
   * (default true). Moment kills depend on the machine's speed, so they are not replayable.
   */
  momentKills?: boolean;
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
    if (line === "deleting" || line.startsWith("log deleted")) return line === "deleting" ? "deleting" : "deleted, closing";
    if (line === "comparing") return "starting";
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
  /** Every comparison as stored: its rows' matches, scores and verdicts ("" when none). */
  comparisons: string;
}

/** What a child run does: import files, extract triplets, delete one document, or compare two. */
type Work = { kind: "import"; files: string[] } | { kind: "extract" } | { kind: "delete"; name: string } | { kind: "compare"; a: string; b: string };

function childArgs(work: Work): string[] {
  switch (work.kind) {
    case "import":
      return work.files;
    case "extract":
      return ["--extract"];
    case "delete":
      return ["--delete", work.name];
    case "compare":
      return ["--compare", work.a, work.b];
    default: {
      const never: never = work;
      throw new Error(`unknown work ${String(never)}`);
    }
  }
}

/** Runs the work to completion in this process (again, after a kill) and counts. */
async function completeAndCount(dataDir: string, modelRoot: string, work: Work): Promise<Counts> {
  const engine = await createEngine({
    dataDir,
    modelRoot,
    llm: work.kind === "extract" ? createScriptedLlm(0) : work.kind === "compare" ? scriptedVerdictLlm(0) : null,
  });
  try {
    if (work.kind === "compare") {
      await engine.compareDocuments(work.a, work.b, { k: 2, verdicts: true });
    } else if (work.kind === "extract") {
      await engine.extractTriplets();
    } else if (work.kind === "delete") {
      await engine.deleteDocument(work.name);
    } else {
      const { files } = work;
      const results = await engine.importFiles(files);
      const failed = results.filter((r) => r.status === "error");
      if (failed.length > 0) throw new Error(`re-run import failed: ${failed.map((r) => `${r.file}: ${r.error?.code} ${r.error?.message}`).join("; ")}`);
    }
    // Re-embedding a document a kill left without vectors runs in the background: wait for it.
    await engine.idle();
    const ids = (await engine.listDocuments()).map((d) => d.id).sort();
    const comparisons = [];
    for (const c of await engine.listComparisons()) {
      const crosswalk = await engine.getComparison(c.id);
      comparisons.push({
        id: c.id,
        status: c.status,
        rows: crosswalk.rows.map((r) => [r.aLabel, r.matches.map((m) => [m.bLabel, m.score, m.flags.length, m.verdict?.label ?? ""])]),
      });
    }
    return { stats: await engine.stats(), ids, comparisons: comparisons.length === 0 ? "" : JSON.stringify(comparisons) };
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
async function referenceRun(dataDir: string, modelRoot: string, work: Work): Promise<Reference> {
  const run = await runChild(dataDir, modelRoot, childArgs(work), { kind: "never" });
  const counts = await completeAndCount(dataDir, modelRoot, work);
  // Time kills fall between the child's first line and the one before "done": before it the
  // process is only loading code, after it only closing and exiting.
  return { lines: run.lines.length, first: run.times[0] ?? 0, last: run.times.at(-2) ?? run.durationMs, counts };
}

export async function runKillRuns(opts: KillRunsOptions): Promise<KillRunsReport> {
  const log = opts.log ?? (() => {});
  const random = createRandom(opts.seed);
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
    // The imported library doubles as the starting point of every first extraction run.
    const library = path.join(work, "library");
    const imported = await referenceRun(library, modelRoot, { kind: "import", files });
    const { stats } = imported.counts;
    log(
      `uninterrupted import: ${imported.lines} lines in ${Math.round(imported.last)} ms; ` +
        `${stats.documents} documents, ${stats.sections} sections, ${stats.crossReferences} references, ` +
        `${stats.terms} terms, ${stats.triplets} triplets, ${stats.embeddedSections} section vectors`,
    );
    const extractRuns = Math.max(0, opts.extractRuns ?? 0);
    const deleteRuns = Math.max(0, opts.deleteRuns ?? 0);
    const compareRuns = Math.max(0, opts.compareRuns ?? 0);
    // The comparison every compare run makes, uninterrupted, from the imported library.
    const compareWork: Work = { kind: "compare", a: path.basename(files[0] ?? ""), b: path.basename(files[1] ?? "") };
    let compared: Reference | null = null;
    if (compareRuns > 0) {
      const dir = path.join(work, "compared");
      await cp(library, dir, { recursive: true });
      compared = await referenceRun(dir, modelRoot, compareWork);
      await rm(dir, { recursive: true, force: true });
      log(`uninterrupted comparison: ${compared.lines} lines in ${Math.round(compared.last)} ms`);
    }
    // The extracted library: the reference of every extraction run, and the starting point of the
    // re-extraction and delete runs.
    let extracted: Reference | null = null;
    const extractedLibrary = path.join(work, "extracted");
    if (extractRuns + deleteRuns > 0) {
      await cp(library, extractedLibrary, { recursive: true });
      extracted = await referenceRun(extractedLibrary, modelRoot, { kind: "extract" });
      log(`uninterrupted extraction: ${extracted.lines} lines in ${Math.round(extracted.last)} ms; ${extracted.counts.stats.triplets} triplets`);
    }
    // Deleting each document once, uninterrupted: what a delete run must end with.
    const deleted = new Map<string, Reference>();
    const deleteReference = async (name: string): Promise<Reference> => {
      const known = deleted.get(name);
      if (known) return known;
      const dir = path.join(work, `deleted-${deleted.size}`);
      await cp(extractedLibrary, dir, { recursive: true });
      const reference = await referenceRun(dir, modelRoot, { kind: "delete", name });
      await rm(dir, { recursive: true, force: true });
      deleted.set(name, reference);
      return reference;
    };

    const total = opts.runs + extractRuns + deleteRuns + compareRuns;
    for (let i = 0; i < total; i++) {
      const kind = i < opts.runs ? "import" : i < opts.runs + extractRuns ? "extract" : i < opts.runs + extractRuns + deleteRuns ? "delete" : "compare";
      // Half the extraction runs replace the triplets of an earlier extraction.
      const again = kind === "extract" && (i - opts.runs) % 2 === 1;
      const task: Work =
        kind === "import"
          ? { kind, files }
          : kind === "extract"
            ? { kind }
            : kind === "compare"
              ? compareWork
              : { kind, name: path.basename(files[Math.floor(random() * files.length)] ?? files[0] ?? "") };
      const reference =
        task.kind === "import"
          ? imported
          : task.kind === "delete"
            ? await deleteReference(task.name)
            : task.kind === "compare"
              ? (compared ?? imported)
              : (extracted ?? imported);
      // Half the runs kill right after a reported step, half at an arbitrary moment in between.
      const line = 1 + Math.floor(random() * reference.lines);
      const moment = Math.round(reference.first + random() * (reference.last - reference.first));
      const plan: KillPlan = i % 2 === 0 || opts.momentKills === false ? { kind: "line", line } : { kind: "time", ms: moment };
      const dataDir = path.join(work, `run-${i}`);
      const what =
        task.kind === "import"
          ? "import"
          : task.kind === "delete"
            ? `delete of ${task.name}`
            : task.kind === "compare"
              ? "comparison"
              : again
                ? "re-extraction"
                : "extraction";
      const name = `${what} run ${i} (seed ${opts.seed}, ${plan.kind === "line" ? `after line ${plan.line}` : `at ${plan.ms} ms`})`;
      const prefix = task.kind === "import" ? "" : `${task.kind}:`;
      report.runs++;
      try {
        if (task.kind !== "import")
          await cp((task.kind === "extract" && !again) || task.kind === "compare" ? library : extractedLibrary, dataDir, { recursive: true });
        const child = await runChild(dataDir, modelRoot, childArgs(task), plan);
        const stage = `${prefix}${child.killed ? stageOf(child.lines) : "finished"}`;
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
        const before = await checkStoreConsistency(databasePath(dataDir), { edgesBothWays: true });
        const resumed = await completeAndCount(dataDir, modelRoot, task);
        const after = await checkStoreConsistency(databasePath(dataDir), { edgesBothWays: true });
        const problems = [
          ...withoutSource.map((id) => `after the kill: document ${id} has no source copy`),
          ...before.problems.map((p) => `after the kill: ${p}`),
          ...after.problems.map((p) => `after the re-run: ${p}`),
        ];
        const diff = sameCounts(reference.counts.stats, resumed.stats);
        if (diff !== null) problems.push(`re-run counts differ: ${diff}`);
        if (resumed.comparisons !== reference.counts.comparisons) problems.push("re-run comparison differs from the uninterrupted one");
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
