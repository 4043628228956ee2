import { ClauseGraphError, isClauseGraphError } from "../../model/errors.ts";
import type { LlmClient, LlmResult } from "../../model/llm-client.ts";
import { capNotice, closestNotice, noticeOf, withNotice } from "./answer-notices.ts";
import { generateCapped } from "./capped-generation.ts";
import { REFUSAL, type AnswerMode, type AnswerNotice, type AskInput, type AskResult, type AskSentence } from "../../model/answer-types.ts";
import { notInLibraryReason } from "./not-in-library.ts";
import { buildContext, type AnswerContext, type TokenCounter } from "./context-builder.ts";
import { DEFAULT_MAX_SENTENCES, extractiveAnswer } from "./extractive-answer.ts";
import { answerSubgraph } from "./answer-subgraph.ts";
import { notInItsLanguage, nothingCloseEnough, outsideTheLibrary } from "./refusal-reason.ts";
import { REFUSE_BELOW, UNSURE_BELOW, decideInLibrary, wordsNoSectionHas, type InLibraryDecision } from "./in-library.ts";
import { citeSentences } from "./narrow-citation.ts";
import { draftSentences, keysIn, parseModelOutput } from "./parse-llm-output.ts";
import { SYSTEM_PROMPT, userPrompt } from "./prompt.ts";
import { buildSentencePool, throwIfAborted, type SentencePool } from "./sentence-pool.ts";
import type { LanguageResources } from "../language-resources.ts";
import { formatAnswer, verifySentences } from "./verify-citations.ts";

// Answering a question from sections already retrieved: with a model, a cited answer it writes
// from a compact context; without one (or when what it wrote cites nothing we gave it), sentences
// quoted from that context. Either way every sentence is verified against what it cites.

/** Context for a model: more costs prompt time on a CPU and rarely adds evidence (bench:answer measures it). */
export const LLM_CONTEXT_TOKENS = 3000;
/** Below this there is no room for even one quoted sentence with its header. */
const MIN_CONTEXT_TOKENS = 48;
/** Chat-template tokens (role markers, BOS) countTokens does not see. */
const TEMPLATE_SLACK = 64;
const MAX_QUESTION_CHARS = 2000;

/** The text without the instrument names it gives ("… under NIST SP 800-30?" → "… under ?"). */
function withoutNames(text: string, names: readonly string[]): string {
  let out = text;
  for (const name of [...names].sort((a, b) => b.length - a.length)) if (name.trim() !== "") out = out.split(name).join(" ");
  return out.replace(/\s+/g, " ").trim();
}

/** How a yes/no answer opens, before the sentence it rests on. */
const VERDICT_WORDS: Record<"yes" | "no" | "conditional", string> = { yes: "Yes:", no: "No:", conditional: "Only under conditions:" };

/** What answerQuestion is given: the question and its evidence, and the engine's pipelines (language-resources.ts). */
export interface AnswerRequest extends AskInput {
  resources: LanguageResources;
}

interface Outcome {
  verdict?: "yes" | "no" | "conditional";
  sentences: AskSentence[];
  context: AnswerContext;
  mode: AnswerMode;
  analysis?: string;
  /** Why the model's answer was cut short or replaced by quotes (answer-notices.ts). */
  notice?: AnswerNotice;
  promptTokens: number;
  firstTokenMs: number | null;
}

const EMPTY_CONTEXT: AnswerContext = { blocks: [], byKey: new Map(), text: "", tokens: 0 };

function refusalSentences(): AskSentence[] {
  return [{ text: REFUSAL, citationKeys: [], supported: true }];
}

/** "[S2]" in the model's analysis line, re-keyed to the sentence-level citations. */
function rekey(text: string, keyMap: ReadonlyMap<string, string[]>): string {
  return text.replace(/\[(S\d+)\]/g, (whole, key: string) => {
    const mapped = keyMap.get(key);
    return mapped === undefined ? whole : mapped.map((k) => `[${k}]`).join("");
  });
}

function finish(input: AnswerRequest, outcome: Outcome, started: number): AskResult {
  const cited = citeSentences(outcome.sentences.length === 0 ? refusalSentences() : outcome.sentences, outcome.context);
  const { sentences, citations } = cited;
  if (outcome.analysis !== undefined) outcome.analysis = rekey(outcome.analysis, cited.keyMap);
  const sectionIds = new Set(citations.map((c) => c.sectionId));
  const result: AskResult = {
    answer: formatAnswer(sentences),
    mode: outcome.mode,
    citations,
    sentences,
    triplets: input.triplets.filter((t) => sectionIds.has(t.sectionId)),
    subgraph: answerSubgraph(input.subgraph, sectionIds, input.triplets),
    timings: {
      retrieveMs: Math.max(0, input.retrieveMs),
      promptTokens: outcome.promptTokens,
      firstTokenMs: outcome.firstTokenMs,
      totalMs: Math.max(0, Math.round(input.retrieveMs + performance.now() - started)),
    },
  };
  if (outcome.analysis !== undefined && outcome.analysis !== "") result.analysis = outcome.analysis;
  else if (citations.length === 0) result.analysis = nothingCloseEnough(input);
  if (outcome.notice !== undefined) result.notice = outcome.notice;
  if (outcome.verdict !== undefined) {
    result.verdict = outcome.verdict;
    result.answer = `${VERDICT_WORDS[outcome.verdict]} ${result.answer}`;
  }
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

async function quoted(input: AnswerRequest, pool: SentencePool, decision?: InLibraryDecision): Promise<Outcome> {
  // The quoted sentences come from the whole pool; their blocks are the citations' context.
  const max = input.options?.maxSentences ?? DEFAULT_MAX_SENTENCES;
  let extracted = extractiveAnswer(pool, max, input.hints);
  // Judged to be in the library, yet no sentence passed the answer's gates: the closest provisions
  // answer, and the answer says so, rather than a refusal the library does not deserve.
  if (extracted.drafts.length === 0 && decision !== undefined && decision.rule !== "outside-the-library" && decision.rule !== "nothing-retrieved") {
    decision.rule = "closest-provisions";
    extracted = extractiveAnswer(pool, max, input.hints, true);
  }
  const { drafts, verdict, context: ctx } = extracted;
  const sentences = await verifySentences(drafts, ctx, { embedder: input.embedder, signal: input.signal });
  const outcome: Outcome = { sentences, context: ctx, mode: "extractive", promptTokens: 0, firstTokenMs: null };
  // The verdict stands only on a verified lead.
  if (verdict !== undefined && sentences[0]?.supported === true) outcome.verdict = verdict;
  return outcome;
}

/** The analysis line keeps the keys that exist; any other key is removed, as in the answer. */
function cleanAnalysis(analysis: string | null, context: AnswerContext): string | undefined {
  if (analysis === null) return undefined;
  return analysis
    .replace(/[[【［][^\]】］]*[\]】］]/g, (group) => {
      const keys = keysIn(group);
      if (keys.length === 0) return group;
      return keys
        .filter((k) => context.byKey.has(k))
        .map((k) => `[${k}]`)
        .join("");
    })
    .replace(/\s+/g, " ")
    .trim();
}

async function generate(
  llm: LlmClient,
  input: AnswerRequest,
  prompt: string,
  maxTokens: number,
  started: number,
): Promise<{ result: LlmResult; firstTokenMs: number | null; stoppedBy: "time-limit" | "token-limit" | null } | "too-long"> {
  let firstTokenMs: number | null = null;
  try {
    const { result, stoppedBy } = await generateCapped(
      llm,
      {
        system: SYSTEM_PROMPT,
        prompt,
        maxTokens,
        temperature: input.options?.temperature ?? 0,
        ...(input.signal === undefined ? {} : { signal: input.signal }),
        onToken: (text) => {
          firstTokenMs ??= Math.round(performance.now() - started);
          input.onToken?.(text);
        },
      },
      input.options?.maxSeconds,
    );
    throwIfAborted(input.signal);
    return { result, firstTokenMs, stoppedBy };
  } catch (err) {
    if (input.signal?.aborted)
      throw isClauseGraphError(err) && err.code === "CANCELLED" ? err : new ClauseGraphError("CANCELLED", "Answering cancelled.", { cause: err });
    // The model's tokenizer counted the prompt longer than countTokens did: quote instead of failing.
    if (isClauseGraphError(err) && err.code === "VALIDATION") return "too-long";
    if (isClauseGraphError(err)) throw err;
    throw new ClauseGraphError("INTERNAL", `The model failed to answer: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

async function written(input: AnswerRequest, llm: LlmClient, pool: SentencePool, started: number): Promise<Outcome> {
  const count = (text: string): number => llm.countTokens(text);
  // The cap, but never more than a quarter of the window: the sources must still fit beside it.
  const maxTokens = Math.min(input.options?.maxAnswerTokens ?? 512, Math.max(64, Math.floor(llm.contextSize / 4)));
  const room = llm.contextSize - count(SYSTEM_PROMPT) - count(userPrompt(input.question, "")) - TEMPLATE_SLACK - maxTokens;
  const budget = Math.min(input.options?.contextTokens ?? LLM_CONTEXT_TOKENS, room);
  if (budget < MIN_CONTEXT_TOKENS) return { ...(await quoted(input, pool)), ...withNotice(noticeOf("context-too-small")) };
  const context = buildLlmContext(pool, budget, count);
  // Nothing retrieved: there is nothing to cite, and a model asked anyway could only invent.
  if (context.blocks.length === 0) return { sentences: refusalSentences(), context, mode: "extractive", promptTokens: 0, firstTokenMs: null };
  const generated = await generate(llm, input, userPrompt(input.question, context.text), maxTokens, started);
  if (generated === "too-long") return { ...(await quoted(input, pool)), ...withNotice(noticeOf("context-too-small")) };
  const { result, firstTokenMs, stoppedBy } = generated;
  const cap = stoppedBy === null ? null : stoppedBy === "time-limit" ? (input.options?.maxSeconds ?? 0) : maxTokens;
  const parsed = parseModelOutput(result.text);
  const drafts = draftSentences(parsed.answer, input.resources);
  const checked = await verifySentences(drafts, context, { embedder: input.embedder, signal: input.signal });
  const cited = checked.filter((s) => s.citationKeys.length > 0);
  const refused = drafts.some((d) => d.refusal);
  const spent = { promptTokens: result.promptTokens, firstTokenMs };
  if (cited.length === 0 && !refused) {
    // Garbage, an answer from outside knowledge, or one a cap cut before its first citation:
    // nothing in it can be traced to a page.
    const notice = stoppedBy === null || cap === null ? noticeOf("no-citations") : capNotice(stoppedBy, cap, true);
    return { ...(await quoted(input, pool)), ...spent, ...withNotice(notice) };
  }
  // A refusal next to cited sentences is a partial answer: the cited sentences are the answer.
  const sentences = cited.length === 0 ? refusalSentences() : checked.filter((s, i) => !drafts[i]?.refusal || s.citationKeys.length > 0);
  // Cut by a cap: the cited sentences it wrote stand, said to be possibly incomplete; the cut-off
  // tail (no citation yet) goes.
  if (stoppedBy !== null && cap !== null) {
    const kept = sentences.filter((s) => s.citationKeys.length > 0);
    return { sentences: kept, context, mode: "llm", analysis: cleanAnalysis(parsed.analysis, context), ...spent, notice: capNotice(stoppedBy, cap, false) };
  }
  return { sentences, context, mode: "llm", analysis: cleanAnalysis(parsed.analysis, context), ...spent };
}

/** Whether a library of documents in these languages has any a question in `language` can be answered from. */
function writtenIn(languages: ReadonlySet<string>, language: string): boolean {
  return languages.size === 0 || languages.has(language) || languages.has("und");
}

/** The not-answered reply, saying why in words, with the rule that decided it. */
function refusedWith(input: AnswerRequest, why: string, started: number, inLibrary: InLibraryDecision): AskResult {
  const refused = finish(
    input,
    { sentences: refusalSentences(), context: EMPTY_CONTEXT, mode: "extractive", analysis: why, promptTokens: 0, firstTokenMs: null },
    started,
  );
  return { ...refused, refusalReason: why, inLibrary };
}

/**
 * Answers `question` from the retrieved sections. With `llm` the model writes a cited answer
 * (streamed through `onToken`); without one, or when the model cites nothing it was given, the
 * answer is quoted from the sections. Every sentence's citations are verified.
 * @throws ClauseGraphError CANCELLED when `signal` aborts; VALIDATION for an empty question;
 *   the model's own errors (INTERNAL, MODEL_TIMEOUT, …) otherwise.
 */
export async function answerQuestion(input: AnswerRequest): Promise<AskResult> {
  const started = performance.now();
  throwIfAborted(input.signal);
  const question = input.question.replace(/\s+/g, " ").trim();
  if (question === "") throw new ClauseGraphError("VALIDATION", "The question is empty.");
  if (question.length > MAX_QUESTION_CHARS) throw new ClauseGraphError("VALIDATION", `The question is longer than ${MAX_QUESTION_CHARS} characters.`);
  const normalized: AnswerRequest = { ...input, question };
  const reason = notInLibraryReason(input.analysis?.missingInstruments ?? [], input.missingNames ?? []);
  if (reason !== null) {
    const rule = (input.analysis?.missingInstruments.length ?? 0) > 0 ? "instrument-not-imported" : "name-not-mentioned";
    return refusedWith(normalized, reason, started, { rule, probability: null, features: null });
  }
  // Rule "a question in a language no document is written in": the words it shares with the
  // library are numbers and names, and the sentences they reach answer another question (Italian
  // procurement questions over a library of English rulebooks were answered from them).
  const language = input.hints?.language ?? "en";
  if (input.libraryLanguages !== undefined && !writtenIn(input.libraryLanguages, language)) {
    return refusedWith(normalized, notInItsLanguage(language), started, { rule: "not-in-its-language", probability: null, features: null });
  }
  // Sentences are scored against what retrieval searched for: the question plus the words the
  // provision it asks for prints (answer-type-query.ts: "shall apply from" for "from what date …").
  // The instrument's own name ("NIST SP 800-30", "under DORA") routes retrieval: the sentences
  // that answer never print it, and those that do (a guide citing itself) are not the answer.
  const scored = withoutNames(input.retrievalQuery ?? question, input.analysis?.scope.instruments ?? []);
  const pool = await buildSentencePool(scored, input.results, input.triplets, input.embedder, input.resources, input.signal, input.hints, input.earlierParts);
  input.trace?.({
    candidates: pool.candidates.map((c) => ({
      sectionId: c.result.section.id,
      documentId: c.result.section.documentId,
      sectionLabel: c.result.section.label,
      resultIndex: c.resultIndex,
      text: c.unit.text,
      start: c.unit.start,
      end: c.unit.end,
      paragraph: c.unit.paragraph,
      pinpoint: c.unit.pinpoint,
      features: { ...c.features },
      ...(c.similarity === null ? {} : { similarity: c.similarity }),
      prior: c.prior,
      score: c.score,
      relevant: c.relevant,
    })),
  });
  // Whether the library answers it at all (in-library.ts): refused here, with the words no nearby
  // section has, rather than quoting sentences that merely share the question's common words.
  const decision = decideInLibrary(pool, { refuseBelow: input.options?.refuseBelow ?? REFUSE_BELOW, unsureBelow: UNSURE_BELOW });
  if (decision.rule === "outside-the-library") {
    return refusedWith(normalized, outsideTheLibrary(input, wordsNoSectionHas(pool, language)), started, decision);
  }
  const outcome = input.llm === null ? await quoted(normalized, pool, decision) : await written(normalized, input.llm, pool, started);
  throwIfAborted(input.signal);
  const result = finish(normalized, outcome, started);
  if (result.citations.length === 0 && decision.rule !== "nothing-retrieved") decision.rule = "outside-the-library";
  if (decision.rule === "closest-provisions" && result.notice === undefined) {
    result.notice = closestNotice();
    result.analysis ??= result.notice.message;
  }
  return { ...result, inLibrary: decision };
}
