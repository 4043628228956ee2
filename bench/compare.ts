// bench:compare — crosswalks between regulations, measured on the corpus PDFs:
//  - the GDPR × DORA crosswalk without a model: seconds, extra memory (peak RSS during the run
//    minus RSS before it, the embedding model already loaded) and candidate pairs examined (≈ k·n);
//  - alignment quality, hit@3, on the topical crosswalk written by reading the PDFs
//    (test/corpus/compare-crosswalk.json; "fit" pairs, "test" pairs) and on the crosswalk NIST
//    SP 800-66r1 states itself (§§ 4.1–4.22 → the HIPAA standard each explains);
//  - with --fit, the crosswalk model's weights fitted on the "fit" pairs (bench/lib/fit-crosswalk.ts),
//    to paste into core/compare/crosswalk-model.ts, with what they give on every set.
// The PDFs are imported once into a cached library (lib/compare-library.ts). Goals: ≤ 10 s and
// ≤ 300 MB extra for GDPR × DORA on 2 cores; hit@3 ≥ 0.9 (NIST → HIPAA) and ≥ 0.7 (topical).
// Usage: npm run bench:compare -- [--json] [--fit] [--verbose] [--provisions operative|all]
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { buildCrosswalk } from "../core/compare/build-crosswalk.ts";
import { FEATURE_NAMES } from "../core/compare/crosswalk-features.ts";
import { loadCrosswalkInput } from "../core/compare/crosswalk-inputs.ts";
import { createEnglishStems } from "../core/text/index.ts";
import { CROSSWALK_MODEL, matchScore, type CrosswalkModel } from "../core/compare/crosswalk-model.ts";
import { databasePath } from "../core/engine.ts";
import { ensureDefaultEmbedder } from "../core/embed/default-embedder.ts";
import { createKuzuStore } from "../core/store/kuzu/kuzu-store.ts";
import { baseLabel, hitAtK, loadTopicalCrosswalk, nistHipaaCrosswalk, type HitReport, type LabelledPair } from "./lib/compare-labels.ts";
import { BENCH_MODEL_DIR, documentsByKey, measureLabelledCrosswalks, openCompareLibrary, REGULATORY_DIR } from "./lib/compare-library.ts";
import { fitCrosswalkModel, type LabelledRow } from "./lib/fit-crosswalk.ts";
import { sampleRss } from "./lib/rss-sampler.ts";

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    fit: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    k: { type: "string", default: "3" },
    // Which provisions are aligned: "operative" as the product does by default, or "all".
    provisions: { type: "string", default: "operative" },
  },
});
const k = Number(values.k);
const provisions = values.provisions === "all" ? "all" : "operative";
const log = (line: string): void => {
  if (values.json) process.stderr.write(`${line}\n`);
  else console.log(line);
};
const mb = (bytes: number): number => Math.round(bytes / 1024 / 1024);
const fmt = (r: HitReport): string => `${r.hits}/${r.pairs} = ${r.hitAtK.toFixed(3)}`;

if (!existsSync(REGULATORY_DIR)) {
  console.error(`bench:compare needs the corpus PDFs in ${REGULATORY_DIR}`);
  process.exit(2);
}

const library = await openCompareLibrary(log);
log(library.imported ? `imported the PDFs in ${library.importSeconds.toFixed(1)} s into ${library.dataDir}` : `library reused from ${library.dataDir}`);
const { engine } = library;
let figures: Record<string, unknown> = {};
try {
  const docs = documentsByKey(await engine.listDocuments());
  // The embedding model loaded first (as in an app that has searched or imported): a search does it.
  await engine.search("incident reporting deadline");
  const id = `${docs.gdpr.id}~${docs.dora.id}`;
  await engine.deleteComparison(id);
  const before = process.memoryUsage.rss();
  const sampler = sampleRss(50);
  const started = performance.now();
  const result = await engine.compareDocuments(docs.gdpr.id, docs.dora.id, { k });
  const seconds = (performance.now() - started) / 1000;
  const peak = sampler.stop().engine;
  const n = result.comparison.sections;
  log(
    `GDPR × DORA (k = ${k}): ${n} sections of the GDPR, ${result.pairsExamined} candidate pairs examined = ${(result.pairsExamined / (k * n)).toFixed(2)} × k·n (k·n = ${k * n}; all pairs: ${n * (await engine.getSections(docs.dora.id)).length})`,
  );
  log(`  ${seconds.toFixed(2)} s; RSS ${mb(before)} MB before, peak ${mb(peak)} MB: +${mb(peak - before)} MB (goals: ≤ 10 s, ≤ 300 MB)`);

  const labelled = await measureLabelledCrosswalks(engine, k, provisions);
  for (const m of labelled.measures) {
    log(
      `${m.pair}: ${m.sections} sections, ${m.pairsExamined} pairs examined, ${m.seconds.toFixed(2)} s; ${Object.entries(m.hits)
        .map(([split, h]) => `${split} ${fmt(h)}`)
        .join(", ")}`,
    );
  }
  log(
    `hit@3 topical (DORA↔GDPR, DORA↔NIST SP 800-171): ${fmt(labelled.topical)} — fit pairs ${fmt(labelled.topicalFit)}, test pairs ${fmt(labelled.topicalTest)} (goal ≥ 0.7)`,
  );
  log(`hit@3 NIST SP 800-66r1 §§ 4.x → HIPAA: ${fmt(labelled.nistHipaa)} (goal ≥ 0.9)`);
  if (values.verbose) {
    for (const miss of [...labelled.topical.misses, ...labelled.nistHipaa.misses])
      log(`  miss (${miss.pair.split}) ${miss.pair.aLabel} → ${miss.pair.bLabel}: top 3 ${miss.got.join(" | ")}`);
  }
  figures = {
    k,
    gdprDora: {
      sections: n,
      pairsExamined: result.pairsExamined,
      pairsPerKn: result.pairsExamined / (k * n),
      seconds,
      rssBeforeMb: mb(before),
      rssPeakMb: mb(peak),
      extraMb: mb(peak - before),
    },
    hitAt3: {
      topical: labelled.topical.hitAtK,
      topicalFit: labelled.topicalFit.hitAtK,
      topicalTest: labelled.topicalTest.hitAtK,
      nistHipaa: labelled.nistHipaa.hitAtK,
    },
    labelledPairs: { topical: labelled.topical.pairs, nistHipaa: labelled.nistHipaa.pairs },
  };
} finally {
  await engine.close();
}

if (values.fit) figures.fit = await fit();
if (values.json) console.log(JSON.stringify(figures));

/** The model fitted on the "fit" pairs, and hit@3 of it on every set, from the same candidates. */
async function fit(): Promise<unknown> {
  const store = createKuzuStore({ dbPath: databasePath(library.dataDir), minFreeBytes: 0 });
  const embedder = await ensureDefaultEmbedder(BENCH_MODEL_DIR);
  await store.open();
  try {
    const docs = documentsByKey(await store.listDocuments());
    const labelled: LabelledPair[] = [...(await loadTopicalCrosswalk()), ...nistHipaaCrosswalk(await store.getSections(docs.nist66.id))];
    // One stem cache for the run, as the engine's comparisons keep one.
    const stems = createEnglishStems();
    const drafts: Array<{ a: string; b: string; input: Awaited<ReturnType<typeof loadCrosswalkInput>>["input"] }> = [];
    const rows: Array<LabelledRow & { pair: LabelledPair }> = [];
    for (const [a, b] of [
      ["dora", "gdpr"],
      ["dora", "nist171"],
      ["nist66", "hipaa"],
    ] as const) {
      const { input } = await loadCrosswalkInput(store, embedder, docs[a], [docs[b]], { k, stems, provisions });
      drafts.push({ a, b, input });
      const draft = buildCrosswalk(input);
      for (const pair of labelled.filter((p) => p.a === a && p.b === b)) {
        for (const row of draft.rows.filter((r) => baseLabel(r.a.section.label) === pair.aLabel)) {
          rows.push({
            id: `${pair.aLabel}→${pair.bLabel}`,
            pair,
            candidates: row.candidates.map((c) => ({ features: c.signals.features, gold: baseLabel(c.b.section.label) === pair.bLabel })),
          });
        }
      }
    }
    const result = fitCrosswalkModel(
      rows.filter((r) => r.pair.split === "fit"),
      { l2: 0.3, exclude: ["terms"], fixed: { citation: CROSSWALK_MODEL.weights.citation } },
    );
    const evaluate = (model: CrosswalkModel): Record<string, HitReport> => {
      const out: Record<string, HitReport[]> = {};
      for (const d of drafts) {
        const draft = buildCrosswalk({ ...d.input, model });
        const crosswalkRows = draft.rows.map((r) => ({
          aLabel: r.a.section.label,
          matches: r.candidates.slice(0, k).map((c) => ({ bLabel: c.b.section.label, score: c.score })),
        }));
        for (const split of ["fit", "test", "derived"]) {
          const pairs = labelled.filter((p) => p.a === d.a && p.b === d.b && p.split === split);
          if (pairs.length > 0) out[split] = [...(out[split] ?? []), hitAtK(crosswalkRows, pairs, k)];
        }
      }
      return Object.fromEntries(
        Object.entries(out).map(([split, list]) => {
          const pairs = list.reduce((t, r) => t + r.pairs, 0);
          const hits = list.reduce((t, r) => t + r.hits, 0);
          return [split, { pairs, hits, hitAtK: pairs === 0 ? 0 : hits / pairs, misses: list.flatMap((r) => r.misses) }];
        }),
      );
    };
    const fitted = evaluate(result.model);
    const current = evaluate(CROSSWALK_MODEL);
    const round = (x: number): number => Math.round(x * 100) / 100;
    log(`fitted on ${rows.filter((r) => r.pair.split === "fit").length} rows of the fit pairs (mean log-likelihood ${result.logLikelihood.toFixed(3)}):`);
    log(`  bias: ${round(result.model.bias)}, weights: { ${FEATURE_NAMES.map((f) => `${f}: ${round(result.model.weights[f])}`).join(", ")} }`);
    for (const [name, report] of [
      ["fitted", fitted],
      ["in crosswalk-model.ts", current],
    ] as const) {
      log(`  ${name}: fit ${fmt(report.fit as HitReport)}, test ${fmt(report.test as HitReport)}, NIST→HIPAA ${fmt(report.derived as HitReport)}`);
    }
    // What each signal adds: the current model without it.
    for (const f of FEATURE_NAMES) {
      if (CROSSWALK_MODEL.weights[f] === 0) continue;
      const without = evaluate({ bias: CROSSWALK_MODEL.bias, weights: { ...CROSSWALK_MODEL.weights, [f]: 0 } });
      log(`  without ${f}: fit ${fmt(without.fit as HitReport)}, test ${fmt(without.test as HitReport)}, NIST→HIPAA ${fmt(without.derived as HitReport)}`);
    }
    // Calibration: the scores of the labelled matches (for MATCH_THRESHOLD).
    const goldScores = rows.flatMap((r) => r.candidates.filter((c) => c.gold).map((c) => matchScore(c.features))).sort((x, y) => x - y);
    const q = (p: number): string => (goldScores[Math.floor(p * (goldScores.length - 1))] ?? 0).toFixed(3);
    log(`  scores of labelled matches (current model): 10th percentile ${q(0.1)}, 25th ${q(0.25)}, median ${q(0.5)}`);
    return { model: result.model, fitted: { fit: fitted.fit?.hitAtK, test: fitted.test?.hitAtK, nistHipaa: fitted.derived?.hitAtK } };
  } finally {
    await embedder.close();
    await store.close();
  }
}
