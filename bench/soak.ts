// npm run bench:soak [-- --searches 10000 --asks 500 --docs 10 --timeout-ms 30000 --churn-pause-ms 2000
//                       --vector-path index|exact --json]
// The soak at full size over the regulatory corpus (bench/lib/soak-run.ts): N searches and
// M asks in one engine process while the smallest document is deleted and re-imported alongside.
// A library this size is normally searched exactly from vectors in memory; by default the soak
// sends every vector query through Kuzu's HNSW indexes instead (--vector-path index), since those
// native queries are what has to be proven; --vector-path exact soaks the everyday path.
// Exit 1 on any error, hang, empty search, ranking drift, damaged library afterwards or memory
// growth of more than 10 % after warm-up (25 %).
//
// npm run bench:soak -- --mixed [--operations 2000] [--seed N] [--json]
// The mixed soak (bench/lib/soak-mixed.ts): every kind of operation, bad inputs, killed parsing
// children and OCR included, with the engine's memory, handles and caches at each hundred.
// Exit 1 on an INTERNAL error, an operation failing as it should not, or the last hundred's
// peak RSS more than 10 % above the first's.
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { runMixedSoak } from "./lib/soak-mixed.ts";
import { runSoak } from "./lib/soak-run.ts";

// The app runs its engine with two glibc malloc arenas (scripts/start.mjs, electron/engine-client.ts);
// the soak measures the engine as the app runs it. glibc reads the variable at start, so the bench
// starts itself again with it.
if (process.env.MALLOC_ARENA_MAX === undefined) {
  const runTs = fileURLToPath(new URL("../bin/run-ts.mjs", import.meta.url));
  const again = spawnSync(process.execPath, [...process.execArgv, runTs, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, MALLOC_ARENA_MAX: "2" },
  });
  process.exit(again.status ?? 1);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    dir: { type: "string", default: path.resolve(here, "../../shared/corpus/regulatory") },
    searches: { type: "string", default: "10000" },
    asks: { type: "string", default: "500" },
    docs: { type: "string", default: "100" },
    "timeout-ms": { type: "string", default: "30000" },
    "churn-pause-ms": { type: "string", default: "2000" },
    "vector-path": { type: "string", default: "index" },
    mixed: { type: "boolean", default: false },
    operations: { type: "string", default: "2000" },
    seed: { type: "string", default: "20261129" },
  },
});
const vectorPath = values["vector-path"];
if (vectorPath !== "index" && vectorPath !== "exact") {
  console.error(`--vector-path must be index or exact, not ${vectorPath}`);
  process.exit(2);
}

const QUERIES = [
  "incident reporting deadline",
  "notification of a personal data breach to the supervisory authority",
  "ICT risk management framework",
  "access control limit system access to authorized users",
  "right to erasure",
  "data protection officer tasks",
  "third-party ICT service providers contractual arrangements",
  "audit logs and accountability",
  "garanzia provvisoria",
  "airworthiness directive unsafe condition",
  "encryption of electronic protected health information",
  "penalties and fines",
  "security awareness and training",
  "contingency plan data backup",
  "requisiti di capacità economica e finanziaria",
  "risk assessment likelihood and impact",
  "what are the obligations of the controller",
  "Article 33",
  "§ 164.308 administrative safeguards",
  "lotto A3 importo",
];
const QUESTIONS = [
  "Within how many hours must a personal data breach be notified?",
  "What must a financial entity's ICT risk management framework include?",
  "Who must designate a data protection officer?",
  "What are the administrative safeguards of the HIPAA security rule?",
  "What is the deadline for submitting offers?",
  "How should likelihood be determined in a risk assessment?",
];

// With --json, stdout carries only the summary; progress goes to stderr so a long run can be watched.
const log = (line: string): void => {
  if (values.json) console.error(line);
  else console.log(line);
};

const all = (await readdir(values.dir))
  .filter((f) => f.toLowerCase().endsWith(".pdf"))
  .sort()
  .map((f) => path.join(values.dir, f));
if (all.length === 0) {
  console.error(`no PDFs in ${values.dir}`);
  process.exit(1);
}
if (values.mixed) {
  const corpus = path.resolve(values.dir, "..");
  const textDir = path.join(corpus, "text");
  const badDir = path.join(corpus, "bad_inputs");
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "cg-soak-mixed-"));
  const listed = async (dir: string, ext: RegExp): Promise<string[]> =>
    (await readdir(dir).catch(() => [] as string[]))
      .filter((f) => ext.test(f))
      .sort()
      .map((f) => path.join(dir, f));
  const bad = await listed(badDir, /\.pdf$/i);
  const summary = await runMixedSoak({
    dataDir,
    library: [...all, ...(await listed(textDir, /\.txt$/i))],
    badInputs: bad.filter((f) => !f.includes("scanned")),
    scanned: bad.find((f) => f.includes("scanned") && f.includes("hipaa")) ?? null,
    operations: Math.max(100, Number.parseInt(values.operations, 10)),
    seed: Number.parseInt(values.seed, 10),
    queries: QUERIES,
    questions: QUESTIONS,
    log,
  });
  await rm(dataDir, { recursive: true, force: true });
  log("");
  log(`${summary.operations} operations in ${summary.seconds} s after a ${summary.setupSeconds} s setup: ${JSON.stringify(summary.counts)}`);
  for (const [op, m] of Object.entries(summary.msByOperation)) log(`  ${op.padEnd(10)} p50 ${m.p50} ms, p95 ${m.p95} ms`);
  log(
    `peak RSS of the first hundred after a warm-up round ${summary.firstPeakMb} MB, of the last ${summary.lastPeakMb} MB (${summary.growthPct >= 0 ? "+" : ""}${summary.growthPct} %): ${summary.flat ? "flat" : "GROWING"}`,
  );
  // One hundred's peak is set by its heaviest operation (a large re-import, a comparison): the
  // medians of the first and last five hundreds tell growth from which operations a hundred drew.
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const peaks = summary.trace.map((t) => t.peakRssMb);
  const ends = summary.trace.map((t) => t.endRssMb);
  if (peaks.length >= 10)
    log(
      `median of the hundreds' peaks: first five ${median(peaks.slice(0, 5))} MB, last five ${median(peaks.slice(-5))} MB; ` +
        `RSS at the hundreds' ends: first five ${median(ends.slice(0, 5))} MB, last five ${median(ends.slice(-5))} MB`,
    );
  log(`INTERNAL errors: ${summary.internalErrors.length}; operations failing as they should not: ${summary.unexpected.length}`);
  for (const e of [...summary.internalErrors, ...summary.unexpected].slice(0, 20)) log(`  ${e}`);
  if (values.json) console.log(JSON.stringify(summary));
  process.exit(summary.flat && summary.internalErrors.length === 0 && summary.unexpected.length === 0 ? 0 : 1);
}

// The smallest document is the one re-imported alongside; the rest stay.
const churnFile = all.find((f) => f.includes("allegato_E")) ?? all[all.length - 1] ?? "";
const library = all.filter((f) => f !== churnFile).slice(0, Math.max(1, Number.parseInt(values.docs, 10)));

const summary = await runSoak({
  library,
  churnFile,
  searches: Math.max(0, Number.parseInt(values.searches, 10)),
  asks: Math.max(0, Number.parseInt(values.asks, 10)),
  queries: QUERIES,
  questions: QUESTIONS,
  vectorPath,
  timeoutMs: Number.parseInt(values["timeout-ms"], 10),
  churnPauseMs: Math.max(0, Number.parseInt(values["churn-pause-ms"], 10)),
  log,
});

const { rssMb: rss } = summary;
log("");
log(`${summary.searches} searches and ${summary.asks} asks in ${summary.seconds} s with ${summary.reimports} delete+re-imports alongside`);
log(`search p50 ${summary.searchP50Ms} ms, p95 ${summary.searchP95Ms} ms; ask p50 ${summary.askP50Ms} ms, p95 ${summary.askP95Ms} ms`);
for (const [name, m] of Object.entries(summary.byMode)) log(`  ${name.padEnd(9)} ${String(m.n).padStart(6)} searches, p50 ${m.p50Ms} ms, p95 ${m.p95Ms} ms`);
log(`RSS start ${rss.start} MB, warm (25 %) ${rss.warm} MB, middle ${rss.middle} MB, end ${rss.end} MB, peak ${rss.peak} MB`);
log(`RSS trace (MB): ${summary.trace.map((t) => t.rssMb).join(" ")}`);
log(`JS heap trace (MB): ${summary.trace.map((t) => t.heapMb).join(" ")}`);
log(`memory ${summary.memoryFlat ? "flat" : "GROWING"}: ${summary.rssGrowthFromWarmPct >= 0 ? "+" : ""}${summary.rssGrowthFromWarmPct} % from warm to end`);
log(
  `rankings before and after the soak: ${summary.rankingsStable ? "stable" : "CHANGED"} (full-text identical${summary.vectorPath === "index" ? `; through HNSW at least ${Math.round(summary.minTopOverlap * 100)} % of each top 10 kept` : ", vectors exact"}); empty searches: ${summary.emptySearches}`,
);
for (const d of summary.rankingDiffs) log(`  ${d}`);
log(`library afterwards (every edge read from both ends): ${summary.consistencyProblems.length === 0 ? "consistent" : "DAMAGED"}`);
for (const p of summary.consistencyProblems) log(`  ${p}`);
log(`errors: ${summary.errors}${summary.hang ? `; HANG: ${summary.hang}` : ""}`);
for (const e of summary.firstErrors) log(`  ${e}`);
if (values.json) console.log(JSON.stringify(summary));
const ok =
  summary.errors === 0 &&
  summary.hang === null &&
  summary.memoryFlat &&
  summary.rankingsStable &&
  summary.emptySearches === 0 &&
  summary.consistencyProblems.length === 0;
process.exitCode = ok ? 0 : 1;
// A hung native call would keep the process alive forever.
if (summary.hang !== null) process.exit(1);
