// npm run bench:soak [-- --searches 10000 --asks 500 --docs 10 --timeout-ms 30000 --churn-pause-ms 2000
//                       --vector-path index|exact --json]
// Issue 6 §2 soak: one engine process over the regulatory corpus answers N searches and M asks
// (extractive, no model) while another task keeps deleting and re-importing a small document.
// Searches alternate full-text only, vectors only and the full hybrid, because Kuzu 0.11.3 was
// seen corrupting its heap under repeated full-text queries on a multi-threaded connection: this
// proves our configuration (one thread per connection, one statement at a time) does not hang,
// crash or grow. Every call has a watchdog; the first hang stops the run and is reported.
// A library this size is normally searched exactly from vectors in memory; by default the soak
// sends every vector query through Kuzu's HNSW indexes instead (--vector-path index), since those
// native queries are what has to be proven; --vector-path exact soaks the everyday path.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { createEngine, databasePath } from "../core/engine.ts";
import { createKuzuStore } from "../core/store/kuzu-store.ts";
import type { SearchOptions } from "../core/engine-types.ts";
import { toErrorInfo } from "../core/errors.ts";

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
  },
});

const SEARCHES = Math.max(0, Number.parseInt(values.searches, 10));
const ASKS = Math.max(0, Number.parseInt(values.asks, 10));
const TIMEOUT = Math.max(100, Number.parseInt(values["timeout-ms"], 10));
// Each write makes the next search rebuild the full-text index; a pause between re-imports keeps
// the soak about queries with imports alongside rather than about back-to-back index rebuilds.
const CHURN_PAUSE = Math.max(0, Number.parseInt(values["churn-pause-ms"], 10));
if (values["vector-path"] !== "index" && values["vector-path"] !== "exact") {
  console.error(`--vector-path must be index or exact, not ${values["vector-path"]}`);
  process.exit(2);
}
const VECTOR_PATH = values["vector-path"];

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
const MODES: Array<{ name: string; stages: SearchOptions["stages"] }> = [
  { name: "full-text", stages: { sectionVectors: false, tripletVectors: false, graphExpansion: false } },
  { name: "vector", stages: { bm25: false, graphExpansion: false } },
  { name: "hybrid", stages: {} },
];

// With --json, stdout carries only the summary; progress goes to stderr so a long run can be watched.
const log = (line: string): void => {
  if (values.json) console.error(line);
  else console.log(line);
};
const mb = (): number => Math.round(process.memoryUsage().rss / 2 ** 20);
const heapMb = (): number => Math.round(process.memoryUsage().heapUsed / 2 ** 20);
// With --expose-gc (npm run bench:soak passes it) the trace shows what is retained, not what the
// collector has not got round to yet.
const collect = (): void => {
  const gc: unknown = Reflect.get(globalThis, "gc");
  if (typeof gc === "function") gc();
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

class Hang extends Error {}

/** The call, or a Hang after the watchdog delay. */
async function watched<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Hang(`${what} did not return within ${TIMEOUT} ms`)), TIMEOUT);
  });
  try {
    return await Promise.race([work, watchdog]);
  } finally {
    clearTimeout(timer);
  }
}

const all = (await readdir(values.dir)).filter((f) => f.toLowerCase().endsWith(".pdf")).sort().map((f) => path.join(values.dir, f));
if (all.length === 0) {
  console.error(`no PDFs in ${values.dir}`);
  process.exit(1);
}
// The smallest document is the one re-imported alongside; the rest stay.
const churnFile = all.find((f) => f.includes("allegato_E")) ?? all[all.length - 1] ?? "";
const library = all.filter((f) => f !== churnFile).slice(0, Math.max(1, Number.parseInt(values.docs, 10)));
const dataDir = await mkdtemp(path.join(os.tmpdir(), "clausegraph-soak-"));
const store = createKuzuStore({ dbPath: databasePath(dataDir), ...(VECTOR_PATH === "index" ? { exactVectorLimit: 0 } : {}) });
const engine = await createEngine({ dataDir, llm: null, store });

const setupStarted = performance.now();
for (const r of await engine.importFiles([...library, churnFile])) {
  if (r.status === "error") log(`import failed: ${path.basename(r.file)}: ${r.error?.code} ${r.error?.message}`);
}
const setupSeconds = (performance.now() - setupStarted) / 1000;
// Warm-up so the first timed call does not pay for the model and index loading.
await engine.search(QUERIES[0] ?? "test");
await engine.ask(QUESTIONS[0] ?? "test");
const stats = await engine.stats();
log(`library: ${stats.documents} documents, ${stats.sections} sections, ${stats.embeddedSections} vectors (set up in ${setupSeconds.toFixed(1)} s); vectors via ${VECTOR_PATH === "index" ? "Kuzu HNSW indexes" : "exact scan in memory"}`);

// Kuzu's buffer pool and the read caches fill during the first calls; "flat" is judged from the
// point a tenth of the way in (warm) to the end, on a trace taken every 5 %.
collect();
const rss = { start: mb(), warm: 0, middle: 0, end: 0, peak: mb() };
const trace: Array<{ calls: number; rssMb: number; heapMb: number }> = [{ calls: 0, rssMb: rss.start, heapMb: heapMb() }];
const sampler = setInterval(() => {
  rss.peak = Math.max(rss.peak, mb());
}, 200);
const errors: string[] = [];
let errorCount = 0;
let hang: string | null = null;
const note = (what: string, err: unknown): void => {
  errorCount++;
  if (err instanceof Hang) hang ??= err.message;
  if (errors.length < 10) errors.push(`${what}: ${toErrorInfo(err).code} ${toErrorInfo(err).message}`);
};

// Imports alongside: delete and re-import the small document until the queries are done.
let done = false;
const churn = { cycles: 0, failed: 0 };
const churnLoop = (async () => {
  while (!done && hang === null) {
    try {
      await watched("delete", engine.deleteDocument(churnFile));
      const [r] = await watched("re-import", engine.importFiles([churnFile]));
      if (r?.status !== "ok") {
        churn.failed++;
        note("re-import", new Error(`${r?.status ?? "no result"} ${r?.error?.code ?? ""} ${r?.error?.message ?? ""}`));
      }
      churn.cycles++;
      await new Promise((resolve) => setTimeout(resolve, CHURN_PAUSE));
    } catch (err) {
      churn.failed++;
      note("churn", err);
    }
  }
})();

const searchMs: Record<string, number[]> = Object.fromEntries(MODES.map((m) => [m.name, []]));
const askMs: number[] = [];
const total = SEARCHES + ASKS;
let asked = 0;
let searched = 0;
const started = performance.now();
for (let i = 0; i < total && hang === null; i++) {
  const sampleNow = i > 0 && i % Math.max(1, Math.floor(total / 20)) === 0;
  if (sampleNow || i === Math.floor(total / 2) || i === Math.floor(total / 10)) collect();
  if (i === Math.floor(total / 2)) rss.middle = mb();
  if (i === Math.floor(total / 10)) rss.warm = mb();
  if (sampleNow) trace.push({ calls: i, rssMb: mb(), heapMb: heapMb() });
  // Asks are spread evenly among the searches.
  const isAsk = asked < ASKS && (searched >= SEARCHES || Math.floor(((i + 1) * ASKS) / total) > asked);
  const t0 = performance.now();
  try {
    if (isAsk) {
      const q = QUESTIONS[asked % QUESTIONS.length] ?? "";
      asked++;
      await watched(`ask "${q}"`, engine.ask(q));
      askMs.push(performance.now() - t0);
    } else {
      const mode = MODES[searched % MODES.length] ?? { name: "hybrid", stages: {} };
      const q = QUERIES[Math.floor(searched / MODES.length) % QUERIES.length] ?? "";
      searched++;
      await watched(`${mode.name} search "${q}"`, engine.search(q, { k: 10, stages: mode.stages }));
      searchMs[mode.name]?.push(performance.now() - t0);
    }
  } catch (err) {
    note(isAsk ? "ask" : "search", err);
  }
  if ((i + 1) % (total >= 5000 ? 1000 : 100) === 0) log(`${i + 1}/${total} calls, rss ${mb()} MB, ${churn.cycles} re-imports, ${errorCount} errors`);
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
const flat = growthPct <= 10;
if (hang === null) {
  await engine.close();
  await rm(dataDir, { recursive: true, force: true });
}

const allSearch = Object.values(searchMs).flat().sort((a, b) => a - b);
const summary = {
  searches: searched,
  asks: asked,
  seconds: Number(seconds.toFixed(1)),
  reimports: churn.cycles,
  reimportFailures: churn.failed,
  errors: errorCount,
  hang,
  vectorPath: VECTOR_PATH,
  rssMb: rss,
  rssGrowthFromWarmPct: growthPct,
  memoryFlat: flat,
  trace,
  searchP50Ms: Number(percentile(allSearch, 50).toFixed(2)),
  searchP95Ms: Number(percentile(allSearch, 95).toFixed(2)),
  byMode: Object.fromEntries(
    Object.entries(searchMs).map(([name, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return [name, { n: sorted.length, p50Ms: Number(percentile(sorted, 50).toFixed(2)), p95Ms: Number(percentile(sorted, 95).toFixed(2)) }];
    }),
  ),
  askP50Ms: Number(percentile([...askMs].sort((a, b) => a - b), 50).toFixed(2)),
  askP95Ms: Number(percentile([...askMs].sort((a, b) => a - b), 95).toFixed(2)),
};
log("");
log(`${summary.searches} searches and ${summary.asks} asks in ${summary.seconds} s with ${summary.reimports} delete+re-imports alongside`);
log(`search p50 ${summary.searchP50Ms} ms, p95 ${summary.searchP95Ms} ms; ask p50 ${summary.askP50Ms} ms, p95 ${summary.askP95Ms} ms`);
for (const [name, m] of Object.entries(summary.byMode)) log(`  ${name.padEnd(9)} ${String(m.n).padStart(6)} searches, p50 ${m.p50Ms} ms, p95 ${m.p95Ms} ms`);
log(`RSS start ${rss.start} MB, warm (10 %) ${rss.warm} MB, middle ${rss.middle} MB, end ${rss.end} MB, peak ${rss.peak} MB`);
log(`RSS trace (MB): ${trace.map((t) => t.rssMb).join(" ")}`);
log(`JS heap trace (MB): ${trace.map((t) => t.heapMb).join(" ")}`);
log(`memory ${flat ? "flat" : "GROWING"}: ${growthPct >= 0 ? "+" : ""}${growthPct} % from warm to end`);
log(`errors: ${errorCount}${hang ? `; HANG: ${hang} (data left in ${dataDir})` : ""}`);
for (const e of errors) log(`  ${e}`);
if (values.json) console.log(JSON.stringify(summary));
process.exitCode = errorCount > 0 || hang !== null || !flat ? 1 : 0;
// A hung native call would keep the process alive forever.
if (hang !== null) process.exit(1);
