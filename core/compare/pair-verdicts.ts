import { ClauseGraphError, isClauseGraphError, toErrorInfo } from "../model/errors.ts";
import type { LlmClient } from "../model/llm-client.ts";
import type { Section } from "../model/section-types.ts";
import { pairVerdictSchema, type PairVerdict } from "../model/compare-schemas.ts";
import type { CompareLanguage } from "./compare-text.ts";
import type { EnglishStems } from "../text/index.ts";
import { matchingSentences, sentenceUnits, type SentenceUnit } from "./matching-sentences.ts";
import {
  buildVerdictPrompt,
  MAX_PROMPT_SENTENCES,
  parseVerdictOutput,
  VERDICT_OUTPUT_TOKENS,
  VERDICT_PROMPT_VERSION,
  VERDICT_SYSTEM,
  verdictCacheKey,
  verdictJsonSchema,
  type VerdictSide,
} from "./verdict-prompt.ts";

// The model's verdict on each aligned pair, one call per pair (k·n calls for a crosswalk, said
// before starting), each stored in the comparison cache under the pair's content hashes the
// moment it is made: a run cancelled, killed or repeated asks the model only for the pairs it has
// no verdict for, and an edited document only for its changed sections. The model is never
// called while the engine's write queue is held.

/** Tokens the chat template adds around system and user text (role markers), with a margin. */
const TEMPLATE_TOKENS = 48;

export interface VerdictPair {
  key: string;
  a: { section: Section; document: string; hash: string; language: CompareLanguage };
  b: { section: Section; document: string; hash: string };
}

export interface VerdictCache {
  get(keys: string[]): Promise<Map<string, string>>;
  put(entry: { key: string; kind: string; modelId: string; version: string; json: string }): Promise<void>;
}

export interface VerdictRunOptions {
  llm: LlmClient;
  cache: VerdictCache;
  signal?: AbortSignal;
  /** After each pair: done so far (cached ones included) of the total. */
  onProgress?: (done: number, total: number) => void;
  /** Each verdict as soon as it is known (from the cache or the model). */
  onVerdict?: (pairKey: string, verdict: PairVerdict) => void;
  /** Before the first call: the pairs, how many the cache answers, how many go to the model. */
  onPlan?: (plan: { pairs: number; cached: number; modelCalls: number }) => void;
  log?: (message: string) => void;
  /** The comparisons' stem cache (core/text/stem-porter.ts): the prompt's sentences are the best-matching ones. */
  stems: EnglishStems;
}

export interface VerdictRunSummary {
  pairs: number;
  cached: number;
  modelCalls: number;
  /** Pairs the model could not judge (prompt too long, output cut off): not cached, tried again next run. */
  failed: number;
}

function heading(section: Section): string {
  return [section.label, section.heading].filter((x) => x !== "").join(" — ");
}

/** The sentences shown for each side: the best-matching ones first, else the opening ones. */
function promptSentences(pair: VerdictPair, stems: EnglishStems): { a: SentenceUnit[]; b: SentenceUnit[] } {
  const matched = matchingSentences(pair.a.section.text, pair.b.section.text, pair.a.language, stems, MAX_PROMPT_SENTENCES);
  if (matched.length > 0) return { a: matched.map((m) => m.a), b: matched.map((m) => m.b) };
  return { a: sentenceUnits(pair.a.section.text).slice(0, 2), b: sentenceUnits(pair.b.section.text).slice(0, 2) };
}

/** Drops the weakest sentences until the prompt fits the model's context; null when even one each does not. */
function fitPrompt(llm: LlmClient, pair: VerdictPair, stems: EnglishStems): { prompt: string; a: SentenceUnit[]; b: SentenceUnit[] } | null {
  let { a, b } = promptSentences(pair, stems);
  if (a.length === 0 || b.length === 0) return null;
  const budget = llm.contextSize - VERDICT_OUTPUT_TOKENS - TEMPLATE_TOKENS - llm.countTokens(VERDICT_SYSTEM);
  for (;;) {
    const sideA: VerdictSide = { document: pair.a.document, heading: heading(pair.a.section), sentences: a };
    const sideB: VerdictSide = { document: pair.b.document, heading: heading(pair.b.section), sentences: b };
    const prompt = buildVerdictPrompt(sideA, sideB);
    if (llm.countTokens(prompt) <= budget) return { prompt, a, b };
    if (a.length <= 1 && b.length <= 1) return null;
    if (a.length >= b.length) a = a.slice(0, -1);
    else b = b.slice(0, -1);
  }
}

export function parseCachedVerdict(json: string): PairVerdict | null {
  try {
    const parsed = pairVerdictSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function verdictKeyOf(llm: Pick<LlmClient, "modelId" | "contextSize">, pair: Pick<VerdictPair, "a" | "b">): string {
  return verdictCacheKey({ aHash: pair.a.hash, bHash: pair.b.hash, modelId: llm.modelId, contextSize: llm.contextSize });
}

async function askModel(llm: LlmClient, pair: VerdictPair, stems: EnglishStems, signal: AbortSignal | undefined): Promise<PairVerdict | null> {
  const fitted = fitPrompt(llm, pair, stems);
  if (fitted === null) return null;
  const result = await llm.generate({
    system: VERDICT_SYSTEM,
    prompt: fitted.prompt,
    jsonSchema: verdictJsonSchema(fitted.a.length, fitted.b.length),
    temperature: 0,
    maxTokens: VERDICT_OUTPUT_TOKENS,
    ...(signal ? { signal } : {}),
  });
  const parsed = parseVerdictOutput(result.text);
  if (parsed === null) return null;
  const qa = fitted.a[Number(parsed.sentence_a.slice(1)) - 1];
  const qb = fitted.b[Number(parsed.sentence_b.slice(1)) - 1];
  if (qa === undefined || qb === undefined) return null;
  return {
    label: parsed.verdict,
    quoteA: { text: qa.text, start: qa.start, end: qa.end },
    quoteB: { text: qb.text, start: qb.start, end: qb.end },
    modelId: llm.modelId,
    promptVersion: VERDICT_PROMPT_VERSION,
  };
}

/** Judges every pair (cache first); throws CANCELLED when aborted — what was judged stays cached. */
export async function judgePairs(pairs: readonly VerdictPair[], options: VerdictRunOptions): Promise<VerdictRunSummary> {
  const { llm, cache, signal, stems } = options;
  const log = options.log ?? (() => {});
  const keys = pairs.map((p) => verdictKeyOf(llm, p));
  const stored = await cache.get(keys);
  const summary: VerdictRunSummary = { pairs: pairs.length, cached: 0, modelCalls: 0, failed: 0 };
  const known = keys.map((k) => {
    const json = stored.get(k);
    return json === undefined ? null : parseCachedVerdict(json);
  });
  options.onPlan?.({ pairs: pairs.length, cached: known.filter((v) => v !== null).length, modelCalls: known.filter((v) => v === null).length });
  let done = 0;
  options.onProgress?.(0, pairs.length);
  for (const [i, pair] of pairs.entries()) {
    if (signal?.aborted) throw new ClauseGraphError("CANCELLED", "comparison verdicts cancelled by the user");
    const cached = known[i] ?? null;
    if (cached !== null) {
      summary.cached++;
      options.onVerdict?.(pair.key, cached);
    } else {
      summary.modelCalls++;
      try {
        const verdict = await askModel(llm, pair, stems, signal);
        if (verdict === null) {
          summary.failed++;
          log(`no verdict for ${pair.a.section.id} ↔ ${pair.b.section.id}: the model's answer did not fit or did not parse`);
        } else {
          // Durable before moving on: this is what a resumed run will not ask again.
          await cache.put({ key: keys[i] ?? "", kind: "verdict", modelId: llm.modelId, version: VERDICT_PROMPT_VERSION, json: JSON.stringify(verdict) });
          options.onVerdict?.(pair.key, verdict);
        }
      } catch (err) {
        if (signal?.aborted || (isClauseGraphError(err) && err.code === "CANCELLED")) {
          throw new ClauseGraphError("CANCELLED", "comparison verdicts cancelled by the user", { cause: err });
        }
        summary.failed++;
        log(`verdict for ${pair.a.section.id} ↔ ${pair.b.section.id} failed: ${toErrorInfo(err).message}`);
      }
    }
    done++;
    options.onProgress?.(done, pairs.length);
  }
  return summary;
}
