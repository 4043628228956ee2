// The library bench:compare and the corpus test measure crosswalks on: the five corpus PDFs the
// labelled crosswalks name (DORA, the GDPR, NIST SP 800-171, NIST SP 800-66r1, HIPAA), imported
// once through createEngine into a cache of its own (lib/labelled-library.ts, which keeps only
// the newest library per cache folder: sharing bench:answer's folder would evict its ten-PDF one).
import { mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Engine, ProvisionScope } from "../../core/model/engine-types.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import { COMPARE_PDFS, hitAtK, loadTopicalCrosswalk, nistHipaaCrosswalk, type CompareDocKey, type HitReport, type LabelledPair } from "./compare-labels.ts";
import { openLabelledLibrary, type LabelledLibrary } from "./labelled-library.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REGULATORY_DIR = path.resolve(here, "../../../shared/corpus/regulatory");
export const COMPARE_CACHE_ROOT = path.join(os.tmpdir(), "clausegraph-compare-library");
export const BENCH_MODEL_DIR = path.join(os.tmpdir(), "clausegraph-bench-models");

export async function openCompareLibrary(log: (line: string) => void): Promise<LabelledLibrary> {
  await mkdir(BENCH_MODEL_DIR, { recursive: true });
  const pdfs = Object.values(COMPARE_PDFS).map((f) => path.join(REGULATORY_DIR, f));
  return openLabelledLibrary({ pdfs, modelRoot: BENCH_MODEL_DIR, cacheRoot: COMPARE_CACHE_ROOT, log });
}

export function documentsByKey(documents: readonly DocumentRecord[]): Record<CompareDocKey, DocumentRecord> {
  const out = {} as Record<CompareDocKey, DocumentRecord>;
  for (const [key, file] of Object.entries(COMPARE_PDFS) as Array<[CompareDocKey, string]>) {
    const doc = documents.find((d) => d.fileName === file);
    if (doc === undefined) throw new Error(`${file} is not in the library`);
    out[key] = doc;
  }
  return out;
}

export interface CrosswalkMeasure {
  /** "dora→gdpr". */
  pair: string;
  seconds: number;
  sections: number;
  pairsExamined: number;
  hits: Record<string, HitReport>;
}

export interface LabelledMeasures {
  measures: CrosswalkMeasure[];
  /** hit@3 per labelled set: topical (all, fit, test) and NIST SP 800-66 → HIPAA. */
  topical: HitReport;
  topicalFit: HitReport;
  topicalTest: HitReport;
  nistHipaa: HitReport;
}

function merge(reports: readonly HitReport[]): HitReport {
  const pairs = reports.reduce((n, r) => n + r.pairs, 0);
  const hits = reports.reduce((n, r) => n + r.hits, 0);
  return { pairs, hits, hitAtK: pairs === 0 ? 0 : hits / pairs, misses: reports.flatMap((r) => r.misses) };
}

/** Runs the three labelled crosswalks through the engine (k = 3) and scores them. */
export async function measureLabelledCrosswalks(engine: Engine, k = 3, provisions: ProvisionScope = "operative"): Promise<LabelledMeasures> {
  const docs = documentsByKey(await engine.listDocuments());
  const topical = await loadTopicalCrosswalk();
  const nist = nistHipaaCrosswalk(await engine.getSections(docs.nist66.id));
  const all: LabelledPair[] = [...topical, ...nist];
  const measures: CrosswalkMeasure[] = [];
  const bySplit = new Map<string, HitReport[]>();
  for (const [a, b] of [
    ["dora", "gdpr"],
    ["dora", "nist171"],
    ["nist66", "hipaa"],
  ] as const) {
    const started = performance.now();
    const result = await engine.compareDocuments(docs[a].id, docs[b].id, { k, provisions });
    const seconds = (performance.now() - started) / 1000;
    const crosswalk = await engine.getComparison(result.comparison.id);
    const rows = crosswalk.rows.map((r) => ({ aLabel: r.aLabel, matches: r.matches.map((m) => ({ bLabel: m.bLabel, score: m.score })) }));
    const hits: Record<string, HitReport> = {};
    for (const split of ["fit", "test", "derived"] as const) {
      const pairs = all.filter((p) => p.a === a && p.b === b && p.split === split);
      if (pairs.length === 0) continue;
      hits[split] = hitAtK(rows, pairs, k);
      bySplit.set(split, [...(bySplit.get(split) ?? []), hits[split]]);
    }
    measures.push({ pair: `${a}→${b}`, seconds, sections: crosswalk.rows.length, pairsExamined: result.pairsExamined, hits });
  }
  const topicalFit = merge(bySplit.get("fit") ?? []);
  const topicalTest = merge(bySplit.get("test") ?? []);
  return { measures, topical: merge([topicalFit, topicalTest]), topicalFit, topicalTest, nistHipaa: merge(bySplit.get("derived") ?? []) };
}
