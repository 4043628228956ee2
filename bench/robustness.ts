// npm run bench:robustness [-- --runs 16 --extract-runs 6 --delete-runs 4 --sequence-steps 200 --messages 1000 --seed 20261122 --parts kills,sequences,inputs,ipc,network,disk,host,parse,flood --uploads 20 --upload-mb 99 --json]
// The report's figures:
// - kill runs / clean reopen / resumed equal: the engine killed with SIGKILL at seeded random
//   points of an import, of LLM triplet extraction or of a delete (bench/lib/kill-runs.ts);
// - import/delete sequences: seeded random imports, deletes, re-imports, index rebuilds
//   and restarts, every "ok" import checked listed, searchable and deletable after each step, no
//   orphans (`--sequence-steps N`, bench/lib/import-sequences.ts);
// - bad inputs tried / handled as documented (bench/lib/hostile-inputs.ts);
// - fuzzed IPC messages / crashes (bench/lib/ipc-fuzz.ts);
// - network attempts of a full ingest + ask session (bench/lib/network-probe.ts);
// - disk faults (a disk that fills up, a read-only library) on real file systems (bench/lib/disk-faults.ts);
// - the web host: requests without the session cookie, an import by path, 20 concurrent
//   99 MB uploads (`--uploads N --upload-mb M`), a 40 MB nested JSON message, leftover upload
//   folders, file modes; each with outcome, seconds, the host's peak RSS and whether it kept
//   answering (bench/lib/host-probe.ts);
// - hostile parses (`--parts parse`): q nested 1M deep, Flate bombs, Tj floods, 4,999
//   pages sharing a stream, /dev/zero, FIFOs, 20 GB sparse text, and the same past the pre-scan's
//   caps; each with outcome, seconds, engine and parser peak RSS, host responsive (bench/lib/hostile-parse.ts);
// - a flood (`--parts flood`, `--flood-searches 2000 --flood-asks 200`): one client sends them all at
//   once on one WebSocket to the web host on the real engine; another client's search latency alone
//   and during the flood, goal p95 ≤ 200 ms (bench/lib/host-flood.ts).
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DISK_FAULT_SCENARIOS, mountNamespaceUnavailableReason, runDiskFault } from "./lib/disk-faults.ts";
import { runHostileInputs } from "./lib/hostile-inputs.ts";
import { runImportSequences } from "./lib/import-sequences.ts";
import { runHostileParse } from "./lib/hostile-parse.ts";
import { runIpcFuzz } from "./lib/ipc-fuzz.ts";
import { runKillRuns } from "./lib/kill-runs.ts";
import { runOfflineProbe } from "./lib/network-probe.ts";
import { runHostProbe } from "./lib/host-probe.ts";
import { FLOOD_SEARCH_GOAL_MS, runHostFlood } from "./lib/host-flood.ts";
import { loadObliqaQuestions } from "./lib/obliqa-corpus.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const PARTS = ["kills", "sequences", "inputs", "ipc", "network", "disk", "host", "parse", "flood"] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    runs: { type: "string", default: "16" },
    "extract-runs": { type: "string", default: "6" },
    "delete-runs": { type: "string", default: "4" },
    "sequence-steps": { type: "string", default: "200" },
    messages: { type: "string", default: "1000" },
    seed: { type: "string", default: "20261122" },
    parts: { type: "string", default: PARTS.join(",") },
    uploads: { type: "string", default: "20" },
    "upload-mb": { type: "string", default: "99" },
    "flood-searches": { type: "string", default: "2000" },
    "flood-asks": { type: "string", default: "200" },
  },
});
const log = (line: string): void => {
  if (!values.json) console.log(line);
};
const wanted = new Set(values.parts.split(",").map((p) => p.trim()));
const unknown = [...wanted].filter((p) => !(PARTS as readonly string[]).includes(p));
if (unknown.length > 0) {
  console.error(`unknown --parts ${unknown.join(", ")} (known: ${PARTS.join(", ")})`);
  process.exit(2);
}
const run = (part: Part): boolean => wanted.has(part);
const seed = Number.parseInt(values.seed, 10);
const summary: Record<string, unknown> = {};
const lines: string[] = [];
let failed = false;

if (run("kills")) {
  const started = performance.now();
  const kills = await runKillRuns({
    runs: Math.max(0, Number.parseInt(values.runs, 10)),
    extractRuns: Math.max(0, Number.parseInt(values["extract-runs"], 10)),
    deleteRuns: Math.max(0, Number.parseInt(values["delete-runs"], 10)),
    seed,
    log: (line) => log(`  ${line}`),
  });
  const seconds = (performance.now() - started) / 1000;
  summary.kills = {
    killRuns: kills.runs,
    cleanReopen: kills.cleanReopen,
    resumedEqual: kills.resumedEqual,
    killedIn: kills.killedIn,
    failures: kills.failures,
    seconds: Number(seconds.toFixed(1)),
  };
  lines.push(`kill runs: ${kills.runs} / clean reopen: ${kills.cleanReopen} / resumed equal: ${kills.resumedEqual} (${seconds.toFixed(0)} s)`);
  lines.push(
    `  kills landed in: ${Object.entries(kills.killedIn)
      .map(([stage, n]) => `${stage} ${n}`)
      .join(", ")}`,
  );
  lines.push(...kills.failures.map((f) => `  FAILED ${f}`));
  failed ||= kills.failures.length > 0;
}

if (run("sequences")) {
  const started = performance.now();
  const steps = Math.max(0, Number.parseInt(values["sequence-steps"], 10));
  const report = await runImportSequences({ steps, seed, documents: 16 });
  const seconds = (performance.now() - started) / 1000;
  summary.sequences = { ...report, seconds: Number(seconds.toFixed(1)) };
  lines.push(
    `import/delete sequences: ${report.steps} steps (${report.imports} imports, ${report.deletes} deletes, ${report.reopens} restarts) / invariant violations: ${report.violations.length} (${seconds.toFixed(0)} s)`,
  );
  lines.push(...report.violations.slice(0, 10).map((v) => `  FAILED ${v}`));
  failed ||= report.violations.length > 0;
}

if (run("inputs")) {
  const inputs = await runHostileInputs({ log: (line) => log(`  ${line}`) });
  summary.inputs = { tried: inputs.tried, handled: inputs.handled, failures: inputs.failures };
  lines.push(`bad inputs tried: ${inputs.tried} / handled as documented: ${inputs.handled}`);
  lines.push(...inputs.failures.map((f) => `  FAILED ${f}`));
  failed ||= inputs.failures.length > 0;
}

if (run("parse")) {
  const parses = await runHostileParse({ log: (line) => log(`  ${line}`) });
  summary.parse = parses;
  lines.push(`hostile parses: ${parses.length} / handled within limits: ${parses.filter((p) => p.failure === null).length}`);
  for (const p of parses) {
    lines.push(
      `  ${p.name}: ${p.outcome}, ${p.seconds.toFixed(1)} s, engine peak ${p.enginePeakMb} MB, parser peak ${p.childPeakMb} MB, host responsive ${p.hostResponsive ? "yes" : "no"}${p.failure === null ? "" : ` — FAILED ${p.failure}`}`,
    );
  }
  failed ||= parses.some((p) => p.failure !== null);
}

if (run("flood")) {
  const corpus = path.resolve(here, "../../shared/corpus");
  if (!existsSync(path.join(corpus, "regulatory"))) {
    lines.push(`host flood: skipped, ${corpus} not found`);
  } else {
    const questions = (await loadObliqaQuestions(path.join(corpus, "qa/obliqa/ObliQA_test.json"))).map((q) => q.text);
    const flood = await runHostFlood({
      corpusDir: path.join(corpus, "regulatory"),
      modelRoot: path.join(os.tmpdir(), "clausegraph-bench-models"),
      questions,
      searches: Math.max(0, Number.parseInt(values["flood-searches"], 10)),
      asks: Math.max(0, Number.parseInt(values["flood-asks"], 10)),
      log: (line) => log(`  ${line}`),
    });
    summary.flood = flood;
    const meets = flood.during.p95 <= FLOOD_SEARCH_GOAL_MS;
    lines.push(
      `host flood: ${flood.floodSearches} searches + ${flood.floodAsks} asks at once on one connection (${flood.answered} answered, ${flood.refused} refused as too many, ${flood.errors.length} errors, ${flood.floodSeconds.toFixed(0)} s)`,
    );
    lines.push(
      `  another client's search: alone p50 ${flood.alone.p50.toFixed(0)} / p95 ${flood.alone.p95.toFixed(0)} ms; during the flood p50 ${flood.during.p50.toFixed(0)} / p95 ${flood.during.p95.toFixed(0)} / max ${flood.during.max.toFixed(0)} ms over ${flood.during.n} (${(flood.during.p95 / Math.max(1, flood.alone.p95)).toFixed(1)}× alone; goal p95 ≤ ${FLOOD_SEARCH_GOAL_MS} ms${meets ? "" : ", MISSED"})`,
    );
    lines.push(...flood.errors.slice(0, 5).map((e) => `  FAILED ${e}`));
    failed ||= flood.errors.length > 0 || !meets;
  }
}

if (run("ipc")) {
  const ipc = await runIpcFuzz({ messages: Math.max(1, Number.parseInt(values.messages, 10)), seed, log: (line) => log(`  ${line}`) });
  summary.ipc = ipc;
  lines.push(
    `fuzzed IPC messages: ${ipc.messages} / crashes: ${ipc.crashes} (validation errors ${ipc.validationErrors}, unexpected ${ipc.unexpected}, engine healthy ${String(ipc.engineHealthy)})`,
  );
  lines.push(...ipc.problems.map((p) => `  PROBLEM ${p}`));
  failed ||= ipc.crashes > 0 || ipc.unexpected > 0 || !ipc.engineHealthy;
}

if (run("network")) {
  const net = await runOfflineProbe({ log: (line) => log(`  ${line}`) });
  summary.network = { networkAttempts: net.networkAttempts, ok: net.ok, variants: net.variants };
  lines.push(`network attempts: ${net.networkAttempts} (${net.ok ? "ok" : "FAILED"})`);
  lines.push(...net.detail.split("\n").map((d) => `  ${d}`));
  failed ||= !net.ok || net.networkAttempts > 0;
}

if (run("disk")) {
  const unavailable = mountNamespaceUnavailableReason();
  if (unavailable !== null) {
    summary.disk = { skipped: unavailable };
    lines.push(`disk faults: SKIPPED (${unavailable})`);
  } else {
    const results = [];
    for (const scenario of DISK_FAULT_SCENARIOS) results.push(await runDiskFault(scenario));
    const checks = results.flatMap((r) => r.checks);
    const broken = results.filter((r) => r.error !== undefined);
    summary.disk = { scenarios: results.length, checks: checks.length, passed: checks.filter((c) => c.ok).length, results };
    lines.push(
      `disk faults: ${results.length} scenarios (${DISK_FAULT_SCENARIOS.join(", ")}), checks passed: ${checks.filter((c) => c.ok).length} / ${checks.length}`,
    );
    lines.push(...checks.filter((c) => !c.ok).map((c) => `  FAILED ${c.name}: ${c.detail}`));
    lines.push(...broken.map((r) => `  BROKEN ${r.scenario}: ${r.error ?? ""}`));
    failed ||= broken.length > 0 || checks.some((c) => !c.ok);
  }
}

if (run("host")) {
  const host = await runHostProbe({
    uploads: Math.max(1, Number.parseInt(values.uploads, 10)),
    uploadMb: Math.max(1, Number.parseInt(values["upload-mb"], 10)),
    log: (line) => log(`  ${line}`),
  });
  summary.host = host;
  lines.push(`web host: ${host.cases.filter((c) => c.ok).length} of ${host.cases.length} cases as expected`);
  for (const c of host.cases) {
    const rss = c.peakRssMb === null ? "peak RSS n/a" : `peak RSS ${c.peakRssMb} MB`;
    lines.push(
      `  ${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.outcome} (${c.seconds} s, ${rss}, ${c.responsive ? "responsive" : "NOT responsive"}, slowest GET ${c.slowestMs} ms)`,
    );
  }
  lines.push(...host.failures.map((f) => `  FAILED ${f}`));
  failed ||= host.failures.length > 0;
}

log("");
for (const line of lines) log(line);
if (values.json) console.log(JSON.stringify(summary));
process.exitCode = failed ? 1 : 0;
