import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createEngine } from "../../core/engine.ts";
import type { Engine, ImportResult } from "../../core/model/engine-types.ts";
import type { ErrorCode } from "../../core/model/errors.ts";
import type { ParseLimits } from "../../core/ingest/parse-limits.ts";
import { startWebHost } from "../../core/host/web-host.ts";
import type { WebHost } from "../../core/host/web-host.ts";
import { connectHost } from "./host-client.ts";
import type { HostClient } from "./host-client.ts";
import {
  contentBombPdf,
  devZeroLink,
  fifoTxt,
  hexNestedStatesPdf,
  manyTextItemsPdf,
  metadataBombPdf,
  nestedStatesPdf,
  sharedContentPdf,
  sparseTxt,
  textFloodPdf,
  writeFixture,
} from "./hostile-pdf-fixtures.ts";
import { sampleRss } from "./rss-sampler.ts";
import { regulationPdf } from "./trust-fixtures.ts";

// "Untrusted bytes are parsed under limits": every file of the issue imported into a
// real engine served by the web host. For each: the typed error within 60 s, the engine's peak
// RSS ≤ 2 GB (and the parsing child's), the library unchanged, the next import working, and the
// host answering `GET /` and a search throughout. The second list lifts the pre-scan's caps so
// that only the child's watchdogs (time per page and per file, RSS, heap) can stop the file.

const GB = 1024 ** 3;
const MB = 1024 * 1024;
export const MAX_SECONDS = 60;
export const MAX_ENGINE_RSS = 2 * GB;
/** A probe answered slower than this means the host was not responsive. */
export const RESPONSIVE_MS = 2000;
const PROBE_EVERY_MS = 250;

export interface HostileParseCase {
  name: string;
  expected: ErrorCode;
  make: (dir: string) => Promise<string>;
  /** Engine parse limits for this case (default: the defaults). */
  limits?: Partial<ParseLimits>;
}

const pdf = (name: string, make: () => Buffer) => (dir: string) => writeFixture(dir, name, make());

/** The issue's files, under the default limits. */
export const HOSTILE_PARSE_CASES: HostileParseCase[] = [
  { name: "4.6 KB PDF of q nested 1,000,000 deep", expected: "TOO_COMPLEX", make: pdf("nested-q.pdf", () => nestedStatesPdf(1_000_000)) },
  { name: "1.6 MB PDF, content stream inflating to 1.5 GB", expected: "TOO_COMPLEX", make: pdf("content-bomb.pdf", () => contentBombPdf(1.5 * GB)) },
  { name: "1.6 MB PDF, XMP metadata inflating to 1.5 GB", expected: "TOO_COMPLEX", make: pdf("xmp-bomb.pdf", () => metadataBombPdf(1.5 * GB)) },
  { name: "2.3 MB PDF of 230M Tj operators", expected: "TOO_COMPLEX", make: pdf("tj-flood.pdf", () => textFloodPdf(230_000_000)) },
  { name: "PDF with 5M text items on a page", expected: "TOO_COMPLEX", make: pdf("text-items.pdf", () => manyTextItemsPdf(5_000_000)) },
  { name: "4,999 pages sharing one 240 KB content stream", expected: "TOO_COMPLEX", make: pdf("shared-content.pdf", () => sharedContentPdf(4999, 240 * 1024)) },
  { name: "/dev/zero", expected: "FILE_UNREADABLE", make: async () => "/dev/zero" },
  { name: ".txt symlink to /dev/zero", expected: "FILE_UNREADABLE", make: devZeroLink },
  { name: "FIFO named .txt", expected: "FILE_UNREADABLE", make: async (dir) => fifoTxt(dir) },
  { name: "20 GB sparse .txt", expected: "TOO_LARGE", make: (dir) => sparseTxt(dir, 20 * GB) },
];

const LIFTED = 1e12;

/** The same kinds of file with the pre-scan's caps lifted: the child's watchdogs must stop them. */
export const WATCHDOG_CASES: HostileParseCase[] = [
  {
    name: "q nested 1,000,000 deep, nesting cap lifted (5 s per page)",
    expected: "TOO_COMPLEX",
    make: pdf("nested-q-watchdog.pdf", () => nestedStatesPdf(1_000_000)),
    limits: { nestingDepth: LIFTED, operatorsPerPage: LIFTED, pageSeconds: 5 },
  },
  {
    name: "q nested 30,000 deep under ASCIIHexDecode, unseen by the pre-scan (5 s per page)",
    expected: "TOO_COMPLEX",
    make: pdf("nested-q-hex.pdf", () => hexNestedStatesPdf(30_000)),
    limits: { pageSeconds: 5 },
  },
  {
    name: "content stream inflating to 1.5 GB, inflate caps lifted (RSS 600 MB)",
    expected: "TOO_COMPLEX",
    make: pdf("content-bomb-watchdog.pdf", () => contentBombPdf(1.5 * GB)),
    limits: { inflatedBytesPerStream: LIFTED, inflatedBytesPerFile: LIFTED, childRssMb: 600 },
  },
  {
    name: "XMP metadata inflating to 1.5 GB, inflate caps lifted (RSS 600 MB)",
    expected: "TOO_COMPLEX",
    make: pdf("xmp-bomb-watchdog.pdf", () => metadataBombPdf(1.5 * GB)),
    limits: { inflatedBytesPerStream: LIFTED, inflatedBytesPerFile: LIFTED, childRssMb: 600 },
  },
  {
    name: "5M text items, text and operator caps lifted (heap 128 MB)",
    expected: "TOO_COMPLEX",
    make: pdf("text-items-watchdog.pdf", () => manyTextItemsPdf(5_000_000)),
    limits: { textItemsPerPage: LIFTED, operatorsPerPage: LIFTED, childHeapMb: 128 },
  },
  {
    name: "4,999 pages sharing one stream, file cap lifted (10 s per file)",
    expected: "TOO_COMPLEX",
    make: pdf("shared-content-watchdog.pdf", () => sharedContentPdf(4999, 240 * 1024)),
    limits: { operatorsPerFile: LIFTED, fileSecondsBase: 5, fileSecondsPerPage: 0.001, fileSecondsMax: 10 },
  },
];

export interface HostileParseOutcome {
  name: string;
  expected: ErrorCode;
  outcome: string;
  message: string;
  seconds: number;
  enginePeakMb: number;
  childPeakMb: number;
  hostResponsive: boolean;
  slowestAnswerMs: number;
  libraryUnchanged: boolean;
  nextImportOk: boolean;
  /** What the import after this one gave when it failed ("" when it worked). */
  nextImportError: string;
  /** Why the case fails its checks; null when it passes all of them. */
  failure: string | null;
}

export interface HostileParseOptions {
  cases?: HostileParseCase[];
  log?: (line: string) => void;
}

interface Probe {
  stop(): Promise<{ ok: boolean; slowestMs: number; problem: string | null }>;
}

/** GET / and a search, again and again, until stopped: each must answer within RESPONSIVE_MS. */
function probeHost(client: HostClient): Probe {
  let slowest = 0;
  let problem: string | null = null;
  let running = true;
  const once = async (): Promise<void> => {
    const started = performance.now();
    try {
      const [page] = await Promise.all([client.get("/", RESPONSIVE_MS * 3), client.call("search", { query: "operator notify", k: 3 }, RESPONSIVE_MS * 3)]);
      if (page.status !== 200) problem ??= `GET / answered ${page.status}`;
    } catch (err) {
      problem ??= err instanceof Error ? err.message : String(err);
    }
    slowest = Math.max(slowest, performance.now() - started);
  };
  const loop = (async () => {
    while (running) {
      await once();
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      if (problem === null && slowest > RESPONSIVE_MS) problem = `an answer took ${Math.round(slowest)} ms`;
      return { ok: problem === null, slowestMs: slowest, problem };
    },
  };
}

async function libraryShape(engine: Engine): Promise<string> {
  const stats = await engine.stats();
  const ids = (await engine.listDocuments()).map((d) => d.id).sort();
  return JSON.stringify({ documents: stats.documents, sections: stats.sections, ids });
}

function outcomeOf(result: ImportResult | undefined): string {
  if (result === undefined) return "missing";
  return result.status === "ok" ? "imported" : result.status === "skipped" ? "skipped" : (result.error?.code ?? "INTERNAL");
}

interface Served {
  engine: Engine;
  host: WebHost;
  client: HostClient;
  close(): Promise<void>;
}

async function serve(dataDir: string, staticDir: string, limits: Partial<ParseLimits> | undefined): Promise<Served> {
  // Parsing is under test, not embeddings: without them every import is quick.
  const engine = await createEngine({ dataDir, llm: null, embedder: null, ...(limits ? { parseLimits: limits } : {}) });
  const host = await startWebHost({ dataDir, port: 0, staticDir, engine });
  const client = await connectHost(host);
  return {
    engine,
    host,
    client,
    async close() {
      client.close();
      await host.close();
      await engine.close();
    },
  };
}

function check(o: Omit<HostileParseOutcome, "failure">, file: string, probeProblem: string | null): string | null {
  if (o.outcome !== o.expected) return `expected ${o.expected}, got ${o.outcome} (${o.message})`;
  if (!o.message.includes(path.basename(file))) return `the error does not name ${path.basename(file)}: ${o.message}`;
  if (o.seconds > MAX_SECONDS) return `took ${o.seconds.toFixed(1)} s (limit ${MAX_SECONDS} s)`;
  if (o.enginePeakMb * MB > MAX_ENGINE_RSS) return `engine peak RSS ${o.enginePeakMb} MB`;
  if (!o.libraryUnchanged) return "the library changed";
  if (!o.hostResponsive) return `the host did not answer in time: ${probeProblem ?? "?"}`;
  if (!o.nextImportOk) return `the next import failed: ${o.nextImportError}`;
  return null;
}

export async function runHostileParse(options: HostileParseOptions = {}): Promise<HostileParseOutcome[]> {
  const log = options.log ?? (() => {});
  const cases = options.cases ?? [...HOSTILE_PARSE_CASES, ...WATCHDOG_CASES];
  const tmp = await mkdtemp(path.join(os.tmpdir(), "cg-hostile-parse-"));
  const dataDir = path.join(tmp, "data");
  const inputs = path.join(tmp, "inputs");
  const staticDir = path.join(tmp, "static");
  await mkdir(inputs, { recursive: true });
  await mkdir(staticDir, { recursive: true });
  await writeFile(path.join(staticDir, "index.html"), "<!doctype html><title>ClauseGraph</title>");
  const outcomes: HostileParseOutcome[] = [];
  let served: Served | null = null;
  let servedLimits = "";
  let control = 0;
  /** A small, well-formed import: "" when it worked, else what it gave. */
  const importControl = async (engine: Engine): Promise<string> => {
    const file = path.join(inputs, `control-${++control}.pdf`);
    await writeFile(file, await regulationPdf(undefined, `Control Regulation ${control}`));
    const [result] = await engine.importFiles([file]);
    return result?.status === "ok" ? "" : `${outcomeOf(result)} ${result?.error?.message ?? ""}`.trim();
  };
  try {
    for (const hostile of cases) {
      const limitsKey = JSON.stringify(hostile.limits ?? {});
      if (served === null || limitsKey !== servedLimits) {
        await served?.close();
        served = await serve(dataDir, staticDir, hostile.limits);
        servedLimits = limitsKey;
        // Something to search, and to keep unchanged.
        if (control === 0) {
          const failed = await importControl(served.engine);
          if (failed !== "") throw new Error(`the first control import failed: ${failed}`);
        }
      }
      const { engine, client } = served;
      const file = await hostile.make(inputs);
      const before = await libraryShape(engine);
      const sampler = sampleRss();
      const probe = probeHost(client);
      const started = performance.now();
      const [result] = await engine.importFiles([file]);
      const seconds = (performance.now() - started) / 1000;
      const probed = await probe.stop();
      const peaks = sampler.stop();
      const libraryUnchanged = (await libraryShape(engine)) === before;
      const nextImportError = await importControl(engine);
      const partial = {
        name: hostile.name,
        expected: hostile.expected,
        outcome: outcomeOf(result),
        message: result?.error?.message ?? "",
        seconds,
        enginePeakMb: Math.round(peaks.engine / MB),
        childPeakMb: Math.round(peaks.children / MB),
        hostResponsive: probed.ok,
        slowestAnswerMs: Math.round(probed.slowestMs),
        libraryUnchanged,
        nextImportOk: nextImportError === "",
        nextImportError,
      };
      const outcome = { ...partial, failure: check(partial, file, probed.problem) };
      outcomes.push(outcome);
      log(
        `${hostile.name}: ${outcome.outcome} in ${seconds.toFixed(1)} s, engine peak ${outcome.enginePeakMb} MB, child peak ${outcome.childPeakMb} MB, host responsive ${outcome.hostResponsive ? "yes" : "NO"} (slowest ${outcome.slowestAnswerMs} ms)${outcome.failure ? ` — FAILED: ${outcome.failure}` : ""}`,
      );
    }
    return outcomes;
  } finally {
    await served?.close();
    await rm(tmp, { recursive: true, force: true });
  }
}
