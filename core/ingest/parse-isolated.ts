import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ClauseGraphError } from "../model/errors.ts";
import { childMessageSchema } from "./parse-child-protocol.ts";
import type { ParseRequest } from "./parse-child-protocol.ts";
import type { ParseLimits } from "./parse-limits.ts";
import { fileSeconds } from "./parse-limits.ts";
import { processRss } from "./process-rss.ts";
import { formatCount, tooComplex } from "./too-complex.ts";
import type { Breach } from "./too-complex.ts";
import type { OcrParseOptions, ParsedDocument } from "../model/ingest-types.ts";
import { OcrNeededError } from "./ocr/ocr-needed.ts";

// Untrusted bytes are parsed in a child process the engine bounds and kills. In the
// engine's own thread a 4.6 KB PDF of nested `q` held the event loop for minutes (the web host
// stopped answering, even jobs.cancel and SIGTERM), and Flate bombs took it to gigabytes. Here the
// child has its own V8 heap limit; the engine polls its RSS (pdf.js inflates into typed arrays,
// outside that limit), times each page and the file, and SIGKILLs it on a breach or a cancel. The
// engine's thread only waits on a message, so search, ask and cancel keep answering.
//
// One child is kept between imports and killed after IDLE_MS: forking one and loading pdf.js is
// slow, under tsx (dev, tests) most of all, and a batch of small files would pay that per file.
// After a breach, a crash, a cancel or a parse that left it large, the child is killed and the
// next import forks a new one.

export interface ParseStats {
  seconds: number;
  /** Highest RSS of the child seen during this parse, bytes. */
  childPeakRss: number;
  /** Whether an idle child was reused (no fork). */
  reused: boolean;
}

export interface IsolatedParseOptions {
  limits: ParseLimits;
  password?: string;
  /** The file's SHA-256, already computed by the engine. */
  sha256?: string;
  /** The file's bytes, already read by the engine: the child parses them instead of reading the file again. */
  bytes?: Uint8Array;
  signal?: AbortSignal;
  onPage?: (page: number, total: number) => void;
  /** Scanned pages (core/ingest/ocr/); without it they are not read with OCR. */
  ocr?: OcrParseOptions;
  /** The text pages are read and `pages` pages are now read with OCR. */
  onOcrStart?: (pages: number) => void;
  onOcrPage?: (done: number, total: number) => void;
  /** After every parse, successful or not. */
  onStats?: (stats: ParseStats) => void;
}

/** An idle child is killed after this long; the next import forks a fresh one. */
const IDLE_MS = 30_000;
const WATCHDOG_MS = 200;
/**
 * A child that has not said "ready" after this long is killed (INTERNAL). Forking under tsx is
 * slow, and many times slower on a loaded CI machine; while the page and file budgets still
 * counted the fork, a short test budget stopped a 1-page control file (flaky test).
 */
const START_MS = 60_000;
const STDERR_TAIL = 8192;
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/i;

interface ParseChild {
  proc: ChildProcess;
  heapMb: number;
  ready: Promise<boolean>;
  stderr: string;
  lastRss: number;
  idleTimer?: NodeJS.Timeout;
}

/** The child kept between imports: one per engine (createParsePool), killed when it closes. */
interface PoolState {
  idle: ParseChild | null;
  closed: boolean;
}

export interface ParsePool {
  /**
   * parseDocument in the parsing child, under the limits. Resolves with the document or rejects
   * with the child's typed error, TOO_COMPLEX when a watchdog stopped it, CANCELLED when `signal`
   * aborts (the child is killed at once), TOO_COMPLEX too if it died (crashed on the file, or killed).
   */
  parse(file: string, options: IsolatedParseOptions): Promise<ParsedDocument>;
  /** Kills the idle child; a parse under way keeps its child until it settles, then kills it. */
  close(): void;
}

/**
 * The engine's parsing children. Without close(), the CLI waited out the idle child's IDLE_MS
 * before exiting (the child's stderr pipe kept Node's event loop alive): a `clausegraph ingest` of
 * one small file spent most of its wall time waiting.
 */
export function createParsePool(): ParsePool {
  const pool: PoolState = { idle: null, closed: false };
  return {
    parse: (file, options) => parseIsolated(pool, file, options),
    close: () => {
      pool.closed = true;
      if (pool.idle !== null) kill(pool, pool.idle);
    },
  };
}

/** The child's entry: the TypeScript source through tsx from a checkout, the bundled .js in the app. */
function childEntry(): { script: string; execArgv: string[] } {
  const here = import.meta.url;
  if (here.endsWith(".ts")) {
    const tsx = pathToFileURL(createRequire(here).resolve("tsx")).href;
    return { script: fileURLToPath(new URL("./parse-child.ts", here)), execArgv: ["--import", tsx] };
  }
  // scripts/build.mjs bundles core/ingest/parse-child.ts beside the bundle that imports this.
  return { script: path.join(path.dirname(fileURLToPath(here)), "parse-child.js"), execArgv: [] };
}

function spawnChild(limits: ParseLimits): ParseChild {
  const { script, execArgv } = childEntry();
  // In Electron's utility process, execPath is Electron itself: this makes it a plain Node.
  const env = process.versions.electron === undefined ? process.env : { ...process.env, ELECTRON_RUN_AS_NODE: "1" };
  const proc = fork(script, [], {
    execArgv: [...execArgv, `--max-old-space-size=${Math.round(limits.childHeapMb)}`],
    env,
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  const child: ParseChild = { proc, heapMb: limits.childHeapMb, ready: Promise.resolve(false), stderr: "", lastRss: 0 };
  proc.stderr?.setEncoding("utf8");
  proc.stderr?.on("data", (chunk: string) => {
    child.stderr = (child.stderr + chunk).slice(-STDERR_TAIL);
  });
  child.ready = new Promise((resolve) => {
    const onMessage = (raw: unknown): void => {
      if (childMessageSchema.safeParse(raw).data?.type !== "ready") return;
      proc.off("message", onMessage);
      resolve(true);
    };
    proc.on("message", onMessage);
    proc.once("exit", () => resolve(false));
    proc.once("error", () => resolve(false));
  });
  return child;
}

function alive(child: ParseChild): boolean {
  return child.proc.exitCode === null && child.proc.signalCode === null && child.proc.connected;
}

function kill(pool: PoolState, child: ParseChild): void {
  clearTimeout(child.idleTimer);
  if (pool.idle === child) pool.idle = null;
  if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill("SIGKILL");
}

function take(pool: PoolState, limits: ParseLimits): { child: ParseChild; reused: boolean } {
  const candidate = pool.idle;
  pool.idle = null;
  if (candidate !== null && alive(candidate) && candidate.heapMb === limits.childHeapMb) {
    clearTimeout(candidate.idleTimer);
    candidate.proc.ref();
    candidate.proc.channel?.ref();
    (candidate.proc.stderr as (NodeJS.ReadableStream & { ref?: () => void }) | null)?.ref?.();
    return { child: candidate, reused: true };
  }
  if (candidate !== null) kill(pool, candidate);
  return { child: spawnChild(limits), reused: false };
}

/** Keeps a healthy child for the next import; it must not keep the engine's process alive. */
function release(pool: PoolState, child: ParseChild, limits: ParseLimits): void {
  // A parse that left the child at half its memory limit would start the next one handicapped.
  if (pool.closed || !alive(child) || pool.idle !== null || child.lastRss > (limits.childRssMb * 1024 * 1024) / 2) {
    kill(pool, child);
    return;
  }
  pool.idle = child;
  child.proc.unref();
  child.proc.channel?.unref();
  // The stderr pipe is a handle of its own: left referenced, it kept the process alive.
  (child.proc.stderr as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.();
  child.idleTimer = setTimeout(() => kill(pool, child), IDLE_MS);
  child.idleTimer.unref();
}

function megabytes(bytes: number): string {
  return `${formatCount(bytes / 1024 / 1024)} MB`;
}

// Long function: one parse's watchdogs (heap, RSS, page and file budgets, cancel) around one child.
async function parseIsolated(pool: PoolState, file: string, options: IsolatedParseOptions): Promise<ParsedDocument> {
  const { limits, signal } = options;
  if (signal?.aborted === true) throw new ClauseGraphError("CANCELLED", "Import cancelled.", { file });
  const started = performance.now();
  if (pool.closed) throw new ClauseGraphError("CANCELLED", "Import cancelled: the engine is closing.", { file });
  const { child, reused } = take(pool, limits);
  let peak = 0;
  let pagesDone = 0;
  let total: number | undefined;
  /** Pages being read with OCR: from then on each has ocrPageSeconds, and the file their budget too. */
  let ocrPages = 0;
  let ocrDone = 0;
  let pageStarted = performance.now();
  /** When the child could start working: the page and file budgets count from here, not the fork. */
  let workStarted: number | null = null;
  let settle: ((outcome: { document: ParsedDocument } | { error: ClauseGraphError }, keep: boolean) => void) | undefined;

  const result = new Promise<ParsedDocument>((resolve, reject) => {
    let settled = false;
    const cleanup: Array<() => void> = [];
    settle = (outcome, keep) => {
      if (settled) return;
      settled = true;
      for (const undo of cleanup) undo();
      child.lastRss = processRss(child.proc.pid ?? -1) ?? child.lastRss;
      peak = Math.max(peak, child.lastRss);
      if (keep) release(pool, child, limits);
      else kill(pool, child);
      options.onStats?.({ seconds: (performance.now() - started) / 1000, childPeakRss: peak, reused });
      if ("document" in outcome) resolve(outcome.document);
      else reject(outcome.error);
    };
    const fail = (error: ClauseGraphError, keep = false): void => settle?.({ error }, keep);
    const breach = (b: Omit<Breach, "page" | "where">): void => {
      const where =
        ocrPages > 0
          ? { where: `while reading its scanned pages with OCR (${ocrDone} of ${ocrPages} done)` }
          : total === undefined && pagesDone === 0
            ? { where: "while opening it" }
            : { page: pagesDone + 1 };
      fail(tooComplex(file, { ...b, ...where }));
    };

    const onMessage = (raw: unknown): void => {
      const message = childMessageSchema.safeParse(raw);
      if (!message.success) return fail(new ClauseGraphError("INTERNAL", `${path.basename(file)}: the parser sent a malformed message.`, { file }));
      const m = message.data;
      if (m.type === "progress") {
        pagesDone = m.page;
        total = m.total;
        pageStarted = performance.now();
        options.onPage?.(m.page, m.total);
      } else if (m.type === "ocr-start") {
        ocrPages = m.pages;
        pageStarted = performance.now();
        options.onOcrStart?.(m.pages);
      } else if (m.type === "ocr-page") {
        ocrDone = m.done;
        pageStarted = performance.now();
        options.onOcrPage?.(m.done, m.total);
      } else if (m.type === "memory") {
        child.lastRss = m.rss;
      } else if (m.type === "done") {
        settle?.({ document: m.document }, true);
      } else if (m.type === "failed") {
        // A typed refusal leaves the child healthy; anything unexpected gets a fresh one.
        const healthy = m.error.code !== "INTERNAL" && m.error.code !== "TOO_COMPLEX";
        const error =
          m.ocrOffer !== undefined && m.error.code === "NEEDS_OCR"
            ? new OcrNeededError(file, m.ocrOffer)
            : new ClauseGraphError(m.error.code, m.error.message, { file });
        fail(error, healthy);
      }
    };
    const onExit = (code: number | null, exitSignal: NodeJS.Signals | null): void => {
      if (OUT_OF_MEMORY.test(child.stderr)) {
        breach({
          what: `reading needed more than its ${formatCount(limits.childHeapMb)} MB heap`,
          limit: `the limit is ${formatCount(limits.childHeapMb)} MB`,
        });
      } else {
        // Rule "a reader that dies is the file's refusal": the child crashed on this file or was
        // killed from outside (the system's out-of-memory killer sends SIGKILL). Either way this
        // file could not be read safely; the library is untouched and the next file gets a new child.
        const how =
          exitSignal === "SIGKILL"
            ? "it was killed (SIGKILL; the system may have run short of memory)"
            : `it ended with ${exitSignal ?? `exit code ${String(code)}`}`;
        fail(
          new ClauseGraphError(
            "TOO_COMPLEX",
            `${path.basename(file)} could not be read: the reading process stopped before it finished (${how}). The file may be damaged or built to overload a reader; the library is unchanged.`,
            { file },
          ),
        );
      }
    };
    const onAbort = (): void => fail(new ClauseGraphError("CANCELLED", "Import cancelled.", { file }));
    const pageBudget = (): number => (ocrPages > 0 ? limits.ocrPageSeconds : limits.pageSeconds);
    const watchdog = setInterval(() => {
      const rss = processRss(child.proc.pid ?? -1) ?? child.lastRss;
      child.lastRss = rss;
      peak = Math.max(peak, rss);
      const now = performance.now();
      if (workStarted === null) {
        if (now - started > START_MS)
          fail(new ClauseGraphError("INTERNAL", `${path.basename(file)}: the parser did not start within ${START_MS / 1000} s.`, { file }));
        return;
      }
      if (rss > limits.childRssMb * 1024 * 1024) {
        breach({ what: `reading took ${megabytes(rss)} of memory`, limit: `the limit is ${formatCount(limits.childRssMb)} MB` });
      } else if (now - pageStarted > pageBudget() * 1000) {
        breach({
          what: `reading took more than ${formatCount(pageBudget())} s`,
          limit: `the limit is ${formatCount(pageBudget())} s per page${ocrPages > 0 ? " read with OCR" : ""}`,
        });
      } else if (now - workStarted > fileSeconds(limits, total, ocrPages) * 1000) {
        const budget = fileSeconds(limits, total, ocrPages);
        breach({
          what: `reading took more than ${formatCount(budget)} s in all`,
          limit: `the limit for ${total === undefined ? "opening a file" : `${formatCount(total)} pages`} is ${formatCount(budget)} s`,
        });
      }
    }, WATCHDOG_MS);
    child.proc.on("message", onMessage);
    child.proc.once("exit", onExit);
    signal?.addEventListener("abort", onAbort, { once: true });
    cleanup.push(
      () => clearInterval(watchdog),
      () => child.proc.off("message", onMessage),
      () => child.proc.off("exit", onExit),
      () => signal?.removeEventListener("abort", onAbort),
    );
  });

  const ready = await Promise.race([
    child.ready,
    result.then(
      () => false,
      () => false,
    ),
  ]);
  if (ready) {
    // The budgets start once the child can work: forking is the engine's cost, not the file's.
    pageStarted = performance.now();
    workStarted = pageStarted;
    const request: ParseRequest = {
      type: "parse",
      file,
      limits,
      ...(options.password === undefined ? {} : { password: options.password }),
      ...(options.sha256 === undefined ? {} : { sha256: options.sha256 }),
      ...(options.bytes === undefined ? {} : { bytes: options.bytes }),
      ...(options.ocr === undefined ? {} : { ocr: options.ocr }),
    };
    child.proc.send(request, (err) => {
      if (err)
        settle?.({ error: new ClauseGraphError("INTERNAL", `${path.basename(file)}: the parser could not be reached (${err.message}).`, { file }) }, false);
    });
  }
  return result;
}
