import path from "node:path";
import { fileURLToPath } from "node:url";
import { startWebHost } from "../../core/host/web-host.ts";
import { connectHost, type HostClient } from "./host-client.ts";
import { openLabelledLibrary, pdfsIn } from "./labelled-library.ts";
import { percentile } from "./metrics.ts";

// One client floods the web host (the real engine, the ten corpus PDFs) with searches and
// questions sent all at once, on one WebSocket; another client searches now and then, as an
// auditor at the next desk would. What the second client waits is the measure of fair sharing.

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, "../..");
/** Another client's search while one floods: the goal, ms (p95). */
export const FLOOD_SEARCH_GOAL_MS = 200;
/** Time between the other client's searches, ms. */
const PROBE_EVERY_MS = 250;
/** Searches of the other client alone, before the flood: the floor it is compared with. */
const ALONE_SEARCHES = 30;
/** Longest a single request may take before it counts as lost, ms (a loaded machine is slow, not stuck). */
const REQUEST_TIMEOUT_MS = 10 * 60_000;

export interface FloodReport {
  floodSearches: number;
  floodAsks: number;
  /** The flood's requests the host answered, and those it turned away for crowding its connection. */
  answered: number;
  refused: number;
  /** The flood's requests that failed otherwise (engine errors, lost replies). */
  errors: string[];
  floodSeconds: number;
  alone: { p50: number; p95: number };
  during: { n: number; p50: number; p95: number; max: number };
}

export interface FloodOptions {
  corpusDir: string;
  modelRoot: string;
  questions: readonly string[];
  searches: number;
  asks: number;
  log: (line: string) => void;
}

const isRefusal = (reply: unknown): boolean => typeof reply === "object" && reply !== null && "ok" in reply && reply.ok === false;
const messageOf = (reply: unknown): string =>
  typeof reply === "object" && reply !== null && "error" in reply ? JSON.stringify(reply.error).slice(0, 200) : String(reply).slice(0, 200);

async function timedSearch(client: HostClient, query: string): Promise<number> {
  const started = performance.now();
  const reply = await client.call("search", { query, k: 10 }, REQUEST_TIMEOUT_MS);
  if (isRefusal(reply)) throw new Error(`the other client's search failed: ${messageOf(reply)}`);
  return performance.now() - started;
}

export async function runHostFlood(options: FloodOptions): Promise<FloodReport> {
  const { engine, dataDir } = await openLabelledLibrary({ pdfs: pdfsIn(options.corpusDir), modelRoot: options.modelRoot, log: options.log });
  const host = await startWebHost({ dataDir, port: 0, staticDir: path.join(ROOT, "dist/renderer"), engine });
  const flooder = await connectHost(host);
  const other = await connectHost(host);
  const q = (i: number): string => options.questions[i % options.questions.length] ?? "What must be reported?";
  try {
    // Warm: the first search loads the embedder and the caches, which is not what is measured.
    await timedSearch(other, q(0));
    const alone: number[] = [];
    for (let i = 0; i < ALONE_SEARCHES; i++) alone.push(await timedSearch(other, q(i + 1)));

    const started = performance.now();
    const sent: Array<Promise<unknown>> = [];
    for (let i = 0; i < options.searches; i++) sent.push(flooder.call("search", { query: q(i), k: 10 }, REQUEST_TIMEOUT_MS));
    for (let i = 0; i < options.asks; i++) sent.push(flooder.call("ask", { question: q(i + 7) }, REQUEST_TIMEOUT_MS));
    let done = false;
    const settled = Promise.allSettled(sent).then((results) => {
      done = true;
      return results;
    });
    const during: number[] = [];
    let n = 0;
    while (!done) {
      during.push(await timedSearch(other, q(1000 + n++)));
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
    const results = await settled;
    const floodSeconds = (performance.now() - started) / 1000;
    let answered = 0;
    let refused = 0;
    const errors: string[] = [];
    for (const r of results) {
      if (r.status === "rejected") errors.push(String(r.reason).slice(0, 200));
      else if (!isRefusal(r.value)) answered++;
      else if (/too many requests/i.test(messageOf(r.value))) refused++;
      else errors.push(messageOf(r.value));
    }
    return {
      floodSearches: options.searches,
      floodAsks: options.asks,
      answered,
      refused,
      errors,
      floodSeconds,
      alone: { p50: percentile(alone, 50), p95: percentile(alone, 95) },
      during: { n: during.length, p50: percentile(during, 50), p95: percentile(during, 95), max: Math.max(...during) },
    };
  } finally {
    flooder.close();
    other.close();
    await host.close();
    await engine.close();
  }
}
