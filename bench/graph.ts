// npm run bench:graph -- [--json] [--verbose] [--model-dir <dir>]
//
// Does the graph earn its place? Over the ten regulatory PDFs of ../shared/corpus/regulatory,
// imported through the real engine into the cached labelled library (lib/labelled-library.ts):
//  - facts: precision of subject, predicate and object on the labelled triplets
//    (test/corpus/graph-triplets-labelled.json, four regulations), entities per section, merges
//    (surface forms, singular/plural and articles, acronyms with their expansions), the share of
//    entity names that are noun phrases, names refused and names empty in the stored library, the
//    time to build the model-free graph per 100 pages;
//  - questions: the structured questions of test/corpus/graph-questions.json asked through
//    engine.ask, the share answered with exactly the expected rows, each row cited.
// Figures only: the corpus tests assert the thresholds.
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { databasePath } from "../core/engine.ts";
import { createKuzuStore } from "../core/store/kuzu/kuzu-store.ts";
import { MIN_ENTITY_NAME_LENGTH } from "../core/model/graph-records.ts";
import { graphFigures } from "./lib/graph-figures.ts";
import { checkGraphAnswer, readGraphQuestions, type GraphQuestionOutcome } from "./lib/graph-questions.ts";
import { openLabelledLibrary, pdfsIn } from "./lib/labelled-library.ts";
import { percentile } from "./lib/metrics.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const REGULATORY_DIR = path.resolve(here, "../../shared/corpus/regulatory");

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    "model-dir": { type: "string", default: path.join(os.tmpdir(), "clausegraph-bench-models") },
  },
});
const log = (line: string): void => {
  if (values.json) process.stderr.write(`${line}\n`);
  else console.log(line);
};
const f3 = (x: number): string => x.toFixed(3);

const pdfs = pdfsIn(REGULATORY_DIR);
const library = await openLabelledLibrary({ pdfs, modelRoot: values["model-dir"], log });
log(`library ${library.dataDir} (${library.imported ? `imported in ${library.importSeconds.toFixed(1)} s` : "cached"})`);

const figures = await graphFigures(library.engine);
const questions = readGraphQuestions();
const outcomes: GraphQuestionOutcome[] = [];
for (const q of questions) {
  const started = performance.now();
  const result = await library.engine.ask(q.question);
  outcomes.push(checkGraphAnswer(q, result, performance.now() - started));
}
await library.engine.close();

// What the import stored (not rebuilt): entity names as the store holds them.
const store = createKuzuStore({ dbPath: databasePath(library.dataDir), minFreeBytes: 0 });
await store.open();
const stored = await store.readOnlyQuery(
  "MATCH (e:Entity) RETURN count(e) AS n, sum(CASE WHEN size(trim(e.name)) < $min THEN 1 ELSE 0 END) AS empty",
  { min: MIN_ENTITY_NAME_LENGTH },
  { timeoutMs: 30_000 },
);
await store.close();
const storedEntities = Number(stored[0]?.n ?? 0);
const storedEmpty = Number(stored[0]?.empty ?? 0);

const exact = outcomes.filter((o) => o.exact).length;
const report = {
  precision: {
    items: figures.precision.items,
    matched: figures.precision.matched,
    subject: figures.precision.subject,
    predicate: figures.precision.predicate,
    object: figures.precision.object,
  },
  totals: figures.totals,
  stored: { entities: storedEntities, emptyNames: storedEmpty },
  documents: figures.documents.map(({ notNounPhrases, ...d }) => ({ ...d, notNounPhrases: notNounPhrases.slice(0, 10) })),
  questions: {
    count: outcomes.length,
    exact,
    accuracy: outcomes.length === 0 ? 0 : exact / outcomes.length,
    uncitedRows: outcomes.reduce((n, o) => n + o.uncited, 0),
    routes: Object.fromEntries(["graph", "both", "text", "none"].map((r) => [r, outcomes.filter((o) => o.route === r).length])),
    p50Ms: percentile(
      outcomes.map((o) => o.ms),
      50,
    ),
    p95Ms: percentile(
      outcomes.map((o) => o.ms),
      95,
    ),
    failed: outcomes.filter((o) => !o.exact),
  },
};

if (values.json) {
  console.log(JSON.stringify(report));
} else {
  const p = figures.precision;
  console.log(
    `\nlabelled triplets: ${p.matched}/${p.items} produced; precision subject ${f3(p.subject)}, predicate ${f3(p.predicate)}, object ${f3(p.object)}`,
  );
  if (values.verbose) {
    for (const s of p.scored) {
      if (!s.found) console.log(`   not produced: [${s.item.file.slice(0, 12)} ${s.item.section}] ${s.item.sentence.slice(0, 90)}`);
      else if (!s.subject || !s.predicate || !s.object) {
        const e = s.extracted;
        console.log(
          `   [${s.item.section}] ${s.subject ? "" : `S "${e?.subject}" ≠ "${s.item.subject[0]}"  `}${s.predicate ? "" : `P "${e?.predicate}" ≠ "${s.item.predicate[0]}"  `}${s.object ? "" : `O "${e?.object}" ≠ "${s.item.object[0]}"`}`,
        );
      }
    }
  }
  console.log(
    "\nper document: pages, sections, triplets, entities, entities per section with facts, noun-phrase share, merged, acronym merges, deadlines, build ms",
  );
  for (const d of figures.documents) {
    console.log(
      `  ${d.file.slice(0, 44).padEnd(44)} ${String(d.pages).padStart(4)} ${String(d.sections).padStart(5)} ${String(d.triplets).padStart(5)} ${String(d.entities).padStart(5)} ${d.entitiesPerSection.toFixed(2).padStart(6)} ${d.nounPhraseShare === null ? "   n/a" : f3(d.nounPhraseShare).padStart(6)} ${String(d.stats.mergedEntities).padStart(4)} ${String(d.stats.acronymMerges).padStart(4)} ${String(d.deadlines).padStart(4)} ${d.buildMs.toFixed(0).padStart(6)}`,
    );
    if (values.verbose && d.notNounPhrases.length > 0)
      console.log(
        `      not noun phrases: ${d.notNounPhrases
          .slice(0, 10)
          .map((n) => JSON.stringify(n))
          .join(", ")}`,
      );
  }
  const t = figures.totals;
  console.log(
    `\nentities: ${t.entities} (${t.mentions} mentions, ${t.refusedMentions} refused, ${t.surfaceForms} surface forms; ${t.mergedEntities} entities merged from several forms, ${t.acronymMerges} with an acronym)`,
  );
  console.log(`entities per section with facts: ${t.entitiesPerSection.toFixed(2)}; noun-phrase share of names: ${f3(t.nounPhraseShare)}`);
  console.log(`empty or 1-character names: built ${t.emptyNames}, stored ${storedEmpty} of ${storedEntities}`);
  console.log(`graph build: ${t.buildMsPer100Pages.toFixed(0)} ms per 100 pages (${t.pages} pages)`);
  console.log(
    `\nstructured questions: ${exact}/${outcomes.length} exact (${f3(report.questions.accuracy)}), uncited rows ${report.questions.uncitedRows}, routes ${JSON.stringify(report.questions.routes)}, ask p50 ${report.questions.p50Ms.toFixed(0)} ms, p95 ${report.questions.p95Ms.toFixed(0)} ms`,
  );
  for (const o of report.questions.failed) {
    console.log(
      `   FAIL [${o.route}] ${o.question}\n      missing ${JSON.stringify(o.missing)}\n      extra   ${JSON.stringify(o.extra)}${o.uncited > 0 ? `\n      uncited ${o.uncited}` : ""}`,
    );
  }
}
