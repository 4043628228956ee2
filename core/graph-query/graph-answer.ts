import { type LanguageResources, type SentenceUnit, sentenceUnits } from "../answer/index.ts";
import type { AskResult, AskSentence } from "../model/answer-types.ts";
import type { AskCitation } from "../model/ask-citation.ts";
import type { QuestionAnalysis } from "../model/question-analysis-types.ts";
import { ClauseGraphError, toErrorInfo } from "../model/errors.ts";
import type { LlmClient } from "../model/llm-client.ts";
import type { GraphStore } from "../store/graph-store.ts";
import type { TripletRecord } from "../model/graph-records.ts";
import { GateRefusal } from "./cypher-gate.ts";
import { evidenceGraph } from "./evidence-graph.ts";
import type { AnswerRoute, GraphRow } from "../model/graph-answer-types.ts";
import { INTENT_NAMES } from "./graph-intent.ts";
import { runIntent, type IntentResult, type QueryRuntime } from "./intent-queries.ts";
import { modelCypher } from "./llm-cypher.ts";
import { modelRows } from "./model-rows.ts";
import { querySchema } from "./query-schema.ts";
import { routeQuestion, type RouteDecision } from "./route-question.ts";
import { rowCitation } from "./row-citation.ts";
import type { Section } from "../model/section-types.ts";

// A question's way through the graph (engine.ask calls it once, beside text retrieval): route it
// (route-question.ts), run the graph query — the engine's parameterised template for a question it
// reads, or a local model's gated Cypher — and hand back either a whole answer (route "graph":
// the rows, a summary, the evidence graph) or what to merge into the text answer (route "both"),
// or, when the graph query fails or finds nothing, the reason the answer falls back to the text.

/** Graph queries stop after this long (the machine is shared; far above the corpus' slowest template). */
export const GRAPH_QUERY_TIMEOUT_MS = 5000;
/** Rows a table shows at most. */
export const MAX_GRAPH_ROWS = 200;

export interface GraphQuestionOptions {
  store: GraphStore;
  llm: LlmClient | null;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRows?: number;
  log?: (message: string) => void;
  /** Sentence splitting: a row cites the whole sentence its fact sits in. Without it, the fact's own span. */
  resources?: LanguageResources;
}

/**
 * Longest sentence a row cites whole: a provision's sentence may run to a thousand characters
 * (sentence-units.ts already cuts run-on lists at semicolons); beyond it, the fact's own span.
 */
const MAX_CITED_SENTENCE = 1200;

/**
 * The sentence holding a row's fact: a citation row's span is the reference ("Article 19"), but
 * what an auditor quotes is the sentence that makes it ("… referred to in Article 19 …").
 */
function sentenceSpan(units: readonly SentenceUnit[], span: { start: number; end: number }): { start: number; end: number } {
  const unit = units.find((u) => u.start <= span.start && span.start < u.end);
  if (unit === undefined) return span;
  const widened = { start: Math.min(unit.start, span.start), end: Math.max(unit.end, span.end) };
  return widened.end - widened.start <= MAX_CITED_SENTENCE ? widened : span;
}

interface GraphFinding {
  result: IntentResult;
  intent: string;
  source: "template" | "model";
  query: string;
  rows: GraphRow[];
}

export interface RoutedQuestion {
  decision: RouteDecision;
  /** The whole answer when the graph answers alone (route "graph" with rows); null otherwise. */
  alone: AskResult | null;
  /** Adds the route, the rows (route "both") and the evidence graph to an answer. */
  finish(answer: AskResult): Promise<AskResult>;
}

function withKeys(rows: readonly GraphRow[], firstKey: number): { rows: GraphRow[]; citations: AskCitation[] } {
  const keys = new Map<string, string>();
  const citations: AskCitation[] = [];
  const keyed = rows.map((row) => {
    const id = `${row.citation.sectionId}\u0000${row.citation.pageStart}`;
    let key = keys.get(id);
    if (key === undefined) {
      key = `S${firstKey + keys.size}`;
      keys.set(id, key);
      citations.push({ ...row.citation, key, ...(row.citation.spans === undefined ? {} : { spans: [...row.citation.spans] }) });
    } else {
      const cited = citations.find((c) => c.key === key);
      if (cited !== undefined && row.citation.spans !== undefined) cited.spans = [...(cited.spans ?? []), ...row.citation.spans];
    }
    return { ...row, citation: { ...row.citation, key } };
  });
  return { rows: keyed, citations };
}

/** One sentence per row, for the answer log, exports and reopened conversations. */
function rowSentences(rows: readonly GraphRow[], more: boolean): AskSentence[] {
  return rows.map((row) => ({
    text: row.cells
      .map((c) => c.value)
      .filter((v) => v !== "")
      .join(" — "),
    citationKeys: [row.citation.key],
    supported: true,
    ...(more ? { more: true } : {}),
  }));
}

async function citeRows(store: GraphStore, result: IntentResult, resources?: LanguageResources): Promise<GraphRow[]> {
  const found = await store.getSectionsByIds([...new Set(result.rows.map((r) => r.sectionId))]);
  const byId = new Map(found.map((f) => [f.section.id, f]));
  // A section's sentences are split once, however many of its rows (a definitions article's dozens) they serve.
  const units = new Map<string, SentenceUnit[]>();
  const unitsOf = (section: Section): SentenceUnit[] => {
    let split = units.get(section.id);
    if (split === undefined) {
      split = resources === undefined ? [] : sentenceUnits(section.text, resources);
      units.set(section.id, split);
    }
    return split;
  };
  return result.rows.flatMap((row) => {
    const f = byId.get(row.sectionId);
    if (f === undefined) return [];
    const span = row.span === undefined ? undefined : sentenceSpan(unitsOf(f.section), row.span);
    return [{ cells: row.cells, citation: rowCitation(f.section, f.document, span) }];
  });
}

export async function routeToGraph(question: string, analysis: QuestionAnalysis, options: GraphQuestionOptions): Promise<RoutedQuestion> {
  const started = performance.now();
  const decision = routeQuestion(question, analysis, options.llm !== null);
  const rt: QueryRuntime = {
    store: options.store,
    schema: querySchema(await options.store.graphSchema()),
    timeoutMs: options.timeoutMs ?? GRAPH_QUERY_TIMEOUT_MS,
    maxRows: options.maxRows ?? MAX_GRAPH_ROWS,
    ran: [],
  };
  let finding: GraphFinding | null = null;
  let fallback: string | undefined;
  if (decision.route !== "text") {
    try {
      if (decision.parsed !== null) {
        const result = await runIntent(rt, decision.parsed.intent);
        finding = {
          result,
          intent: INTENT_NAMES[decision.parsed.intent.kind],
          source: "template",
          query: rt.ran.join("\n"),
          rows: await citeRows(options.store, result, options.resources),
        };
      } else if (decision.askModel && options.llm !== null) {
        const written = await modelCypher(options.llm, rt.schema, question, { maxRows: rt.maxRows, ...(options.signal ? { signal: options.signal } : {}) });
        if (written.gated === null) {
          fallback = `The local model's graph query was not run: ${written.refusal ?? "no query"}${written.written === "" ? "" : ` (it wrote: ${written.written.slice(0, 160)})`}.`;
        } else {
          const result = await modelRows(rt, written.gated);
          finding = {
            result,
            intent: "a query the local model wrote",
            source: "model",
            query: written.gated.cypher,
            rows: await citeRows(options.store, result, options.resources),
          };
        }
      }
    } catch (err) {
      if (err instanceof ClauseGraphError && err.code === "CANCELLED") throw err;
      const why = err instanceof GateRefusal ? err.message : toErrorInfo(err).message;
      options.log?.(`graph query failed: ${why}`);
      fallback = `The graph query failed (${why}).`;
    }
    if (finding !== null && finding.rows.length === 0) {
      fallback = `The graph query found nothing: ${finding.result.summary}`;
    }
  }
  const graphMs = performance.now() - started;
  const usable = finding !== null && finding.rows.length > 0 ? finding : null;

  const route = (kind: AnswerRoute["route"], reason: string): AnswerRoute => {
    const r: AnswerRoute = { route: kind, reason };
    if (finding !== null) {
      r.intent = finding.intent;
      r.source = finding.source;
      r.query = finding.query;
      r.columns = finding.result.columns;
    }
    if (fallback !== undefined) r.fallback = `${fallback} Answered from the text instead.`;
    return r;
  };

  const evidence = async (
    sectionIds: string[],
    spans: Map<string, Array<{ start: number; end: number }>>,
    tripletIds: string[],
  ): Promise<{ subgraph: AskResult["subgraph"]; triplets: TripletRecord[] }> => evidenceGraph(rt, { sectionIds, spans, tripletIds });
  const spansOf = (citations: readonly AskCitation[]): Map<string, Array<{ start: number; end: number }>> => {
    const m = new Map<string, Array<{ start: number; end: number }>>();
    for (const c of citations) m.set(c.sectionId, [...(m.get(c.sectionId) ?? []), ...(c.spans ?? [])]);
    return m;
  };
  const tripletIdsOf = (): string[] => usable?.result.rows.flatMap((r) => (r.tripletId === undefined ? [] : [r.tripletId])) ?? [];

  let alone: AskResult | null = null;
  if (decision.route === "graph" && usable !== null) {
    const { rows, citations } = withKeys(usable.rows, 1);
    const sentences: AskSentence[] = [
      {
        text: usable.result.summary + (usable.result.truncated ? ` The first ${rows.length} are listed.` : ""),
        citationKeys: [],
        supported: true,
        role: "lead",
      },
      ...rowSentences(rows, false),
    ];
    const graph = await evidence([...usable.result.focusSectionIds, ...citations.map((c) => c.sectionId)], spansOf(citations), tripletIdsOf());
    alone = {
      answer: [
        sentences[0]?.text ?? "",
        ...rows.map(
          (r) =>
            `${r.cells
              .map((c) => c.value)
              .filter((v) => v !== "")
              .join(" — ")} [${r.citation.key}]`,
        ),
      ].join("\n"),
      mode: "extractive",
      citations,
      sentences,
      triplets: graph.triplets,
      subgraph: graph.subgraph,
      timings: { retrieveMs: graphMs, promptTokens: 0, firstTokenMs: null, totalMs: performance.now() - started },
      route: route("graph", decision.reason),
      rows,
    };
  }

  return {
    decision,
    alone,
    async finish(answer) {
      // The graph's own answer (labelled with the model by the engine: the same rows).
      if (alone !== null && answer.rows === alone.rows) return answer;
      const refused = answer.citations.length === 0;
      if (decision.route === "both" && usable !== null && !refused) {
        const { rows, citations } = withKeys(usable.rows, answer.citations.length + 1);
        const allCitations = [...answer.citations, ...citations];
        const graph = await evidence(
          allCitations.map((c) => c.sectionId),
          spansOf(allCitations),
          tripletIdsOf(),
        );
        return {
          ...answer,
          citations: allCitations,
          sentences: [...answer.sentences, { text: usable.result.summary, citationKeys: [], supported: true, more: true }, ...rowSentences(rows, true)],
          subgraph: graph.subgraph,
          route: route("both", decision.reason),
          rows,
        };
      }
      // Text: the route says why (and why the graph did not answer, when it was asked); the graph
      // beside the answer is its evidence, or nothing for a refusal.
      const graph = refused
        ? { subgraph: { nodes: [], edges: [] } }
        : await evidence(
            answer.citations.map((c) => c.sectionId),
            spansOf(answer.citations),
            [],
          );
      return { ...answer, subgraph: graph.subgraph, route: route("text", decision.reason) };
    },
  };
}
