import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createEngine, databasePath } from "../../core/engine.ts";
import type { SearchOptions } from "../../core/model/engine-types.ts";
import { toErrorInfo } from "../../core/model/errors.ts";
import { createLibraryStore } from "../../core/store/library-store.ts";
import { checkStoreConsistency } from "./store-consistency.ts";

// The soak: one engine process answers N searches and M asks (extractive, no model) while
// another task keeps deleting and re-importing one document. Searches alternate full-text only,
// vectors only and the full hybrid, because Kuzu 0.11.3 was seen corrupting its heap under repeated
// full-text queries on a multi-threaded connection: this proves our configuration (one thread per
// connection, one statement at a time) does not hang, crash, drift or grow. Every call has a
// watchdog; the first hang stops the run. Used by `npm run bench:soak` (the full 10,000 + 500) and
// by test/e2e/soak.test.ts (a short run that asserts the behaviour).

export interface SoakOptions {
  /** Imported first and kept. */
  library: string[];
  /** Deleted and re-imported over and over while the queries run. */
  churnFile: string;
  searches: number;
  asks: number;
  queries: readonly string[];
  questions: readonly string[];
  /** "index": vector queries through Kuzu's HNSW indexes (the native path to prove); "exact": in memory. */
  vectorPath: "index" | "exact";
  timeoutMs: number;
  /** Pause between re-imports, so the soak is about queries with imports alongside. */
  churnPauseMs: number;
  log?: (line: string) => void;
}

export interface SoakTracePoint {
  calls: number;
  rssMb: number;
  heapMb: number;
}

export interface SoakSummary {
  documents: number;
  sections: number;
  setupSeconds: number;
  searches: number;
  asks: number;
  seconds: number;
  reimports: number;
  reimportFailures: number;
  errors: number;
  firstErrors: string[];
  hang: string | null;
  /** Searches that came back empty although their query matches the kept library. */
  emptySearches: number;
  /**
   * Every query in every mode run once before the soak and once after it (churn stopped, library
   * complete again). Full-text rankings, and with exact vectors all rankings, must be identical, or
   * the rebuilt indexes drifted. HNSW is approximate and its graph changes with every insert and
   * delete, so through the index vector and hybrid rankings need only keep most of their top 10
   * (minTopOverlap ≥ 0.7).
   */
  rankingsStable: boolean;
  rankingDiffs: string[];
  /** Smallest share of a top 10 kept, over the queries whose rankings may move (1 when none). */
  minTopOverlap: number;
  /**
   * The closed database checked afterwards (store-consistency.ts, every edge read from both ends):
   * Kuzu 0.11.3 once lost other documents' edges to a checkpoint after a delete, which no error
   * reported; only searches coming back empty showed it.
   */
  consistencyProblems: string[];
  vectorPath: "index" | "exact";
  rssMb: { start: number; warm: number; middle: number; end: number; peak: number };
  rssGrowthFromWarmPct: number;
  memoryFlat: boolean;
  trace: SoakTracePoint[];
  searchP50Ms: number;
  searchP95Ms: number;
  byMode: Record<string, { n: number; p50Ms: number; p95Ms: number }>;
  askP50Ms: number;
  askP95Ms: number;
}

const MODES: Array<{ name: string; stages: SearchOptions["stages"] }> = [
  { name: "full-text", stages: { sectionVectors: false, tripletVectors: false, graphExpansion: false } },
  { name: "vector", stages: { bm25: false, graphExpansion: false } },
  { name: "hybrid", stages: {} },
];

class Hang extends Error {}

const mb = (): number => Math.round(process.memoryUsage().rss / 2 ** 20);
const heapMb = (): number => Math.round(process.memoryUsage().heapUsed / 2 ** 20);
// With node --expose-gc the trace shows what is retained, not what the collector has not got
// round to yet.
const collect = (): void => {
  const gc: unknown = Reflect.get(globalThis, "gc");
  if (typeof gc === "function") gc();
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

const round = (x: number): number => Number(x.toFixed(2));

export async function runSoak(options: SoakOptions): Promise<SoakSummary> {
  const log = options.log ?? (() => {});
  const timeoutMs = Math.max(100, options.timeoutMs);

  async function watched<T>(what: string, work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const watchdog = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Hang(`${what} did not return within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([work, watchdog]);
    } finally {
      clearTimeout(timer);
    }
  }

  const dataDir = await mkdtemp(path.join(os.tmpdir(), "clausegraph-soak-"));
  const store = createLibraryStore({ dbPath: databasePath(dataDir), ...(options.vectorPath === "index" ? { exactVectorLimit: 0 } : {}) });
  const engine = await createEngine({ dataDir, llm: null, store });

  const setupStarted = performance.now();
  for (const r of await engine.importFiles([...options.library, options.churnFile])) {
    if (r.status === "error") log(`import failed: ${path.basename(r.file)}: ${r.error?.code} ${r.error?.message}`);
  }
  const setupSeconds = (performance.now() - setupStarted) / 1000;

  async function rankings(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const mode of MODES) {
      for (const q of options.queries) {
        const res = await watched(`${mode.name} search "${q}"`, engine.search(q, { k: 10, stages: mode.stages }));
        out.set(`${mode.name} "${q}"`, res.results.map((r) => r.sectionId).join(" "));
      }
    }
    return out;
  }
  // Also the warm-up, so the first timed call does not pay for the model and index loading.
  const before = await rankings();
  await engine.ask(options.questions[0] ?? "test");
  const stats = await engine.stats();
  log(
    `library: ${stats.documents} documents, ${stats.sections} sections, ${stats.embeddedSections} vectors (set up in ${setupSeconds.toFixed(1)} s); ` +
      `vectors via ${options.vectorPath === "index" ? "Kuzu HNSW indexes" : "exact scan in memory"}`,
  );

  collect();
  // Kuzu's buffer pool and the read caches fill during the first calls and re-imports; "flat" is
  // judged from the point a quarter of the way in (warm) to the end, on a trace taken every 5 %.
  const rss = { start: mb(), warm: 0, middle: 0, end: 0, peak: mb() };
  const trace: SoakTracePoint[] = [{ calls: 0, rssMb: rss.start, heapMb: heapMb() }];
  const sampler = setInterval(() => {
    rss.peak = Math.max(rss.peak, mb());
  }, 200);
  const firstErrors: string[] = [];
  let errors = 0;
  let hang: string | null = null;
  const note = (what: string, err: unknown): void => {
    errors++;
    if (err instanceof Hang) hang ??= err.message;
    if (firstErrors.length < 10) firstErrors.push(`${what}: ${toErrorInfo(err).code} ${toErrorInfo(err).message}`);
  };

  let done = false;
  const churn = { cycles: 0, failed: 0 };
  const churnLoop = (async () => {
    while (!done && hang === null) {
      try {
        await watched("delete", engine.deleteDocument(options.churnFile));
        const [r] = await watched("re-import", engine.importFiles([options.churnFile]));
        if (r?.status !== "ok") {
          churn.failed++;
          note("re-import", new Error(`${r?.status ?? "no result"} ${r?.error?.code ?? ""} ${r?.error?.message ?? ""}`));
        }
        churn.cycles++;
        await new Promise((resolve) => setTimeout(resolve, options.churnPauseMs));
      } catch (err) {
        churn.failed++;
        note("churn", err);
      }
    }
  })();

  const searchMs: Record<string, number[]> = Object.fromEntries(MODES.map((m) => [m.name, []]));
  const askMs: number[] = [];
  const total = options.searches + options.asks;
  let asked = 0;
  let searched = 0;
  let emptySearches = 0;
  const started = performance.now();
  for (let i = 0; i < total && hang === null; i++) {
    const sampleNow = i > 0 && i % Math.max(1, Math.floor(total / 20)) === 0;
    if (sampleNow || i === Math.floor(total / 2) || i === Math.floor(total / 10)) collect();
    if (i === Math.floor(total / 2)) rss.middle = mb();
    if (i === Math.floor(total / 4)) rss.warm = mb();
    if (sampleNow) trace.push({ calls: i, rssMb: mb(), heapMb: heapMb() });
    // Asks are spread evenly among the searches.
    const isAsk = asked < options.asks && (searched >= options.searches || Math.floor(((i + 1) * options.asks) / total) > asked);
    const t0 = performance.now();
    try {
      if (isAsk) {
        const q = options.questions[asked % options.questions.length] ?? "";
        asked++;
        await watched(`ask "${q}"`, engine.ask(q));
        askMs.push(performance.now() - t0);
      } else {
        const mode = MODES[searched % MODES.length] ?? { name: "hybrid", stages: {} };
        const q = options.queries[Math.floor(searched / MODES.length) % options.queries.length] ?? "";
        searched++;
        const res = await watched(`${mode.name} search "${q}"`, engine.search(q, { k: 10, stages: mode.stages }));
        // Empty is right only where it was right before the soak: a query of words the embedding
        // model does not know has no vector neighbours.
        if (res.results.length === 0 && before.get(`${mode.name} "${q}"`) !== "") emptySearches++;
        searchMs[mode.name]?.push(performance.now() - t0);
      }
    } catch (err) {
      note(isAsk ? "ask" : "search", err);
    }
    if ((i + 1) % (total >= 5000 ? 1000 : 100) === 0) log(`${i + 1}/${total} calls, rss ${mb()} MB, ${churn.cycles} re-imports, ${errors} errors`);
  }
  const seconds = (performance.now() - started) / 1000;
  done = true;
  if (hang === null) await churnLoop;
  clearInterval(sampler);
  collect();
  rss.end = mb();
  trace.push({ calls: searched + asked, rssMb: rss.end, heapMb: heapMb() });
  if (rss.middle === 0) rss.middle = rss.end;
  if (rss.warm === 0) rss.warm = rss.start;
  // Within 10 % of the warm figure (GC and the buffer pool swing by ~150 MB between samples).
  const growthPct = Number((((rss.end - rss.warm) / rss.warm) * 100).toFixed(1));

  const rankingDiffs: string[] = [];
  const consistencyProblems: string[] = [];
  let minTopOverlap = 1;
  if (hang === null) {
    // The churn loop ends after a re-import: the library is what it was before the soak.
    const after = await rankings().catch((err: unknown) => {
      note("final rankings", err);
      return new Map<string, string>();
    });
    for (const [key, was] of before) {
      const now = after.get(key);
      const approximate = options.vectorPath === "index" && !key.startsWith("full-text ");
      if (approximate && now !== undefined) {
        const kept = new Set(now.split(" "));
        const wasIds = was.split(" ").filter((id) => id !== "");
        const overlap = wasIds.length === 0 ? 1 : wasIds.filter((id) => kept.has(id)).length / wasIds.length;
        minTopOverlap = Math.min(minTopOverlap, overlap);
        if (overlap < 0.7) rankingDiffs.push(`${key}: only ${Math.round(overlap * 100)} % of the top 10 kept: before [${was}] after [${now}]`);
      } else if (now !== was) {
        rankingDiffs.push(`${key}: before [${was}] after [${now ?? "error"}]`);
      }
    }
    await engine.close();
    const consistency = await checkStoreConsistency(databasePath(dataDir), { edgesBothWays: true }).catch((err: unknown) => ({
      documents: 0,
      problems: [`the closed library could not be checked: ${toErrorInfo(err).message}`],
    }));
    consistencyProblems.push(...consistency.problems);
    if (consistency.problems.length === 0) await rm(dataDir, { recursive: true, force: true });
  }

  const allSearch = Object.values(searchMs)
    .flat()
    .sort((a, b) => a - b);
  const askSorted = [...askMs].sort((a, b) => a - b);
  return {
    documents: stats.documents,
    sections: stats.sections,
    setupSeconds: round(setupSeconds),
    searches: searched,
    asks: asked,
    seconds: Number(seconds.toFixed(1)),
    reimports: churn.cycles,
    reimportFailures: churn.failed,
    errors,
    firstErrors,
    hang: hang === null ? null : `${hang} (data left in ${dataDir})`,
    consistencyProblems: consistencyProblems.length === 0 ? [] : [...consistencyProblems, `(library kept in ${dataDir})`],
    emptySearches,
    rankingsStable: hang === null && rankingDiffs.length === 0,
    rankingDiffs: rankingDiffs.slice(0, 10),
    minTopOverlap: round(minTopOverlap),
    vectorPath: options.vectorPath,
    rssMb: rss,
    rssGrowthFromWarmPct: growthPct,
    memoryFlat: growthPct <= 10,
    trace,
    searchP50Ms: round(percentile(allSearch, 50)),
    searchP95Ms: round(percentile(allSearch, 95)),
    byMode: Object.fromEntries(
      Object.entries(searchMs).map(([name, list]) => {
        const sorted = [...list].sort((a, b) => a - b);
        return [name, { n: sorted.length, p50Ms: round(percentile(sorted, 50)), p95Ms: round(percentile(sorted, 95)) }];
      }),
    ),
    askP50Ms: round(percentile(askSorted, 50)),
    askP95Ms: round(percentile(askSorted, 95)),
  };
}
