// npm run bench:fit-answer -- [--obliqa N] [--rounds R] [--json]
//
// Fits the sentence weights of core/answer/compose/sentence-score.ts: every candidate sentence of every
// question is scored once through engine.ask (its `trace`), then the weights are searched
// (coordinate ascent over a grid of multipliers) for the share of questions whose best eligible
// sentence answers them:
// - the labelled auditor questions (test/corpus/answer-questions.json over ../shared/corpus): a
//   sentence of the answering section that lies in the answering paragraph or carries an operative
//   word;
// - the read part of the auditor dev set (../shared/corpus/qa/auditor/auditor_dev.jsonl; never its
//   unread part, ids divisible by 4): a sentence of the gold PDF carrying most of a gold phrase;
//   our own plain-language set (test/corpus/plain-questions.jsonl, same format) joins it;
// - ObliQA dev (the first N questions, default 600): a sentence of a gold passage.
// The objective is the mean of the shares. The labelled set and the auditor read part are each
// also fitted two-fold (by position parity) and scored on the half the fit did not see: those
// figures, not the fitted ones, are what to expect on unseen questions. Prints the weights as a
// TypeScript object.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { isFurniture } from "../core/answer/compose/answer-cues.ts";
import { BEST_SCORED_ANSWERS, CUED_MIN_COVERAGE } from "../core/answer/compose/extractive-answer.ts";
import type { TracedCandidate } from "../core/model/answer-types.ts";
import { SENTENCE_WEIGHTS, sentenceScore } from "../core/answer/compose/sentence-score.ts";
import { SENTENCE_FEATURES, type SentenceFeatures } from "../core/model/sentence-features.ts";
import { ensureDefaultEmbedder } from "../core/embed/default-embedder.ts";
import { createEngine } from "../core/engine.ts";
import type { Engine } from "../core/model/engine-types.ts";
import { createKuzuStore } from "../core/store/kuzu/kuzu-store.ts";
import { baseLabel, loadAnswerQuestions, normalizeForMatch, paragraphSpan } from "./lib/answer-questions.ts";
import { OUT_OF_DOMAIN, isUnread, loadAuditorDev, normaliseWords, phraseWords } from "./lib/auditor-dev.ts";
import { ingestIntoKuzu } from "./lib/kuzu-ingest.ts";
import { openLabelledLibrary } from "./lib/labelled-library.ts";
import { loadObliqaQuestions, loadPassages } from "./lib/obliqa-corpus.ts";
import { adaptCorpus } from "./lib/obliqa-sections.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const QA_DIR = path.resolve(here, "../../shared/corpus/qa");
const REGULATORY_DIR = path.resolve(here, "../../shared/corpus/regulatory");
const AUDITOR_FILE = path.join(QA_DIR, "auditor/auditor_dev.jsonl");
const PLAIN_FILE = path.resolve(here, "../test/corpus/plain-questions.jsonl");

const { values } = parseArgs({
  options: {
    obliqa: { type: "string", default: "600" },
    rounds: { type: "string", default: "4" },
    "model-dir": { type: "string", default: path.join(os.tmpdir(), "clausegraph-bench-models") },
    json: { type: "boolean", default: false },
    /** Print, for each labelled question missed, the best-scored sentence and the best answering one. */
    misses: { type: "boolean", default: false },
  },
});
const obliqaLimit = Number.parseInt(values.obliqa, 10);
const rounds = Number.parseInt(values.rounds, 10);
const log = (line: string): void => {
  if (!values.json) console.log(line);
};

/** One question's candidates and which of them answer it. */
interface Example {
  id: string;
  candidates: Array<TracedCandidate & { positive: boolean; eligible: boolean; usable: boolean }>;
}

/** Neither furniture nor a word or two: a sentence the answer may quote at all. */
function usable(c: TracedCandidate): boolean {
  const words = c.text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
  return words >= 2 && !isFurniture(c.text);
}

/** What the extractive answer may lead with whatever the weights (extractive-answer.ts `answers`). */
function eligible(c: TracedCandidate): boolean {
  if (!usable(c)) return false;
  return c.relevant || (c.features.coverage >= CUED_MIN_COVERAGE && c.features.cue === 1) || c.features.listCoverage >= 0.3;
}

const mark = (c: TracedCandidate, positive: boolean) => ({ ...c, positive, eligible: eligible(c), usable: usable(c) });

async function traced(engine: Engine, question: string): Promise<TracedCandidate[]> {
  let out: TracedCandidate[] = [];
  await engine.ask(question, { trace: (t) => (out = t.candidates) });
  return out;
}

/** Most of a phrase's words (of 3+ letters) are words of the sentence: the gold phrase may run past it. */
const PHRASE_SHARE = 0.7;
function carriesPhrase(text: string, phrase: string): boolean {
  const words = new Set(normaliseWords(text).split(" "));
  const wanted = phraseWords(phrase);
  const found = wanted.filter((w) => words.has(w)).length;
  return wanted.length > 0 && found >= Math.max(2, PHRASE_SHARE * wanted.length);
}

async function auditorExamples(engine: Engine, file: string): Promise<Example[]> {
  if (!existsSync(file)) return [];
  const docs = await engine.listDocuments();
  const out: Example[] = [];
  for (const q of await loadAuditorDev(file)) {
    if (isUnread(q.id) || q.kind === OUT_OF_DOMAIN || q.file === null) continue;
    const doc = docs.find((d) => d.fileName === q.file);
    const candidates = await traced(engine, q.question);
    out.push({
      id: q.id,
      candidates: candidates.map((c) => mark(c, doc !== undefined && c.documentId === doc.id && q.gold.some((g) => carriesPhrase(c.text, g.phrase)))),
    });
  }
  return out;
}

async function labelledExamples(): Promise<{ labelled: Example[]; auditor: Example[]; plain: Example[] }> {
  const pdfs = (await readdir(REGULATORY_DIR))
    .filter((f) => f.toLowerCase().endsWith(".pdf"))
    .sort()
    .map((f) => path.join(REGULATORY_DIR, f));
  await mkdir(values["model-dir"], { recursive: true });
  const library = await openLabelledLibrary({ pdfs, modelRoot: values["model-dir"], log });
  const questions = await loadAnswerQuestions();
  const out: Example[] = [];
  try {
    const docs = await library.engine.listDocuments();
    for (const q of questions) {
      const doc = docs.find((d) => d.fileName === q.document);
      const candidates = await traced(library.engine, q.question);
      const words = q.operativeWords.map(normalizeForMatch);
      const marked = [];
      for (const c of candidates) {
        let positive = false;
        if (doc !== undefined && c.documentId === doc.id && baseLabel(c.sectionLabel) === q.provision.label) {
          const text = normalizeForMatch(c.text);
          positive = words.some((w) => text.includes(w));
          if (!positive && q.provision.paragraph !== undefined) {
            const section = await library.engine.getSection(c.sectionId);
            const span = section === null ? null : paragraphSpan(section.text, q.provision.paragraph);
            positive = span !== null && c.start >= span.start && c.start < span.end;
          }
          if (!positive && q.provision.paragraph === undefined) positive = words.length === 0;
        }
        marked.push(mark(c, positive));
      }
      out.push({ id: q.id, candidates: marked });
    }
    return { labelled: out, auditor: await auditorExamples(library.engine, AUDITOR_FILE), plain: await auditorExamples(library.engine, PLAIN_FILE) };
  } finally {
    await library.engine.close();
  }
}

async function obliqaExamples(limit: number): Promise<Example[]> {
  if (limit <= 0) return [];
  const passages = await loadPassages(path.join(QA_DIR, "obliqa/StructuredRegulatoryDocuments.zip"));
  const corpus = adaptCorpus(passages);
  const questions = (await loadObliqaQuestions(path.join(QA_DIR, "obliqa/ObliQA_dev.json"))).slice(0, limit);
  const workDir = await mkdtemp(path.join(os.tmpdir(), "clausegraph-fit-"));
  const kuzu = createKuzuStore({ dbPath: path.join(workDir, "graph.kuzu") });
  await kuzu.open();
  const out: Example[] = [];
  let engine: Engine | null = null;
  try {
    const embedder = await ensureDefaultEmbedder(values["model-dir"]);
    await ingestIntoKuzu(kuzu, corpus.documents, embedder, log);
    engine = await createEngine({ dataDir: workDir, store: kuzu, embedder, llm: null });
    for (const q of questions) {
      const gold = new Set(q.gold);
      const candidates = await traced(engine, q.text);
      out.push({
        id: q.id,
        candidates: candidates.map((c) => mark(c, gold.has(corpus.keyOfSection.get(c.sectionId) ?? c.sectionId))),
      });
    }
  } finally {
    await engine?.close();
    await kuzu.close();
    await rm(workDir, { recursive: true, force: true });
  }
  return out;
}

/**
 * Share of examples whose best eligible candidate is positive (examples with no positive at all
 * count as misses). As in extractive-answer.ts, a sentence scoring within BEST_SCORED_ANSWERS of the
 * pool's best is eligible with part of the question's words: which ones are depends on the weights.
 */
function top1(examples: readonly Example[], weights: SentenceFeatures): number {
  if (examples.length === 0) return 0;
  let hits = 0;
  for (const e of examples) {
    const scored = e.candidates.map((c) => ({ c, score: sentenceScore(c.features, c.prior, weights) }));
    const bestScore = Math.max(0, ...scored.filter((x) => !isFurniture(x.c.text)).map((x) => x.score));
    let best: { score: number; positive: boolean } | null = null;
    for (const { c, score } of scored) {
      const open = c.eligible || (c.usable && c.features.coverage >= CUED_MIN_COVERAGE && score >= BEST_SCORED_ANSWERS * bestScore);
      if (!open) continue;
      if (best === null || score > best.score) best = { score, positive: c.positive };
    }
    if (best?.positive === true) hits++;
  }
  return hits / examples.length;
}

const MULTIPLIERS = [0, 0.25, 0.5, 0.75, 0.9, 1.1, 1.35, 1.75, 2.5];
const FLOOR = 0.05;

function fit(objective: (w: SentenceFeatures) => number, start: SentenceFeatures): { weights: SentenceFeatures; value: number } {
  let weights = { ...start };
  let value = objective(weights);
  for (let round = 0; round < rounds; round++) {
    let improved = false;
    // "coverage" stays at 1: the scale of the others is relative to it.
    for (const f of SENTENCE_FEATURES.filter((x) => x !== "coverage")) {
      const current = weights[f];
      const tries = new Set(MULTIPLIERS.map((m) => Number((current === 0 ? FLOOR * m * 4 : current * m).toFixed(4))));
      for (const v of tries) {
        const next = { ...weights, [f]: v };
        const got = objective(next);
        if (got > value + 1e-9) {
          value = got;
          weights = next;
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return { weights, value };
}

const sets = existsSync(REGULATORY_DIR) ? await labelledExamples() : { labelled: [], auditor: [], plain: [] };
const labelled = sets.labelled;
// The plain-language examples: the auditor dev set's read part and ours, one set in the objective.
const auditor = [...sets.auditor, ...sets.plain];
const obliqa = existsSync(QA_DIR) ? await obliqaExamples(obliqaLimit) : [];
log(
  `examples: ${labelled.length} labelled, ${sets.auditor.length} auditor dev (read part) and ${sets.plain.length} plain-language (ours), ${obliqa.length} ObliQA dev`,
);
const reachable = (ex: readonly Example[]): number => ex.filter((e) => e.candidates.some((c) => c.positive && c.eligible)).length;
log(
  `with an answering sentence among the eligible candidates: labelled ${reachable(labelled)}, auditor ${reachable(auditor)}, ObliQA ${reachable(obliqa)} (the ceiling)`,
);
/** The mean share over the sets that have examples. */
const objectiveOf =
  (lab: readonly Example[], aud: readonly Example[]) =>
  (w: SentenceFeatures): number => {
    const sets = [lab, aud, obliqa].filter((x) => x.length > 0);
    return sets.reduce((sum, x) => sum + top1(x, w), 0) / Math.max(1, sets.length);
  };

if (values.misses) {
  const show = (c: TracedCandidate): string =>
    `${sentenceScore(c.features, c.prior).toFixed(3)} p${c.prior} r${c.resultIndex} ${c.sectionLabel} ${Object.entries(c.features)
      .filter(([, v]) => v !== 0)
      .map(([k, v]) => `${k}=${v.toFixed(2)}`)
      .join(" ")} | ${c.text.slice(0, 120)}`;
  for (const e of labelled) {
    const ranked = e.candidates.filter((c) => c.eligible).sort((a, b) => sentenceScore(b.features, b.prior) - sentenceScore(a.features, a.prior));
    if (ranked[0]?.positive === true) continue;
    const pos = ranked.findIndex((c) => c.positive);
    log(`MISS ${e.id} (answering sentence at ${pos < 0 ? "—" : pos + 1})`);
    if (ranked[0] !== undefined) log(`  top:  ${show(ranked[0])}`);
    const p = ranked[pos];
    if (p !== undefined) log(`  gold: ${show(p)}`);
    else {
      const any = e.candidates.find((c) => c.positive);
      log(any === undefined ? "  gold: not in the pool" : `  gold (not eligible): ${show(any)}`);
    }
  }
}
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const shares = (w: SentenceFeatures): string =>
  `labelled ${pct(top1(labelled, w))}, auditor read ${pct(top1(sets.auditor, w))}, plain (ours) ${pct(top1(sets.plain, w))}, ObliQA ${pct(top1(obliqa, w))}`;
log(`current weights top-1: ${shares(SENTENCE_WEIGHTS)}`);
// Two-fold on each question set written for this library: fit on one half (with the other sets
// whole), score the half the fit did not see.
const halves = (x: readonly Example[]): [Example[], Example[]] => [x.filter((_, i) => i % 2 === 0), x.filter((_, i) => i % 2 === 1)];
for (const [name, set] of [
  ["labelled", labelled],
  ["auditor", auditor],
] as const) {
  if (set.length === 0) continue;
  const folds = halves(set);
  let unseen = 0;
  let before = 0;
  for (const [i, train] of folds.entries()) {
    const test = folds[1 - i] ?? [];
    const { weights } = fit(name === "labelled" ? objectiveOf(train, auditor) : objectiveOf(labelled, train), SENTENCE_WEIGHTS);
    unseen += top1(test, weights) * test.length;
    before += top1(test, SENTENCE_WEIGHTS) * test.length;
  }
  log(`cross-validated ${name} top-1: ${pct(unseen / set.length)} (current weights: ${pct(before / set.length)})`);
}
const final = fit(objectiveOf(labelled, auditor), SENTENCE_WEIGHTS);
log(`fitted on everything top-1: ${shares(final.weights)}`);
log(`export const SENTENCE_WEIGHTS: Readonly<SentenceFeatures> = ${JSON.stringify(final.weights, null, 2).replace(/"(\w+)":/g, "$1:")};`);
if (values.json)
  console.log(
    JSON.stringify({
      labelled: labelled.length,
      obliqa: obliqa.length,
      weights: final.weights,
      auditor: auditor.length,
      labelledTop1: top1(labelled, final.weights),
      auditorTop1: top1(auditor, final.weights),
      obliqaTop1: top1(obliqa, final.weights),
    }),
  );
