// npm run bench:retrieval -- --dataset obliqa|xrefrag --split dev|test [--json] [--limit N] [--fit]
//
// Imports the ObliQA passage corpus (ADGM rulebooks, 13,705 passages) into a fresh Kuzu store as
// sections, then runs the questions of ObliQA or XRefRAG-ADGM through hybridSearch under several
// stage configurations and prints Recall@10 / MAP@10 computed as pytrec_eval does (see
// lib/metrics.ts), query latency and ingest time. `--fit` (dev only) fits the fusion weights on
// ObliQA dev together with the plain-language sets over the ten corpus PDFs (lib/plain-language-fit.ts)
// and prints them for core/retrieve/weights.ts. Figures, not assertions: nothing here is a test.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { ensureDefaultEmbedder } from "../core/embed/default-embedder.ts";
import type { Embedder } from "../core/model/embedder.ts";
import { hybridSearch } from "../core/retrieve/hybrid-search.ts";
import { createRetrievalCaches } from "../core/retrieve/retrieval-caches.ts";
import type { RetrievalStore } from "../core/store/retrieval-store.ts";
import type { StageSwitches } from "../core/model/retrieval-types.ts";
import { DEFAULT_WEIGHTS, FUSION_FEATURES, RESCORE_FEATURES } from "../core/retrieve/weights.ts";
import { createKuzuStore } from "../core/store/kuzu/kuzu-store.ts";
import { withReadCache } from "../core/store/read-cache.ts";
import { fitWeights, measureSet, type FitQuestion, type FitSet } from "./lib/fit-weights.ts";
import { plainLanguageSets } from "./lib/plain-language-fit.ts";
import { ingestIntoKuzu } from "./lib/kuzu-ingest.ts";
import { evaluateRun, percentile, rankedToScores, type Qrels, type Run } from "./lib/metrics.ts";
import { loadObliqaQuestions, loadPassages, loadXrefQuestions, type Question } from "./lib/obliqa-corpus.ts";
import { adaptCorpus } from "./lib/obliqa-sections.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const QA_DIR = path.resolve(here, "../../shared/corpus/qa");
const REGULATORY_DIR = path.resolve(here, "../../shared/corpus/regulatory");
const AUDITOR_FILE = path.join(QA_DIR, "auditor/auditor_dev.jsonl");
const PLAIN_FILE = path.resolve(here, "../test/corpus/plain-questions.jsonl");

const { values } = parseArgs({
  options: {
    dataset: { type: "string", default: "obliqa" },
    split: { type: "string", default: "dev" },
    json: { type: "boolean", default: false },
    limit: { type: "string" },
    fit: { type: "boolean", default: false },
    configs: { type: "string" },
    "model-dir": { type: "string", default: path.join(os.tmpdir(), "clausegraph-bench-models") },
  },
});

const dataset = values.dataset;
const split = values.split;
if ((dataset !== "obliqa" && dataset !== "xrefrag") || (split !== "dev" && split !== "test")) {
  console.error("usage: bench:retrieval -- --dataset obliqa|xrefrag --split dev|test [--json] [--limit N] [--fit]");
  process.exit(2);
}
if (values.fit && split !== "dev") {
  console.error("--fit tunes on the dev split only");
  process.exit(2);
}
const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : Number(values.limit);
const log = (line: string): void => {
  if (values.json) process.stderr.write(`${line}\n`);
  else console.log(line);
};

const ALL_OFF: StageSwitches = { bm25: false, sectionVectors: false, tripletVectors: false, graphExpansion: false, rescore: false };
const CONFIGS: Record<string, StageSwitches | "raw"> = {
  // The store's BM25 with the question as typed: the STACK.md baseline.
  baseline: "raw",
  bm25: { ...ALL_OFF, bm25: true },
  "bm25+vectors": { ...ALL_OFF, bm25: true, sectionVectors: true },
  "+triplets": { ...ALL_OFF, bm25: true, sectionVectors: true, tripletVectors: true },
  "+graph": { ...ALL_OFF, bm25: true, sectionVectors: true, tripletVectors: true, graphExpansion: true },
  "+rescore(no graph)": { ...ALL_OFF, bm25: true, sectionVectors: true, tripletVectors: true, rescore: true },
  full: { bm25: true, sectionVectors: true, tripletVectors: true, graphExpansion: true, rescore: true },
};

// ---- corpus and ingest -------------------------------------------------------------------
const passages = await loadPassages(path.join(QA_DIR, "obliqa/StructuredRegulatoryDocuments.zip"));
const corpus = adaptCorpus(passages);
const uidToKey = new Map<string, string>();
for (const p of passages) for (const uid of p.uids) uidToKey.set(uid, `${p.documentId}|${p.passageId}`);

const questions: Question[] = (
  dataset === "obliqa"
    ? await loadObliqaQuestions(path.join(QA_DIR, `obliqa/ObliQA_${split}.json`))
    : await loadXrefQuestions(path.join(QA_DIR, `xrefrag/XRefRAG-ADGM-ALL-${split}.jsonl`), uidToKey)
).slice(0, limit);
const qrels: Qrels = new Map(questions.map((q) => [q.id, new Map(q.gold.map((k) => [k, 1]))]));
log(`${dataset} ${split}: ${questions.length} questions, ${passages.length} passages in ${corpus.documents.length} documents`);

const workDir = await mkdtemp(path.join(os.tmpdir(), "clausegraph-retrieval-"));
await mkdir(values["model-dir"], { recursive: true });
const kuzu = createKuzuStore({ dbPath: path.join(workDir, "graph.kuzu") });
await kuzu.open();
let embedder: Embedder | null = null;
try {
  const ingestStart = performance.now();
  // The real store, filled through the import stages: BM25, vectors (HNSW-indexed, searched
  // exactly at this size) and rule triplets all come from Kuzu, as in the app.
  embedder = await ensureDefaultEmbedder(values["model-dir"]);
  const figures = await ingestIntoKuzu(kuzu, corpus.documents, embedder, log);
  const ingestSeconds = (performance.now() - ingestStart) / 1000;
  log(
    `ingest ${ingestSeconds.toFixed(1)} s (graph ${figures.deriveSeconds.toFixed(1)} s, embeddings ${figures.embedSeconds.toFixed(1)} s at ` +
      `${figures.embeddedPerSecond.toFixed(0)}/s, store ${figures.storeSeconds.toFixed(1)} s, indexes ${figures.indexSeconds.toFixed(1)} s); ` +
      `${figures.crossReferences} cross-references (${figures.resolvedCrossReferences} resolved), ${figures.terms} terms, ${figures.triplets} triplets`,
  );
  // As in the engine: per-section lookups are served from the read cache once fetched.
  const store: RetrievalStore = withReadCache(kuzu);

  // ---- runs ------------------------------------------------------------------------------
  const keyOf = (sectionId: string): string => corpus.keyOfSection.get(sectionId) ?? sectionId;

  interface ConfigResult {
    recallAt10: number;
    mapAt10: number;
    p50: number;
    p95: number;
    sourceRecallAt10?: number;
    targetRecallAt10?: number;
    bothRecallAt10?: number;
  }

  async function runConfig(name: string, switches: StageSwitches | "raw"): Promise<ConfigResult> {
    const run: Run = new Map();
    const latencies: number[] = [];
    let source = 0;
    let target = 0;
    let both = 0;
    // As the engine does (createEngine's retrievalCaches): what retrieval remembers between
    // questions (stems, contexts, section vectors) is kept for the run, fresh for each configuration.
    // Without it every question started from empty caches, which no user of the app ever does.
    const caches = createRetrievalCaches();
    for (const q of questions) {
      const started = performance.now();
      const ids =
        switches === "raw"
          ? (await kuzu.searchSections(q.text, 10)).map((h) => h.section.id)
          : (await hybridSearch(store, embedder, q.text, { k: 10, stages: switches, caches })).map((r) => r.section.id);
      latencies.push(performance.now() - started);
      const keys = ids.map(keyOf);
      run.set(q.id, rankedToScores(keys));
      if (q.source !== undefined && q.target !== undefined) {
        const s = keys.includes(q.source);
        const t = keys.includes(q.target);
        source += s ? 1 : 0;
        target += t ? 1 : 0;
        both += s && t ? 1 : 0;
      }
    }
    const m = evaluateRun(qrels, run, 10);
    const result: ConfigResult = {
      recallAt10: m.recallAtK,
      mapAt10: m.mapAtK,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
    };
    if (dataset === "xrefrag") {
      const n = Math.max(1, questions.length);
      result.sourceRecallAt10 = source / n;
      result.targetRecallAt10 = target / n;
      result.bothRecallAt10 = both / n;
    }
    log(
      `${name.padEnd(20)} R@10 ${result.recallAt10.toFixed(4)}  MAP@10 ${result.mapAt10.toFixed(4)}  ` +
        `p50 ${result.p50.toFixed(1)} ms  p95 ${result.p95.toFixed(1)} ms` +
        (result.bothRecallAt10 === undefined
          ? ""
          : `  src ${result.sourceRecallAt10?.toFixed(3)} tgt ${result.targetRecallAt10?.toFixed(3)} both ${result.bothRecallAt10.toFixed(3)}`),
    );
    return result;
  }

  if (values.fit) {
    const full = CONFIGS.full;
    if (full === undefined || full === "raw") throw new Error("no full config");
    const obliqaQuestions: FitQuestion[] = [];
    for (const q of questions) {
      const ranked = await hybridSearch(store, embedder, q.text, { k: 1000, stages: full });
      obliqaQuestions.push({ qid: q.id, candidates: ranked.map((r) => ({ id: keyOf(r.section.id), features: r.evidence.features })) });
    }
    // ObliQA dev is a floor with a small share: it must not lose, and the plain-language sets,
    // ten times smaller, lead the fit.
    const obliqa: FitSet = { name: "ObliQA dev", questions: obliqaQuestions, qrels, measure: "recall-map", weight: 0.2, floor: true };
    const plain = existsSync(REGULATORY_DIR)
      ? await plainLanguageSets({
          regulatoryDir: REGULATORY_DIR,
          auditorFile: AUDITOR_FILE,
          plainFile: PLAIN_FILE,
          modelRoot: values["model-dir"],
          embedder,
          stages: full,
          log,
        })
      : null;
    if (plain === null) log(`${REGULATORY_DIR} not found: fitting on ObliQA dev alone`);
    const sets = plain === null ? [obliqa] : [obliqa, plain.labelled, plain.auditorRead, ...(plain.plain === null ? [] : [plain.plain])];
    const names = [...FUSION_FEATURES, ...RESCORE_FEATURES];
    const report = (title: string, weights: Readonly<Record<string, number>>): void => {
      const rows = [...sets, ...(plain === null ? [] : [plain.auditorUnread])].map((s) => {
        const [a, b] = measureSet(s, weights, names);
        return `${s.name} ${s.measure === "recall-map" ? "R@10/MAP@10" : "hit@10/MRR"} ${a.toFixed(3)}/${b.toFixed(3)}`;
      });
      log(`${title}: ${rows.join("; ")}`);
    };
    // Two-fold: fitted on one half of every set, scored on the other: what to expect on new questions.
    const half = (s: FitSet, parity: number): FitSet => ({ ...s, questions: s.questions.filter((_, i) => i % 2 === parity) });
    for (const parity of [0, 1]) {
      const fitted = fitWeights(
        sets.map((s) => half(s, parity)),
        { ...DEFAULT_WEIGHTS },
        names,
        3,
      );
      const other = sets.map((s) => half(s, 1 - parity));
      const rows = other.map((s) => {
        const [a0, b0] = measureSet(s, { ...DEFAULT_WEIGHTS }, names);
        const [a1, b1] = measureSet(s, fitted.weights, names);
        return `${s.name} ${a0.toFixed(3)}/${b0.toFixed(3)} → ${a1.toFixed(3)}/${b1.toFixed(3)}`;
      });
      log(`fitted on half ${parity + 1}, scored on the other (current → fitted): ${rows.join("; ")}`);
    }
    report("current weights", { ...DEFAULT_WEIGHTS });
    const fitted = fitWeights(sets, { ...DEFAULT_WEIGHTS }, names, 3, log);
    report("fitted weights", fitted.weights);
    log(`fitted weights: ${JSON.stringify(fitted.weights)}`);
  }

  const selected = values.configs === undefined ? Object.keys(CONFIGS) : values.configs.split(",");
  const results: Record<string, ConfigResult> = {};
  for (const name of selected) {
    const switches = CONFIGS[name];
    if (switches === undefined) throw new Error(`unknown config ${name}`);
    results[name] = await runConfig(name, switches);
  }

  const headline = results.full ?? Object.values(results).at(-1);
  if (values.json && headline) {
    const configs: Record<string, Omit<ConfigResult, "p50" | "p95">> = {};
    for (const [name, r] of Object.entries(results)) {
      const { p50: _p50, p95: _p95, ...rest } = r;
      configs[name] = rest;
    }
    console.log(
      JSON.stringify({
        dataset,
        split,
        questions: questions.length,
        recallAt10: headline.recallAt10,
        mapAt10: headline.mapAt10,
        ...(headline.sourceRecallAt10 === undefined
          ? {}
          : { sourceRecallAt10: headline.sourceRecallAt10, targetRecallAt10: headline.targetRecallAt10, bothRecallAt10: headline.bothRecallAt10 }),
        configs,
        latencyMs: { p50: headline.p50, p95: headline.p95 },
        ingestSeconds,
      }),
    );
  }
} finally {
  await embedder?.close();
  await kuzu.close();
  await rm(workDir, { recursive: true, force: true });
}
