// npm run bench:answer -- [--set all|obliqa|labelled|auditor|plain] [--split dev|test] [--limit N] [--json] [--verbose] [--tokenizer <gguf>]
//
// Answering without a model (extractive mode), through the real engine (Kuzu store, hybrid
// retrieval, engine.ask with its answer log), on three sets:
//
// Labelled auditor questions (test/corpus/answer-questions.json; run when ../shared/corpus exists):
// the ten regulatory PDFs imported with createEngine into a library cached under os.tmpdir()
// (lib/labelled-library.ts), each question labelled with the provision that answers it and its
// operative words. Printed: share of answers containing all (and at least half) of the operative
// words, share citing the answering provision and paragraph, share whose lead sentence carries
// them, share refused, mean answer words, ask latency p50/p95 (lib/labelled-answers.ts).
//
// Auditor dev set (../shared/corpus/qa/auditor/auditor_dev.jsonl; run when the corpus exists): 80
// auditor-phrased questions over the same library, each with gold pages and a phrase copied from
// them, and 8 out-of-domain ones. Printed for all, the read part and the unread part (ids divisible
// by 4, reported as totals only) side by side: gold phrase shown / anywhere, gold page cited,
// refusals, lead answered from another document, words shown, latency, search hit@10; all by
// document too (lib/auditor-dev.ts).
//
// ObliQA (the ADGM passage corpus):
// - gold citation rate: share of answered ObliQA questions whose citations include a gold passage;
// - resolvable citations: share of citations whose section exists and whose pages lie in it;
// - out-of-domain refusal: share of unanswerable questions (EmPULIA-QA's Italian procurement
//   questions and the hand-written list in lib/ood-questions.ts) that get the not-answered reply;
// - context size: tokens of the compact context built for a model (context-builder.ts) against the
//   plain context of the top-10 sections' full text, with the gold-passage recall of each.
// Figures, not assertions: nothing here is a test. Tune on dev, report test.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { buildLlmContext, LLM_CONTEXT_TOKENS } from "../core/answer/compose/answer-question.ts";
import { REFUSAL, type AskResult } from "../core/model/answer-types.ts";
import { readAnswerLog } from "../core/answer/history/answer-log.ts";
import { buildSentencePool } from "../core/answer/compose/sentence-pool.ts";
import { createLanguageResources } from "../core/answer/language-resources.ts";
import { ensureDefaultEmbedder } from "../core/embed/default-embedder.ts";
import type { Embedder } from "../core/model/embedder.ts";
import { createEngine } from "../core/engine.ts";
import type { Engine } from "../core/model/engine-types.ts";
import type { LlmClient } from "../core/model/llm-client.ts";
import { hybridSearch } from "../core/retrieve/hybrid-search.ts";
import type { RankedSection } from "../core/model/retrieval-types.ts";
import { ALL_STAGES } from "../core/usecases/index.ts";
import { createKuzuStore } from "../core/store/kuzu/kuzu-store.ts";
import { loadAnswerQuestions } from "./lib/answer-questions.ts";
import { askAuditor, auditorFigures, auditorLine, loadAuditorDev, printAuditor, type AuditorFigures, type AuditorOutcome } from "./lib/auditor-dev.ts";
import { APPROX_TOKENIZER, approxTokens, plainContext } from "./lib/context-tokens.ts";
import { loadEmpuliaQuestions } from "./lib/empulia-questions.ts";
import { ingestIntoKuzu } from "./lib/kuzu-ingest.ts";
import { askLabelled, labelledFigures, outcomeLine, printLabelled, type LabelledFigures } from "./lib/labelled-answers.ts";
import { openLabelledLibrary, pdfsIn } from "./lib/labelled-library.ts";
import { percentile } from "./lib/metrics.ts";
import { loadObliqaQuestions, loadPassages, type Question } from "./lib/obliqa-corpus.ts";
import { adaptCorpus } from "./lib/obliqa-sections.ts";
import { OOD_QUESTIONS } from "./lib/ood-questions.ts";
import { CURVE_THRESHOLDS, curveLines, decisionPoint, refusalCurve, type DecisionPoint } from "./lib/refusal-curve.ts";
import { IN_LIBRARY_MODEL, REFUSE_BELOW } from "../core/answer/compose/in-library.ts";
import { ANSWER_SECTIONS } from "../core/usecases/ask.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const QA_DIR = path.resolve(here, "../../shared/corpus/qa");
const REGULATORY_DIR = path.resolve(here, "../../shared/corpus/regulatory");
const AUDITOR_DEV_FILE = path.join(QA_DIR, "auditor/auditor_dev.jsonl");
/** Our own plain-language questions, in the auditor dev set's format (with an unread part of their own). */
const PLAIN_FILE = path.resolve(here, "../test/corpus/plain-questions.jsonl");

const { values } = parseArgs({
  options: {
    /** all (default): the labelled questions, the auditor dev set and our plain-language set when the corpus is there, then ObliQA; auditor: auditor dev and our plain set. */
    set: { type: "string", default: "all" },
    split: { type: "string", default: "dev" },
    json: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    limit: { type: "string" },
    tokenizer: { type: "string" },
    /** Exploring only (dev): sentences per section in the model's context, instead of the engine's setting. */
    "units-per-block": { type: "string" },
    "model-dir": { type: "string", default: path.join(os.tmpdir(), "clausegraph-bench-models") },
  },
});

const USAGE = "usage: bench:answer -- [--set all|obliqa|labelled|auditor|plain] [--split dev|test] [--limit N] [--json] [--verbose] [--tokenizer <gguf>]";
const split = values.split;
if (split !== "dev" && split !== "test") {
  console.error(USAGE);
  process.exit(2);
}
const set = values.set;
if (set !== "all" && set !== "obliqa" && set !== "labelled" && set !== "auditor" && set !== "plain") {
  console.error(USAGE);
  process.exit(2);
}
const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : Number(values.limit);
if (!(limit > 0)) {
  console.error("--limit must be a positive number");
  process.exit(2);
}
const unitsPerBlock = values["units-per-block"] === undefined ? undefined : Number(values["units-per-block"]);
const log = (line: string): void => {
  if (values.json) process.stderr.write(`${line}\n`);
  else console.log(line);
};

const PLAIN_K = 10;

function refused(result: AskResult): boolean {
  return result.citations.length === 0 && result.sentences.every((s) => s.text === REFUSAL);
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);
const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** Refusals per threshold of the fitted decision (core/answer/compose/in-library.ts), the fitted one marked. */
function printCurve(name: string, points: readonly DecisionPoint[]): void {
  const thresholds = [...new Set([...CURVE_THRESHOLDS, REFUSE_BELOW])].sort((a, b) => a - b);
  log(`refusal curve, ${name} (refused per threshold of the fitted decision; bench:fit-refusal fits it)`);
  for (const line of curveLines(refusalCurve(points, IN_LIBRARY_MODEL, thresholds), REFUSE_BELOW)) log(line);
}

// ---- labelled auditor questions over the ten corpus PDFs -----------------------------------
async function runLabelled(): Promise<LabelledFigures> {
  const questions = (await loadAnswerQuestions()).slice(0, limit);
  const pdfs = (await readdir(REGULATORY_DIR))
    .filter((f) => f.toLowerCase().endsWith(".pdf"))
    .sort()
    .map((f) => path.join(REGULATORY_DIR, f));
  const missing = [...new Set(questions.map((q) => q.document))].filter((d) => !pdfs.some((p) => path.basename(p) === d));
  if (missing.length > 0) throw new Error(`labelled questions name PDFs not in ${REGULATORY_DIR}: ${missing.join(", ")}`);
  log(`labelled questions: ${questions.length} over ${pdfs.length} PDFs in ${REGULATORY_DIR}`);
  await mkdir(values["model-dir"], { recursive: true });
  const library = await openLabelledLibrary({ pdfs, modelRoot: values["model-dir"], log });
  log(library.imported ? `imported in ${library.importSeconds.toFixed(1)} s into ${library.dataDir}` : `library reused from ${library.dataDir}`);
  try {
    const outcomes = await askLabelled(library.engine, questions, values.verbose ? (o) => log(outcomeLine(o)) : undefined);
    const figures = labelledFigures(outcomes);
    printLabelled(figures, outcomes, log);
    printCurve(
      "labelled",
      outcomes.map((o) => o.decision),
    );
    return figures;
  } finally {
    await library.engine.close();
  }
}

// ---- auditor dev set over the same library ---------------------------------------------------
async function runAuditor(file: string, title: string): Promise<AuditorFigures> {
  const all = await loadAuditorDev(file);
  const questions = all.slice(0, limit);
  const pdfs = pdfsIn(REGULATORY_DIR);
  log(`${title}: ${questions.length} of ${all.length} questions over ${pdfs.length} PDFs in ${REGULATORY_DIR}`);
  await mkdir(values["model-dir"], { recursive: true });
  const library = await openLabelledLibrary({ pdfs, modelRoot: values["model-dir"], log });
  log(library.imported ? `imported in ${library.importSeconds.toFixed(1)} s into ${library.dataDir}` : `library reused from ${library.dataDir}`);
  try {
    // auditorLine gives null for the unread part, and askAuditor only reports the read part.
    const onRead = values.verbose
      ? (o: AuditorOutcome) => {
          const line = auditorLine(o);
          if (line !== null) log(line);
        }
      : undefined;
    const outcomes = await askAuditor(library.engine, questions, onRead);
    const figures = auditorFigures(path.relative(process.cwd(), file), all.length, outcomes);
    printAuditor(figures, log, title);
    printCurve(
      title,
      outcomes.map((o) => o.decision),
    );
    return figures;
  } finally {
    await library.engine.close();
  }
}

// ---- ObliQA ------------------------------------------------------------------------------
async function runObliqa() {
  // ---- corpus and ingest -----------------------------------------------------------------
  const passages = await loadPassages(path.join(QA_DIR, "obliqa/StructuredRegulatoryDocuments.zip"));
  const corpus = adaptCorpus(passages);
  const questions: Question[] = (await loadObliqaQuestions(path.join(QA_DIR, `obliqa/ObliQA_${split}.json`))).slice(0, limit);
  const empulia = await loadEmpuliaQuestions(path.join(QA_DIR, "empulia_qa/EmPULIA-QA.json"));
  const ood = [
    ...OOD_QUESTIONS.map((q) => ({ regime: q.regime, text: q.text })),
    ...empulia.map((text) => ({ regime: "EmPULIA-QA (Italian procurement)", text })),
  ];
  log(`ObliQA ${split}: ${questions.length} questions over ${passages.length} passages; ${ood.length} out-of-domain questions`);

  const workDir = await mkdtemp(path.join(os.tmpdir(), "clausegraph-answer-"));
  await mkdir(values["model-dir"], { recursive: true });
  const kuzu = createKuzuStore({ dbPath: path.join(workDir, "graph.kuzu") });
  await kuzu.open();
  let embedder: Embedder | null = null;
  let engine: Engine | null = null;
  let tokenizer: LlmClient | null = null;
  // The compact contexts below cut sentences with pipelines of their own, as an engine would.
  const resources = createLanguageResources();
  try {
    const ingestStart = performance.now();
    embedder = await ensureDefaultEmbedder(values["model-dir"]);
    await ingestIntoKuzu(kuzu, corpus.documents, embedder, log);
    log(`ingest ${((performance.now() - ingestStart) / 1000).toFixed(1)} s`);
    // The engine over the filled store, as the app runs it: no model, so answers are extractive.
    engine = await createEngine({ dataDir: workDir, store: kuzu, embedder, llm: null });

    let countTokens = approxTokens;
    let tokenizerName = APPROX_TOKENIZER;
    if (values.tokenizer !== undefined) {
      const { loadLlm } = await import("../core/llm/load-llm.ts");
      const loaded = await loadLlm({ modelPath: values.tokenizer, threads: 1, contextSize: 512 });
      tokenizer = loaded;
      countTokens = (text) => loaded.countTokens(text);
      tokenizerName = `${loaded.modelId}'s tokenizer`;
    }

    // ---- ObliQA: extractive answers and context sizes --------------------------------------
    const keyOf = (sectionId: string): string => corpus.keyOfSection.get(sectionId) ?? sectionId;
    let answered = 0;
    let goldCited = 0;
    /** Answered questions with a gold passage among the retrieved evidence: the ceiling of citing one. */
    let goldInEvidence = 0;
    /** Best gold rank (1-based, in the evidence) of answered questions that cite no gold passage though one was retrieved. */
    const missedRanks: number[] = [];
    let citations = 0;
    let resolvable = 0;
    const askMs: number[] = [];
    const ratios: number[] = [];
    const ratiosEqualRecall: number[] = [];
    const compactRecall: number[] = [];
    const plainRecall: number[] = [];
    const compactTokens: number[] = [];
    const plainTokens: number[] = [];
    /** Every question as the refusal decision saw it, in-domain and out, for the curve. */
    const points: DecisionPoint[] = [];
    const started = performance.now();
    for (const [i, q] of questions.entries()) {
      const gold = new Set(q.gold);
      const t = performance.now();
      // The evidence is what the ask itself answered from (its scope, rewrites and answer ranking).
      let evidence: readonly RankedSection[] = [];
      const result = await engine.ask(q.text, { onEvidence: (sections) => (evidence = sections) });
      points.push(decisionPoint(`obliqa ${split}`, true, result, IN_LIBRARY_MODEL, REFUSE_BELOW));
      askMs.push(performance.now() - t);
      // The plain baseline a model would otherwise read: the search's top sections as they come.
      const ranked = await hybridSearch(kuzu, embedder, q.text, { k: PLAIN_K, stages: ALL_STAGES });
      const goldRank = evidence.findIndex((r) => gold.has(keyOf(r.section.id))) + 1;
      if (!refused(result)) {
        answered++;
        const cites = result.citations.some((c) => gold.has(keyOf(c.sectionId)));
        if (cites) goldCited++;
        if (goldRank > 0) {
          goldInEvidence++;
          if (!cites) missedRanks.push(goldRank);
        }
      }
      for (const c of result.citations) {
        citations++;
        const section = await engine.getSection(c.sectionId);
        if (
          section !== null &&
          section.documentId === c.documentId &&
          c.pageStart >= section.pageStart &&
          c.pageEnd <= section.pageEnd &&
          c.pageStart <= c.pageEnd &&
          c.pageStart >= 1
        ) {
          resolvable++;
        }
      }

      // The compact context a model would read for this question vs the plain top-10 context.
      const triplets = await kuzu.getTripletsForSections(evidence.map((r) => r.section.id));
      const pool = await buildSentencePool(q.text.replace(/\s+/g, " ").trim(), evidence, triplets, embedder, resources);
      const compact = buildLlmContext(pool, LLM_CONTEXT_TOKENS, countTokens, unitsPerBlock);
      const plain = plainContext(ranked);
      const cTokens = compact.text === "" ? 0 : countTokens(compact.text);
      const pTokens = countTokens(plain);
      const recallOf = (ids: readonly string[]): number => ratio(new Set(ids.map(keyOf).filter((k) => gold.has(k))).size, gold.size);
      const cRecall = recallOf(compact.blocks.map((b) => b.result.section.id));
      const pRecall = recallOf(ranked.map((r) => r.section.id));
      compactRecall.push(cRecall);
      plainRecall.push(pRecall);
      compactTokens.push(cTokens);
      plainTokens.push(pTokens);
      const r = ratio(cTokens, pTokens);
      ratios.push(r);
      if (cRecall === pRecall && pRecall > 0) ratiosEqualRecall.push(r);
      if (values.verbose) {
        log(
          `${q.id.slice(0, 8)} ${refused(result) ? "refused " : "answered"} gold-cited=${result.citations.some((c) => gold.has(keyOf(c.sectionId))) ? "y" : "n"} ` +
            `context ${cTokens}/${pTokens} tokens (${pct(r)}) recall ${cRecall.toFixed(2)}/${pRecall.toFixed(2)}`,
        );
        // A miss, read as an auditor would: what was asked, what led, what the gold passage says.
        if (!refused(result) && !result.citations.some((c) => gold.has(keyOf(c.sectionId)))) {
          log(`    Q: ${q.text.replace(/\s+/g, " ").slice(0, 200)}`);
          log(`    led: ${(result.sentences[0]?.text ?? "").slice(0, 160)} [${result.citations.map((c) => keyOf(c.sectionId)).join(", ")}]`);
          log(`    gold (evidence rank ${goldRank || "-"}): ${[...gold].join(", ")}`);
        }
      } else if ((i + 1) % 200 === 0) {
        log(`  ${i + 1}/${questions.length} questions (${((performance.now() - started) / (i + 1)).toFixed(0)} ms each)`);
      }
    }

    // ---- out of domain -------------------------------------------------------------------
    let oodRefused = 0;
    const oodMisses: string[] = [];
    for (const q of ood) {
      const result = await engine.ask(q.text);
      points.push(decisionPoint(`obliqa ${split}`, false, result, IN_LIBRARY_MODEL, REFUSE_BELOW));
      if (refused(result)) oodRefused++;
      else oodMisses.push(`[${q.regime}] ${q.text} → ${result.citations.map((c) => c.label).join(", ")}`);
      if (values.verbose) log(`OOD ${refused(result) ? "refused " : "ANSWERED"} [${q.regime}] ${q.text}`);
    }

    // Every ask above went through the engine's answer log.
    const logged = (await readAnswerLog(workDir, { limit: 1_000_000 })).length;

    const figures = {
      split,
      questions: questions.length,
      answeredShare: ratio(answered, questions.length),
      goldCitationRate: ratio(goldCited, answered),
      goldInEvidenceRate: ratio(goldInEvidence, answered),
      citations,
      resolvableCitationRate: ratio(resolvable, citations),
      ood: { questions: ood.length, refused: oodRefused, refusalRate: ratio(oodRefused, ood.length) },
      context: {
        tokenizer: tokenizerName,
        budgetTokens: LLM_CONTEXT_TOKENS,
        unitsPerBlock: unitsPerBlock ?? null,
        compactTokensMean: mean(compactTokens),
        plainTokensMean: mean(plainTokens),
        ratioMedian: percentile(ratios, 50),
        ratioMean: mean(ratios),
        ratioOfMeans: ratio(mean(compactTokens), mean(plainTokens)),
        equalRecallQuestions: ratiosEqualRecall.length,
        ratioMedianAtEqualRecall: percentile(ratiosEqualRecall, 50),
        ratioMeanAtEqualRecall: mean(ratiosEqualRecall),
        compactRecall: mean(compactRecall),
        plainRecall: mean(plainRecall),
      },
      askMs: { p50: percentile(askMs, 50), p95: percentile(askMs, 95) },
      answerLogRecords: logged,
    };

    log("");
    log(`extractive answers on ObliQA ${split} (${questions.length} questions)`);
    log(`  answered                         ${pct(figures.answeredShare)} (${answered})`);
    log(`  answered citing a gold passage   ${pct(figures.goldCitationRate)} (goal ≥ 85%)`);
    log(`  answered with a gold passage among the ${ANSWER_SECTIONS} retrieved ${pct(figures.goldInEvidenceRate)} (the ceiling of the line above)`);
    const rankCounts = new Map<number, number>();
    for (const r of missedRanks) rankCounts.set(r, (rankCounts.get(r) ?? 0) + 1);
    log(
      `    retrieved but not cited, by gold rank: ${[...rankCounts.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([r, n]) => `#${r}: ${n}`)
        .join(", ")}`,
    );
    log(`  citations resolving to section+page ${pct(figures.resolvableCitationRate)} of ${citations} (goal 100%)`);
    log(`  out-of-domain refusal            ${pct(figures.ood.refusalRate)} (${oodRefused}/${ood.length}, goal ≥ 95%)`);
    for (const miss of oodMisses) log(`    answered: ${miss}`);
    log(
      `context for a model (${tokenizerName}; budget ${LLM_CONTEXT_TOKENS}${unitsPerBlock === undefined ? "" : `, at most ${unitsPerBlock} sentences a section`})`,
    );
    log(`  compact ${figures.context.compactTokensMean.toFixed(0)} vs plain top-${PLAIN_K} ${figures.context.plainTokensMean.toFixed(0)} tokens on average`);
    log(
      `  ratio median ${pct(figures.context.ratioMedian)}, mean ${pct(figures.context.ratioMean)}, of means ${pct(figures.context.ratioOfMeans)} (goal ≤ 20%)`,
    );
    log(
      `  at equal evidence recall (${ratiosEqualRecall.length} questions): median ${pct(figures.context.ratioMedianAtEqualRecall)}, mean ${pct(figures.context.ratioMeanAtEqualRecall)}`,
    );
    log(`  gold-passage recall: compact ${figures.context.compactRecall.toFixed(3)}, plain ${figures.context.plainRecall.toFixed(3)}`);
    log(`ask latency p50 ${figures.askMs.p50.toFixed(0)} ms, p95 ${figures.askMs.p95.toFixed(0)} ms; ${logged} records in the answer log`);
    printCurve(`ObliQA ${split}`, points);
    return figures;
  } finally {
    await tokenizer?.close();
    if (engine) await engine.close();
    else await kuzu.close();
    await embedder?.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

const labelledRuns = (set === "all" || set === "labelled") && existsSync(REGULATORY_DIR);
if (set === "labelled" && !labelledRuns) {
  console.error(`${REGULATORY_DIR} not found: the labelled questions need the shared corpus`);
  process.exit(2);
}
if (set === "all" && !labelledRuns) log(`${REGULATORY_DIR} not found: labelled questions skipped`);
const auditorRuns = (set === "all" || set === "auditor") && existsSync(REGULATORY_DIR) && existsSync(AUDITOR_DEV_FILE);
if (set === "auditor" && !auditorRuns) {
  console.error(`${REGULATORY_DIR} or ${AUDITOR_DEV_FILE} not found: the auditor dev set needs the shared corpus`);
  process.exit(2);
}
if (set === "all" && !auditorRuns) log(`${REGULATORY_DIR} or ${AUDITOR_DEV_FILE} not found: auditor dev set skipped`);
const labelled = labelledRuns ? await runLabelled() : undefined;
const auditor = auditorRuns ? await runAuditor(AUDITOR_DEV_FILE, "auditor dev") : undefined;
const plainRuns = (set === "all" || set === "auditor" || set === "plain") && existsSync(REGULATORY_DIR) && existsSync(PLAIN_FILE);
const plain = plainRuns ? await runAuditor(PLAIN_FILE, "plain-language (ours)") : undefined;
const obliqa = set === "all" || set === "obliqa" ? await runObliqa() : undefined;
// One JSON line: ObliQA's figures at the top level as before, the labelled set's under "labelled", the auditor dev set's under "auditor", ours under "plain".
if (values.json)
  console.log(
    JSON.stringify({
      ...obliqa,
      ...(labelled === undefined ? {} : { labelled }),
      ...(auditor === undefined ? {} : { auditor }),
      ...(plain === undefined ? {} : { plain }),
    }),
  );
