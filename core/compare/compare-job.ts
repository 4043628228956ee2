import type { Embedder } from "../model/embedder.ts";
import type { ProvisionScope } from "../model/engine-types.ts";
import { ClauseGraphError, isClauseGraphError } from "../model/errors.ts";
import { createJobReporter } from "../jobs/job-reporter.ts";
import type { ProgressListener } from "../model/job.ts";
import type { LlmClient } from "../model/llm-client.ts";
import type { ComparisonRecord, SimilarToRecord, VerdictUpdate } from "../model/comparison-records.ts";
import type { GraphStore } from "../store/graph-store.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import { buildCrosswalk } from "./build-crosswalk.ts";
import type { CompareResult, MatchReasons, PairVerdict } from "../model/compare-schemas.ts";
import { summarize } from "./comparison-view.ts";
import { FEATURE_NAMES } from "./crosswalk-features.ts";
import { contributions, MATCH_THRESHOLD, SCORER_VERSION } from "./crosswalk-model.ts";
import { loadCrosswalkInput } from "./crosswalk-inputs.ts";
import type { EnglishStems } from "../text/index.ts";
import { analysePair } from "./pair-analysis.ts";
import { judgePairs, type VerdictPair } from "./pair-verdicts.ts";

// A comparison from start to finish, as one job with one progress stream: read both sides,
// search each A section's neighbours, score, analyse the k best pairs, store them as SIMILAR_TO
// edges (only the rows that changed are rewritten), then, with a model, judge each stored pair.
// Reading and the model run outside the engine's write queue; each store write goes through it.
// A cancel stops at the next step: before the edges are written nothing changed; during the
// verdicts, those made so far are cached and written, and the comparison says "partial".

export const DEFAULT_K = 3;
export const MAX_K = 20;
/** Verdicts are written to their edges in batches, so the view shows them as they come. */
const VERDICT_FLUSH = 20;

export type CompareJobStore = Pick<
  GraphStore,
  | "getDocument"
  | "listDocuments"
  | "getSections"
  | "getSectionsByIds"
  | "getTriplets"
  | "getCrossReferences"
  | "getSectionVectors"
  | "nearestSections"
  | "embeddingSpace"
  | "getComparison"
  | "getComparisonEdges"
  | "startComparison"
  | "writeComparison"
  | "setComparisonVerdicts"
  | "getComparisonCache"
  | "putComparisonCache"
>;

export interface CompareJobDeps {
  store: CompareJobStore;
  embedder: Embedder | null;
  /** With a model, every stored pair gets a verdict. */
  llm: LlmClient | null;
  /** Runs a store write in the engine's write queue. */
  serializeWrite: <T>(work: () => Promise<T>) => Promise<T>;
  log?: (message: string) => void;
  /** The comparisons' stem cache (core/text/stem-porter.ts): stems repeat across every comparison. */
  stems: EnglishStems;
}

export interface CompareJobOptions {
  documentA: DocumentRecord;
  /** null: A against every other document of the library. */
  documentB: DocumentRecord | null;
  k?: number;
  provisions?: ProvisionScope;
  jobId?: string;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Before the model's first call: the k·n pairs, how many the cache answers, how many calls remain. */
  onVerdictPlan?: (plan: { pairs: number; cached: number; modelCalls: number }) => void;
}

export function comparisonId(documentA: string, documentB: string | null): string {
  return `${documentA}~${documentB ?? "library"}`;
}

const round = (x: number): number => Math.round(x * 10_000) / 10_000;

function reasonsJson(reasons: MatchReasons): string {
  return JSON.stringify(reasons);
}

/** What a row's edges say, for telling a changed row from one already stored as it is. */
function rowSignature(edges: readonly SimilarToRecord[]): string {
  return JSON.stringify(
    [...edges]
      .sort((x, y) => x.rank - y.rank)
      .map((e) => [e.bSectionId, e.rank, e.score, e.aHash, e.bHash, e.reasons, e.flags, e.evidence, e.verdict, e.embeddingModel]),
  );
}

// Long function: one comparison job's steps (candidates, scores, obligations, writes, progress) in order.
export async function runComparison(deps: CompareJobDeps, options: CompareJobOptions): Promise<CompareResult> {
  const started = performance.now();
  const { store, serializeWrite, llm } = deps;
  const log = deps.log ?? (() => {});
  const k = Math.max(1, Math.min(MAX_K, Math.floor(options.k ?? DEFAULT_K)));
  const a = options.documentA;
  const subject = `${a.fileName} ↔ ${options.documentB?.fileName ?? "library"}`;
  const job = createJobReporter({
    subject,
    ...(options.jobId === undefined ? {} : { jobId: options.jobId }),
    ...(options.onProgress ? { listener: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const library = await store.listDocuments();
    const b = options.documentB === null ? library.filter((d) => d.id !== a.id) : [options.documentB];
    if (options.documentB !== null && options.documentB.id === a.id) throw new ClauseGraphError("VALIDATION", `${a.fileName} cannot be compared with itself`);
    const space = await store.embeddingSpace();
    job.update("reading", 0, 1);
    const loaded = await loadCrosswalkInput(store, deps.embedder, a, b, {
      k,
      provisions: options.provisions ?? "operative",
      checkpoint: () => job.throwIfCancelled(),
      onNeighbours: (done, total) => job.update("neighbours", done, total),
      stems: deps.stems,
    });
    job.throwIfCancelled();
    job.update("scoring", 0, 1);
    const draft = buildCrosswalk(loaded.input);
    job.update("scoring", 1, 1);

    const id = comparisonId(a.id, options.documentB?.id ?? null);
    const stored = await store.getComparisonEdges(id);
    const storedByPair = new Map(stored.map((e) => [`${e.aSectionId}\u0000${e.bSectionId}`, e]));
    const edges: SimilarToRecord[] = [];
    const total = draft.rows.reduce((n, r) => n + Math.min(k, r.candidates.length), 0);
    let analysed = 0;
    job.update("analysing", 0, total);
    for (const row of draft.rows) {
      job.throwIfCancelled();
      for (const [i, c] of row.candidates.slice(0, k).entries()) {
        const analysis = analysePair(row.a, c.b, deps.stems);
        // Differences are only worth reading between provisions that match: below the threshold
        // the pair is shown as the nearest there is, without flags.
        const flags = c.score >= MATCH_THRESHOLD ? analysis.flags : [];
        const signals = c.signals;
        const contribution = contributions(signals.features);
        const reasons: MatchReasons = {
          similarity: round(signals.cosines.section ?? 0),
          lexical: round(signals.features.lexical),
          heading: round(signals.features.heading),
          sharedTerms: signals.sharedTerms,
          sharedParties: signals.sharedParties,
          sharedWords: signals.sharedWords,
          citation: signals.citation,
          contributions: Object.fromEntries(FEATURE_NAMES.map((f) => [f, round(contribution[f])])),
          foundBy: c.foundBy,
        };
        const previous = storedByPair.get(`${row.a.section.id}\u0000${c.b.section.id}`);
        // A verdict stays with its pair while neither section changed (the model is not asked again).
        const keptVerdict = previous !== undefined && previous.aHash === row.a.contentHash && previous.bHash === c.b.contentHash ? previous.verdict : "";
        edges.push({
          comparisonId: id,
          aSectionId: row.a.section.id,
          bSectionId: c.b.section.id,
          embeddingModel: space?.modelId ?? "",
          rank: i + 1,
          score: round(c.score),
          aHash: row.a.contentHash,
          bHash: c.b.contentHash,
          reasons: reasonsJson(reasons),
          flags: JSON.stringify(flags),
          evidence: JSON.stringify(analysis.evidence),
          verdict: keptVerdict,
        });
        job.update("analysing", ++analysed, total);
      }
    }

    // Only rows whose edges differ from the stored ones are rewritten.
    const groupBy = (list: readonly SimilarToRecord[]): Map<string, SimilarToRecord[]> => {
      const out = new Map<string, SimilarToRecord[]>();
      for (const e of list) out.set(e.aSectionId, [...(out.get(e.aSectionId) ?? []), e]);
      return out;
    };
    const before = groupBy(stored);
    const after = groupBy(edges);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
      (aId) => rowSignature(before.get(aId) ?? []) !== rowSignature(after.get(aId) ?? []),
    );
    const now = new Date().toISOString();
    const existing = await store.getComparison(id);
    let record: ComparisonRecord = {
      id,
      documentId: a.id,
      otherDocumentId: options.documentB?.id ?? "",
      libraryDocuments: b.map((d) => d.id),
      k,
      embeddingModel: space?.modelId ?? "",
      scorerVersion: SCORER_VERSION,
      llmModel: existing?.llmModel ?? "",
      status: "computing",
      sections: draft.rows.length,
      pairsExamined: draft.pairsExamined,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    job.throwIfCancelled();
    job.update("storing", 0, 1);
    await serializeWrite(() => store.startComparison(record));
    record = { ...record, status: "complete" };
    const changedSet = new Set(changed);
    await serializeWrite(() => store.writeComparison({ comparison: record, aSectionIds: changed, edges: edges.filter((e) => changedSet.has(e.aSectionId)) }));
    job.update("storing", 1, 1);
    log(`compared ${subject}: ${draft.rows.length} sections, ${draft.pairsExamined} pairs examined, ${changed.length} rows written`);

    const verdicts = { pairs: 0, cached: 0, modelCalls: 0, failed: 0 };
    if (llm !== null) {
      const profiles = new Map([...loaded.input.a, ...loaded.input.b].map((p) => [p.section.id, p]));
      const pairs: VerdictPair[] = edges.flatMap((e) => {
        const pa = profiles.get(e.aSectionId);
        const pb = profiles.get(e.bSectionId);
        if (pa === undefined || pb === undefined) return [];
        return [
          {
            key: `${e.aSectionId}\u0000${e.bSectionId}`,
            a: { section: pa.section, document: pa.document.title || pa.document.fileName, hash: pa.contentHash, language: pa.language },
            b: { section: pb.section, document: pb.document.title || pb.document.fileName, hash: pb.contentHash },
          },
        ];
      });
      record = { ...record, llmModel: llm.modelId, status: "partial" };
      let pending: VerdictUpdate[] = [];
      const flush = async (): Promise<void> => {
        if (pending.length === 0) return;
        const batch = pending;
        pending = [];
        await serializeWrite(() => store.setComparisonVerdicts(record, batch));
      };
      const edgeOf = new Map(edges.map((e) => [`${e.aSectionId}\u0000${e.bSectionId}`, e]));
      const onVerdict = (key: string, verdict: PairVerdict): void => {
        const edge = edgeOf.get(key);
        const json = JSON.stringify(verdict);
        if (edge === undefined || edge.verdict === json) return;
        edge.verdict = json;
        pending.push({ aSectionId: edge.aSectionId, bSectionId: edge.bSectionId, verdict: json });
      };
      try {
        const summary = await judgePairs(pairs, {
          llm,
          stems: deps.stems,
          cache: { get: (keys) => store.getComparisonCache(keys), put: (entry) => store.putComparisonCache(entry) },
          ...(options.signal ? { signal: options.signal } : {}),
          onPlan: (plan) => {
            log(`verdicts: ${plan.pairs} pairs (k·n), ${plan.cached} from the cache, ${plan.modelCalls} model calls`);
            options.onVerdictPlan?.(plan);
          },
          onProgress: (done, n) => job.update("verdicts", done, n),
          onVerdict: (key, verdict) => {
            onVerdict(key, verdict);
            if (pending.length >= VERDICT_FLUSH) void flush().catch((err: unknown) => log(`verdicts not written yet: ${String(err)}`));
          },
          log,
        });
        Object.assign(verdicts, summary);
        record = { ...record, status: summary.failed > 0 ? "partial" : "complete" };
      } finally {
        // What was judged is written whatever happens next (after the batches already queued); a
        // cancel leaves the comparison "partial".
        const rest = pending;
        pending = [];
        await serializeWrite(() => store.setComparisonVerdicts(record, rest));
      }
    }
    job.finish("done");
    const finalRecord = (await store.getComparison(id)) ?? record;
    return {
      comparison: summarize(finalRecord, await store.listDocuments(), space?.modelId ?? null),
      pairsExamined: draft.pairsExamined,
      rowsWritten: changed.length,
      rowsKept: draft.rows.length - changed.filter((aId) => after.has(aId)).length,
      verdicts,
      seconds: Math.round((performance.now() - started) / 10) / 100,
    };
  } catch (err) {
    const cancelled = options.signal?.aborted === true || (isClauseGraphError(err) && err.code === "CANCELLED");
    job.finish(cancelled ? "cancelled" : "failed", err);
    if (cancelled && !(isClauseGraphError(err) && err.code === "CANCELLED"))
      throw new ClauseGraphError("CANCELLED", "comparison cancelled by the user", { cause: err });
    throw err;
  }
}
