import {
  analysisScopeNamer,
  ANSWER_CANDIDATES,
  answerHints,
  answerLogRecord,
  answerQuestion,
  type AskPlan,
  asksPerInstrument,
  earlierPartsText,
  fuseRewrites,
  type InstrumentScope,
  instrumentScopes,
  interleave,
  joinAnswers,
  labelAnswer,
  type QueryRewrite,
  type QuestionAnalysis,
  questionReader,
  rankForAnswer,
  retrievalQuery,
  rewriteQuestion,
  unmentionedNames,
} from "../answer/index.ts";
import type { AskOptions } from "../model/engine-types.ts";
import type { AskResult } from "../model/answer-types.ts";
import type { Embedder } from "../model/embedder.ts";
import type { RankedSection } from "../model/retrieval-types.ts";
import type { TripletRecord } from "../model/graph-records.ts";
import type { Subgraph } from "../model/subgraph-types.ts";
import { toErrorInfo } from "../model/errors.ts";
import { appVersion } from "../files/app-version.ts";
import { routeToGraph, type RoutedQuestion } from "../graph-query/graph-answer.ts";
import { recordGraphAnswer } from "../graph-query/graph-answer-log.ts";
import type { ModelLease } from "../llm/model-selection.ts";
import { vocabularyExpansions } from "../retrieve/legal-thesaurus.ts";
import { hybridSearch } from "../retrieve/hybrid-search.ts";
import { buildSubgraph } from "../retrieve/subgraph.ts";
import { ALL_STAGES, type EngineContext } from "./context.ts";
import { readAhead } from "./search.ts";

/**
 * Sections an answer is quoted from unless the caller says otherwise (the CLI's default too):
 * bench:answer swept 8, 10, 12 and 16; 10 held the answering paragraph that 8 left out, and more
 * changed nothing (docs/benchmarks/answers.md).
 */
export const ANSWER_SECTIONS = 10;

/**
 * A question, answered: read once (scope, answer type, names the library lacks), routed to the
 * graph, the text or both, retrieved (per instrument when it compares two), composed from the
 * evidence, then kept in the answer log and, in a conversation, as its next turn.
 */
export async function askQuestion(ctx: EngineContext, question: string, opts: AskOptions = {}): Promise<AskResult> {
  const k = Math.max(1, Math.min(20, Math.floor(opts.k ?? ANSWER_SECTIONS)));
  const names = await ctx.libraryNames();
  // After the names, before the question is read: the reads ahead go on while it is.
  readAhead(ctx);
  const read = questionReader(names, ctx.languageResources);
  // In a conversation a follow-up ("and for microenterprises?") keeps the previous question's scope.
  const plan =
    opts.conversationId === undefined
      ? null
      : await ctx.conversations.plan(opts.conversationId, question, analysisScopeNamer(await ctx.store.listDocuments(), read));
  const asked = plan?.decision.question ?? question;
  const analysis = read(asked);
  const query = retrievalQuery(asked, analysis.answerType, analysis.language);
  // Held for the whole answer, the rewrite before retrieval included: a model switched meanwhile is closed only after it.
  const lease = await ctx.models.acquire(opts.signal);
  try {
    const started = performance.now();
    const routed = await routeToGraph(asked, analysis, {
      store: ctx.store,
      llm: lease.llm,
      log: ctx.log,
      resources: ctx.languageResources,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const evidence = await gatherEvidence(ctx, { asked, query, analysis, read, routed, lease, k, opts });
    opts.onEvidence?.(evidence.ranked);
    const retrieveMs = performance.now() - started;
    const answer = routed.alone ?? (await composeAnswer(ctx, evidence, { asked, query, analysis, plan, lease, retrieveMs, opts }));
    const labelled = {
      ...labelAnswer(answer, { id: lease.model?.id ?? null, name: lease.name, failure: lease.failure }),
      ...(evidence.rewrite === null ? {} : { rewrites: evidence.rewrite }),
    };
    // A copy: the expansions of recent questions are kept for the next read of the same one.
    const expansions = structuredClone([...vocabularyExpansions(query, evidence.senses ?? undefined)]);
    const result = await routed.finish(expansions.length > 0 ? { ...labelled, expansions } : labelled);
    return await keepAnswer(ctx, { question, result, ranked: evidence.ranked, plan, lease });
  } finally {
    lease.release();
  }
}

interface Evidence {
  embedder: Embedder | null;
  rewrite: QueryRewrite | null;
  /** The sections answered from, ranked for answering; per instrument when it asks about two. */
  ranked: RankedSection[];
  parts: Array<{ scope: InstrumentScope; ranked: RankedSection[] }>;
  triplets: TripletRecord[];
  subgraph: Subgraph;
  missingNames: string[];
  /** The instruments whose senses of the question's lay words retrieval kept (null: every sense). */
  senses: ReadonlySet<string> | null;
}

interface EvidenceRequest {
  asked: string;
  query: string;
  analysis: QuestionAnalysis;
  read: (text: string) => QuestionAnalysis;
  routed: RoutedQuestion;
  lease: ModelLease;
  k: number;
  opts: AskOptions;
}

/** Retrieves more sections than are quoted from and re-ranks them for answering (answer-ranking.ts). */
async function gatherEvidence(ctx: EngineContext, req: EvidenceRequest): Promise<Evidence> {
  const { asked, query, analysis, lease, k } = req;
  const embedder = await ctx.getEmbedder();
  // A question about an instrument the library lacks is refused: nothing is retrieved, so no unrelated graph is drawn.
  const lacking = analysis.missingInstruments.length > 0;
  // With a model, the question is also searched in the regulations' words, unless the graph answers it alone.
  const rewrite = lease.llm !== null && req.routed.alone === null && !lacking ? await rewriteQuestion(lease.llm, asked, req.opts.signal) : null;
  let senses: ReadonlySet<string> | null = null;
  const searchIn = (text: string, documentIds: readonly string[]): Promise<RankedSection[]> =>
    ctx.foreground.run(() =>
      hybridSearch(ctx.store, embedder, text, {
        k: Math.max(k, ANSWER_CANDIDATES),
        stages: ALL_STAGES,
        caches: ctx.retrievalCaches,
        ...(documentIds.length > 0 ? { documentIds: [...documentIds] } : {}),
        ...(text === query ? { onSenses: (kept: ReadonlySet<string>) => (senses = new Set([...(senses ?? []), ...kept])) } : {}),
      }),
    );
  const retrieveIn = async (documentIds: readonly string[]): Promise<RankedSection[]> => {
    const own = await searchIn(query, documentIds);
    const others: RankedSection[][] = [];
    for (const q of rewrite?.queries ?? []) others.push(await searchIn(q, documentIds));
    return rankForAnswer(others.length > 0 ? fuseRewrites(own, others) : own, analysis).slice(0, k);
  };
  // A question naming two instruments is answered per instrument (per-instrument.ts).
  const instruments =
    lacking || !asksPerInstrument(asked, analysis.scope.instruments)
      ? []
      : instrumentScopes(analysis.scope.instruments, (name) => req.read(name).scope.documentIds);
  const parts: Evidence["parts"] = [];
  for (const scope of instruments) parts.push({ scope, ranked: await retrieveIn(scope.documentIds) });
  const ranked = lacking
    ? []
    : parts.length > 0
      ? interleave(
          parts.map((p) => p.ranked),
          k * parts.length,
        )
      : await retrieveIn(analysis.scope.documentIds);
  const [triplets, subgraph, missingNames] = await Promise.all([
    ctx.store.getTripletsForSections(ranked.map((r) => r.section.id)),
    buildSubgraph(ctx.store, ranked, { query: asked }),
    // The names the analysis left to a search (registry instruments and the documents' aliases are settled by it).
    unmentionedNames(
      analysis.otherNames,
      async (name, n) =>
        (await ctx.store.searchSections(name, n)).map((h) => ({ text: `${h.document.title}\n${h.section.label} ${h.section.heading}\n${h.section.text}` })),
      ranked.map((r) => `${r.section.heading}\n${r.section.text}`),
    ),
  ]);
  return { embedder, rewrite, ranked, parts, triplets, subgraph, missingNames, senses };
}

interface CompositionRequest {
  asked: string;
  query: string;
  analysis: QuestionAnalysis;
  plan: AskPlan | null;
  lease: ModelLease;
  retrieveMs: number;
  opts: AskOptions;
}

/** The answer from the evidence: one per instrument, joined, when the question compares two. */
async function composeAnswer(ctx: EngineContext, evidence: Evidence, req: CompositionRequest): Promise<AskResult> {
  const { opts, lease } = req;
  const answerFrom = async (results: RankedSection[]): Promise<AskResult> => {
    const ids = new Set(results.map((r) => r.section.id));
    return answerQuestion({
      earlierParts: await earlierPartsText(
        ctx.store,
        results.map((r) => r.section),
      ),
      question: req.asked,
      results,
      triplets: results === evidence.ranked ? evidence.triplets : evidence.triplets.filter((t) => ids.has(t.sectionId)),
      subgraph: evidence.subgraph,
      embedder: evidence.embedder,
      llm: lease.llm,
      retrieveMs: req.retrieveMs,
      missingNames: evidence.missingNames,
      libraryLanguages: await ctx.libraryLanguages(),
      analysis: req.analysis,
      // A follow-up is answered about its own subject, in the previous question's scope.
      hints: opts.hints ?? { ...answerHints(req.analysis), ...(req.plan?.decision.subject === undefined ? {} : { subject: req.plan.decision.subject }) },
      retrievalQuery: req.query,
      resources: ctx.languageResources,
      ...(opts.onToken ? { onToken: opts.onToken } : {}),
      ...(opts.trace ? { trace: opts.trace } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      // The saved caps, or this call's own (`ask --max-tokens / --max-seconds`).
      options: { maxAnswerTokens: opts.maxTokens ?? lease.limits.maxTokens, maxSeconds: opts.maxSeconds ?? lease.limits.maxSeconds },
    });
  };
  if (evidence.parts.length === 0) return answerFrom(evidence.ranked);
  const answered: Array<{ scope: InstrumentScope; result: AskResult }> = [];
  for (const part of evidence.parts) answered.push({ scope: part.scope, result: await answerFrom(part.ranked) });
  return joinAnswers(answered);
}

interface KeptAnswer {
  question: string;
  result: AskResult;
  ranked: RankedSection[];
  plan: AskPlan | null;
  lease: ModelLease;
}

/** Appends the answer to the audit trail and, in a conversation, records it as the next turn. */
async function keepAnswer(ctx: EngineContext, { question, result, ranked, plan, lease }: KeptAnswer): Promise<AskResult> {
  const record = answerLogRecord(
    question.replace(/\s+/g, " ").trim(),
    ranked.map((r) => r.section.id),
    result,
    lease.model,
    new Date(),
    {
      sections: new Map(ranked.map((r) => [r.section.id, { text: r.section.text, documentSha256: r.document.sha256 }])),
      ...(plan?.decision.followUp === true ? { askedAs: plan.decision.question } : {}),
      ...(plan === null ? {} : { conversationId: plan.conversationId }),
      appVersion: appVersion(),
    },
  );
  // A full disk must not take the answer away from the auditor; the failure is reported.
  const logged = await ctx.answerLog.append(record).then(
    () => true,
    (err: unknown) => {
      ctx.log(`answer not logged: ${toErrorInfo(err).message}`);
      return false;
    },
  );
  if (logged && result.route !== undefined)
    await recordGraphAnswer(ctx.dataDir, record.id, result).catch((err: unknown) => ctx.log(`graph answer not kept: ${toErrorInfo(err).message}`));
  const answered = logged ? { ...result, logId: record.id } : result;
  return plan === null ? answered : await ctx.conversations.record(plan, question, answered, logged ? record : null, ctx.log);
}
