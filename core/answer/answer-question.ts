import { ClauseGraphError, isClauseGraphError } from "../errors.ts";
import type { LlmClient, LlmResult } from "../llm/llm-client.ts";
import { REFUSAL, type AnswerMode, type AskInput, type AskResult, type AskSentence } from "./answer-types.ts";
import { buildContext, estimateTokens, type AnswerContext, type TokenCounter } from "./context-builder.ts";
import { DEFAULT_MAX_SENTENCES, extractiveDrafts } from "./extractive-answer.ts";
import { narrowCitation } from "./narrow-citation.ts";
import { draftSentences, keysIn, parseModelOutput } from "./parse-llm-output.ts";
import { SYSTEM_PROMPT, userPrompt } from "./prompt.ts";
import { buildSentencePool, throwIfAborted, type SentencePool } from "./sentence-pool.ts";
import { formatAnswer, verifySentences } from "./verify-citations.ts";

// Answering a question from sections already retrieved: with a model, a cited answer it writes
// from a compact context; without one (or when what it wrote cites nothing we gave it), sentences
// quoted from that context. Either way every sentence is verified against what it cites.

/** Context for quoting without a model. */
const EXTRACTIVE_CONTEXT_TOKENS = 1800;
/** Context for a model: more costs prompt time on a CPU and rarely adds evidence (bench:answer measures it). */
export const LLM_CONTEXT_TOKENS = 3000;
/** Below this there is no room for even one quoted sentence with its header. */
const MIN_CONTEXT_TOKENS = 48;
/** Chat-template tokens (role markers, BOS) countTokens does not see. */
const TEMPLATE_SLACK = 64;
const MAX_QUESTION_CHARS = 2000;

const NOTE_CONTEXT_TOO_SMALL = "The model's context window is too small for the sources, so the answer is quoted from the documents.";
const NOTE_NO_CITATIONS = "The model's answer cited none of the sources, so it is not shown; the sentences are quoted from the documents instead.";

/** Why a question about a document that was not imported gets no answer. */
function notInLibrary(names: readonly string[]): string {
  const quoted = names.slice(0, 3).map((n) => `“${n}”`);
  const list = quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1) ?? ""}`;
  return `None of the imported documents mentions ${list}; import the document that does to ask about it.`;
}

interface Outcome {
  sentences: AskSentence[];
  context: AnswerContext;
  mode: AnswerMode;
  analysis?: string;
  promptTokens: number;
  firstTokenMs: number | null;
}

function refusalSentences(): AskSentence[] {
  return [{ text: REFUSAL, citationKeys: [], supported: true }];
}

function finish(input: AskInput, outcome: Outcome, started: number): AskResult {
  const sentences = outcome.sentences.length === 0 ? refusalSentences() : outcome.sentences;
  const cited = new Set(sentences.flatMap((s) => s.citationKeys));
  const citations = outcome.context.blocks
    .filter((b) => cited.has(b.key))
    .map((b) => narrowCitation(b, sentences.filter((s) => s.citationKeys.includes(b.key)).map((s) => s.text)));
  const sectionIds = new Set(citations.map((c) => c.sectionId));
  const result: AskResult = {
    answer: formatAnswer(sentences),
    mode: outcome.mode,
    citations,
    sentences,
    triplets: input.triplets.filter((t) => sectionIds.has(t.sectionId)),
    subgraph: input.subgraph,
    timings: {
      retrieveMs: Math.max(0, input.retrieveMs),
      promptTokens: outcome.promptTokens,
      firstTokenMs: outcome.firstTokenMs,
      totalMs: Math.max(0, Math.round(input.retrieveMs + performance.now() - started)),
    },
  };
  if (outcome.analysis !== undefined && outcome.analysis !== "") result.analysis = outcome.analysis;
  return result;
}

/**
 * The compact context a model answers from: only the sentences that answer part of the question
 * (with their list points), so the model reads a fraction of the sections' text (bench:answer
 * measures exactly this). `unitsPerBlock` caps sentences per section, for exploring in the bench.
 */
export function buildLlmContext(pool: SentencePool, budgetTokens: number, count: TokenCounter, unitsPerBlock?: number): AnswerContext {
  const compact = buildContext(pool, budgetTokens, count, { onlyRelevant: true, ...(unitsPerBlock === undefined ? {} : { maxUnitsPerBlock: unitsPerBlock }) });
  // No answering sentence fits (a small model's window, long sentences): the shorter context
  // sentences still give the model something to cite or to refuse from.
  return compact.blocks.length > 0 ? compact : buildContext(pool, budgetTokens, count);
}

async function quoted(input: AskInput, pool: SentencePool, context: AnswerContext | null): Promise<Outcome> {
  const ctx = context ?? buildContext(pool, input.options?.contextTokens ?? EXTRACTIVE_CONTEXT_TOKENS, estimateTokens);
  const drafts = extractiveDrafts(ctx, input.options?.maxSentences ?? DEFAULT_MAX_SENTENCES);
  const sentences = await verifySentences(drafts, ctx, { embedder: input.embedder, signal: input.signal });
  return { sentences, context: ctx, mode: "extractive", promptTokens: 0, firstTokenMs: null };
}

/** The analysis line keeps the keys that exist; any other key is removed, as in the answer. */
function cleanAnalysis(analysis: string | null, context: AnswerContext): string | undefined {
  if (analysis === null) return undefined;
  return analysis
    .replace(/[[【［][^\]】］]*[\]】］]/g, (group) => {
      const keys = keysIn(group);
      if (keys.length === 0) return group;
      return keys.filter((k) => context.byKey.has(k)).map((k) => `[${k}]`).join("");
    })
    .replace(/\s+/g, " ")
    .trim();
}

async function generate(llm: LlmClient, input: AskInput, prompt: string, maxTokens: number, started: number): Promise<{ result: LlmResult; firstTokenMs: number | null } | "too-long"> {
  let firstTokenMs: number | null = null;
  try {
    const result = await llm.generate({
      system: SYSTEM_PROMPT,
      prompt,
      maxTokens,
      temperature: input.options?.temperature ?? 0,
      signal: input.signal,
      onToken: (text) => {
        firstTokenMs ??= Math.round(performance.now() - started);
        input.onToken?.(text);
      },
    });
    throwIfAborted(input.signal);
    return { result, firstTokenMs };
  } catch (err) {
    if (input.signal?.aborted) throw isClauseGraphError(err) && err.code === "CANCELLED" ? err : new ClauseGraphError("CANCELLED", "Answering cancelled.", { cause: err });
    // The model's tokenizer counted the prompt longer than countTokens did: quote instead of failing.
    if (isClauseGraphError(err) && err.code === "VALIDATION") return "too-long";
    if (isClauseGraphError(err)) throw err;
    throw new ClauseGraphError("INTERNAL", `The model failed to answer: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

async function written(input: AskInput, llm: LlmClient, pool: SentencePool, started: number): Promise<Outcome> {
  const count = (text: string): number => llm.countTokens(text);
  const maxTokens = input.options?.maxAnswerTokens ?? Math.max(64, Math.min(512, Math.floor(llm.contextSize / 4)));
  const room = llm.contextSize - count(SYSTEM_PROMPT) - count(userPrompt(input.question, "")) - TEMPLATE_SLACK - maxTokens;
  const budget = Math.min(input.options?.contextTokens ?? LLM_CONTEXT_TOKENS, room);
  if (budget < MIN_CONTEXT_TOKENS) return { ...(await quoted(input, pool, null)), analysis: NOTE_CONTEXT_TOO_SMALL };
  const context = buildLlmContext(pool, budget, count);
  // Nothing retrieved: there is nothing to cite, and a model asked anyway could only invent.
  if (context.blocks.length === 0) return { sentences: refusalSentences(), context, mode: "extractive", promptTokens: 0, firstTokenMs: null };
  const generated = await generate(llm, input, userPrompt(input.question, context.text), maxTokens, started);
  if (generated === "too-long") return { ...(await quoted(input, pool, null)), analysis: NOTE_CONTEXT_TOO_SMALL };
  const { result, firstTokenMs } = generated;
  const parsed = parseModelOutput(result.text);
  const drafts = draftSentences(parsed.answer);
  const checked = await verifySentences(drafts, context, { embedder: input.embedder, signal: input.signal });
  const cited = checked.filter((s) => s.citationKeys.length > 0);
  const refused = drafts.some((d) => d.refusal);
  const spent = { promptTokens: result.promptTokens, firstTokenMs };
  if (cited.length === 0 && !refused) {
    // Garbage, or an answer from outside knowledge: nothing in it can be traced to a page.
    return { ...(await quoted(input, pool, null)), ...spent, analysis: NOTE_NO_CITATIONS };
  }
  // A refusal next to cited sentences is a partial answer: the cited sentences are the answer.
  const sentences = cited.length === 0 ? refusalSentences() : checked.filter((s, i) => !drafts[i]?.refusal || s.citationKeys.length > 0);
  return { sentences, context, mode: "llm", analysis: cleanAnalysis(parsed.analysis, context), ...spent };
}

/**
 * Answers `question` from the retrieved sections. With `llm` the model writes a cited answer
 * (streamed through `onToken`); without one, or when the model cites nothing it was given, the
 * answer is quoted from the sections. Every sentence's citations are verified.
 * @throws ClauseGraphError CANCELLED when `signal` aborts; VALIDATION for an empty question;
 *   the model's own errors (INTERNAL, MODEL_TIMEOUT, …) otherwise.
 */
export async function answerQuestion(input: AskInput): Promise<AskResult> {
  const started = performance.now();
  throwIfAborted(input.signal);
  const question = input.question.replace(/\s+/g, " ").trim();
  if (question === "") throw new ClauseGraphError("VALIDATION", "The question is empty.");
  if (question.length > MAX_QUESTION_CHARS) throw new ClauseGraphError("VALIDATION", `The question is longer than ${MAX_QUESTION_CHARS} characters.`);
  const normalized: AskInput = { ...input, question };
  const missing = input.missingNames ?? [];
  if (missing.length > 0) {
    const empty: AnswerContext = { blocks: [], byKey: new Map(), text: "", tokens: 0 };
    return finish(normalized, { sentences: refusalSentences(), context: empty, mode: "extractive", analysis: notInLibrary(missing), promptTokens: 0, firstTokenMs: null }, started);
  }
  const pool = await buildSentencePool(question, input.results, input.triplets, input.embedder, input.signal);
  const outcome = input.llm === null ? await quoted(normalized, pool, null) : await written(normalized, input.llm, pool, started);
  throwIfAborted(input.signal);
  return finish(normalized, outcome, started);
}
