import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";

// The offline guarantee, measured: a full session (import, search, ask with and without a local
// model, the web host over HTTP and WebSocket) runs in a child process whose every outbound network
// call is refused and counted by test/helpers/network-guard.mjs, and — where this machine allows
// unprivileged namespaces — once more inside a network namespace that has nothing but loopback, which
// also catches native code (llama.cpp, onnxruntime) that the JavaScript guard cannot see.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const NETWORK_GUARD = path.join(ROOT, "test/helpers/network-guard.mjs");
const RUN_TS = path.join(ROOT, "bin/run-ts.mjs");
const CHILD = path.join(ROOT, "bench/lib/offline-probe-child.ts");
const SHARED = path.resolve(ROOT, "../shared");
/** A real regulation from the shared corpus when it is there (mid-sized: a whole import in seconds). */
const CORPUS_PDF = path.join(SHARED, "corpus/regulatory/us_nist_sp800-30r1_risk_assessment.pdf");
/** Asked of the corpus regulation: its own subject, so the extractive answer has something to cite. */
const CORPUS_QUESTION = "What are the steps of the risk assessment process?";
const TINY_LLM = path.join(SHARED, "models/stories260K.gguf");
const CHILD_TIMEOUT_MS = 10 * 60_000;

export interface OfflineProbeOptions {
  /** A PDF to import; default the corpus regulation when present, else a generated one. null: generated. */
  pdf?: string | null;
  /** A GGUF for the model-written ask; default ../shared/models/stories260K.gguf when present. null: none. */
  llm?: string | null;
  /** Also run inside `unshare -rn` when it works here (default true). */
  namespace?: boolean;
  log?: (line: string) => void;
}

export interface ProbeVariant {
  name: "guard" | "no-network-namespace";
  ran: boolean;
  ok: boolean;
  networkAttempts: number;
  /** What the session did, or why the variant failed or did not run. */
  detail: string;
}

export interface OfflineProbeResult {
  networkAttempts: number;
  ok: boolean;
  detail: string;
  variants: ProbeVariant[];
}

const guardLineSchema = z.object({ pid: z.number(), attempts: z.number(), refused: z.array(z.string()) });
const childReportSchema = z.object({ ok: z.boolean(), steps: z.array(z.string()), error: z.string().optional() });

export interface GuardReport {
  /** Guarded processes that reported at exit (the child and any Node process it started). */
  processes: number;
  attempts: number;
  refused: string[];
}

/** Sums the lines every guarded process appended at exit. */
export async function readGuardReport(file: string): Promise<GuardReport> {
  const text = existsSync(file) ? await readFile(file, "utf8") : "";
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const report: GuardReport = { processes: 0, attempts: 0, refused: [] };
  for (const line of lines) {
    const parsed = guardLineSchema.parse(JSON.parse(line));
    report.processes += 1;
    report.attempts += parsed.attempts;
    report.refused.push(...parsed.refused);
  }
  return report;
}

/** Environment for a guarded Node process: the guard is inherited by any Node child it spawns. */
export function guardedEnv(reportFile: string): NodeJS.ProcessEnv {
  const guardFlag = `--import=${pathToFileURL(NETWORK_GUARD).href}`;
  const inherited = process.env.NODE_OPTIONS ?? "";
  return { ...process.env, CG_NET_GUARD_REPORT: reportFile, NODE_OPTIONS: `${inherited} ${guardFlag}`.trim() };
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      // Only the tail matters for a failure message; keep memory bounded.
      stderr = (stderr + chunk).slice(-8000);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_TIMEOUT_MS);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

/** Why `unshare -rn` cannot give us a loopback-only namespace here, or null when it can. */
export function namespaceUnavailableReason(): string | null {
  if (process.platform !== "linux") return `network namespaces are Linux only (this is ${process.platform})`;
  const probe = spawnSync("unshare", ["-rn", "sh", "-c", "ip link set lo up"], { encoding: "utf8", timeout: 10_000 });
  if (probe.error) return `unshare could not run: ${probe.error.message}`;
  if (probe.status !== 0) return `unshare -rn failed (unprivileged user namespaces disabled?): ${probe.stderr.trim() || `exit ${probe.status}`}`;
  return null;
}

function resolveInput(option: string | null | undefined, fallback: string): string | null {
  if (option === null) return null;
  if (option !== undefined) return option;
  return existsSync(fallback) ? fallback : null;
}

async function runVariant(name: ProbeVariant["name"], pdf: string | null, llm: string | null): Promise<ProbeVariant> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "cg-offline-"));
  try {
    const reportFile = path.join(tmp, "guard.jsonl");
    const outFile = path.join(tmp, "session.json");
    const nodeArgs = [
      `--import=${pathToFileURL(NETWORK_GUARD).href}`,
      RUN_TS,
      CHILD,
      "--out",
      outFile,
      "--data",
      path.join(tmp, "data"),
      ...(pdf === null ? [] : ["--pdf", pdf]),
      ...(llm === null ? [] : ["--llm", llm]),
      ...(pdf === CORPUS_PDF ? ["--question", CORPUS_QUESTION] : []),
    ];
    const env = guardedEnv(reportFile);
    const exit =
      name === "guard"
        ? await run(process.execPath, nodeArgs, env)
        : // A fresh user + network namespace: only a loopback interface, which starts down.
          await run("unshare", ["-rn", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', process.execPath, ...nodeArgs], env);
    const guard = await readGuardReport(reportFile);
    const session = existsSync(outFile) ? childReportSchema.parse(JSON.parse(await readFile(outFile, "utf8"))) : null;
    const problems: string[] = [];
    if (session === null) problems.push(`the session wrote no report (exit ${exit.code ?? exit.signal}): ${exit.stderr.slice(-1500)}`);
    else if (!session.ok) problems.push(`the session failed: ${session.error ?? "unknown"}`);
    if (guard.processes === 0) problems.push("the network guard did not report (was it loaded?)");
    if (guard.attempts > 0) problems.push(`refused: ${guard.refused.join(", ")}`);
    const ok = problems.length === 0 && exit.code === 0;
    const steps = session?.steps.join("; ") ?? "";
    return {
      name,
      ran: true,
      ok,
      networkAttempts: guard.attempts,
      detail: `${steps}${problems.length > 0 ? ` | ${problems.join(" | ")}` : ""} | ${guard.processes} guarded process(es), input ${pdf === null ? "generated PDF" : path.basename(pdf)}`,
    };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Runs the offline session under the network guard (and in a no-network namespace when possible).
 * ok: every variant that ran succeeded with zero attempts; networkAttempts sums the variants.
 */
export async function runOfflineProbe(options: OfflineProbeOptions = {}): Promise<OfflineProbeResult> {
  const log = options.log ?? (() => {});
  const pdf = resolveInput(options.pdf, CORPUS_PDF);
  const llm = resolveInput(options.llm, TINY_LLM);
  const variants: ProbeVariant[] = [];
  log(`offline probe: guarded session (${pdf === null ? "generated PDF" : path.basename(pdf)}${llm === null ? "" : `, model ${path.basename(llm)}`})`);
  variants.push(await runVariant("guard", pdf, llm));
  if (options.namespace !== false) {
    const reason = namespaceUnavailableReason();
    if (reason === null) {
      log("offline probe: the same session inside unshare -rn (loopback only)");
      variants.push(await runVariant("no-network-namespace", pdf, llm));
    } else {
      log(`offline probe: no-network namespace skipped: ${reason}`);
      variants.push({ name: "no-network-namespace", ran: false, ok: true, networkAttempts: 0, detail: `not run: ${reason}` });
    }
  }
  const networkAttempts = variants.reduce((sum, v) => sum + v.networkAttempts, 0);
  const ok = variants.every((v) => v.ok);
  const detail = variants.map((v) => `${v.name}: ${v.ok ? "ok" : "FAILED"}, ${v.networkAttempts} attempts — ${v.detail}`).join("\n");
  return { networkAttempts, ok, detail, variants };
}

export interface GuardSelfTest {
  /** Outbound attempts the script made on purpose, each of which must be counted. */
  expected: number;
  attempts: number;
  refused: string[];
  /** Every deliberate attempt failed with the guard's error, and loopback still worked. */
  allRefused: boolean;
  loopbackWorked: boolean;
}

// Plain JavaScript run with `node -e` under the guard: each outbound call must fail with
// ERR_NETWORK_GUARD, and a loopback HTTP round trip must still succeed.
const SELF_TEST_SCRIPT = `
const net = require("node:net");
const http = require("node:http");
const dns = require("node:dns");
const dgram = require("node:dgram");
const tls = require("node:tls");
const outcomes = [];
const note = (err) => outcomes.push(err && err.code === "ERR_NETWORK_GUARD");
(async () => {
  try { await fetch("http://example.com"); outcomes.push(false); } catch (err) { note(err); }
  await new Promise((done) => { const s = net.connect(80, "93.184.216.34"); s.on("error", (e) => { note(e); done(); }); s.on("connect", () => { outcomes.push(false); s.destroy(); done(); }); });
  await new Promise((done) => { const s = tls.connect(443, "example.com"); s.on("error", (e) => { note(e); done(); }); s.on("secureConnect", () => { outcomes.push(false); s.destroy(); done(); }); });
  try { http.get("http://example.com/"); outcomes.push(false); } catch (err) { note(err); }
  await new Promise((done) => dns.lookup("example.com", (err) => { note(err); done(); }));
  try { await dns.promises.resolve4("example.com"); outcomes.push(false); } catch (err) { note(err); }
  await new Promise((done) => { const u = dgram.createSocket("udp4"); u.send("x", 53, "8.8.8.8", (err) => { note(err); u.close(); done(); }); });
  const server = http.createServer((req, res) => res.end("pong")).listen(0, "127.0.0.1");
  await new Promise((done) => server.once("listening", done));
  const body = await (await fetch("http://127.0.0.1:" + server.address().port + "/")).text();
  server.close();
  process.stdout.write(JSON.stringify({ expected: outcomes.length, allRefused: outcomes.every(Boolean), loopbackWorked: body === "pong" }));
})();
`;

const selfTestOutputSchema = z.object({ expected: z.number(), allRefused: z.boolean(), loopbackWorked: z.boolean() });

/** Proves the guard itself works: deliberate outbound calls in a guarded child are refused and counted. */
export async function runGuardSelfTest(): Promise<GuardSelfTest> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "cg-guard-"));
  try {
    const reportFile = path.join(tmp, "guard.jsonl");
    const result = spawnSync(process.execPath, ["-e", SELF_TEST_SCRIPT], { env: guardedEnv(reportFile), encoding: "utf8", timeout: 60_000 });
    if (result.status !== 0) throw new Error(`guard self-test exited ${result.status}: ${result.stderr}`);
    const output = selfTestOutputSchema.parse(JSON.parse(result.stdout));
    const guard = await readGuardReport(reportFile);
    return { ...output, attempts: guard.attempts, refused: guard.refused };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
