import { ClauseGraphError, isClauseGraphError } from "../../model/errors.ts";
import type { LlmClient } from "../../model/llm-client.ts";
import type { RankedSection } from "../../model/retrieval-types.ts";
import { generateCapped } from "../compose/capped-generation.ts";

// With a language model loaded, the auditor's question is also rewritten into the words
// regulations use ("vendor" → "ICT third-party service provider"), a few queries searched beside
// the question itself and fused with it. The rewrite runs under caps of its own, far below the
// answer's, and every query it kept is traced in the answer (`rewrites` in `ask --json`). A model
// that writes nothing usable (or fails) leaves the question's own search alone.

/** Tokens the model may write for its queries: three short lines. */
export const REWRITE_MAX_TOKENS = 48;
/** Seconds the rewrite may take; what was written by then is used. */
export const REWRITE_MAX_SECONDS = 8;
/** Queries kept from the model's lines. */
export const MAX_REWRITES = 3;
/**
 * A rewritten query's share beside the question's own search (weight 1). No instruct model can
 * be run here to fit it, so it is kept low: a rewrite re-orders what the question also finds far
 * more than it brings in sections of its own.
 */
export const REWRITE_WEIGHT = 0.3;

const SYSTEM =
  "You turn an auditor's question into search queries in the words regulations use: defined terms, obligations, parties, time limits. " +
  "Write up to three queries, one per line, with no numbering and no other text.";

export interface QueryRewrite {
  /** The queries kept, in the model's order. */
  queries: string[];
  /** Lines the model wrote that were not kept (empty, too long, the question again, repeated). */
  dropped: number;
  ms: number;
  /** Which cap ended the rewrite, if one did. */
  stoppedBy: "time-limit" | "token-limit" | null;
  /** Why no rewrite was made, when the model failed. */
  error?: string;
}

const normalized = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** The usable queries in what the model wrote: one per line, numbering and quotes removed. */
export function parseRewrites(text: string, question: string): { queries: string[]; dropped: number } {
  const queries: string[] = [];
  let dropped = 0;
  const own = normalized(question);
  for (const raw of text.split(/\r?\n/)) {
    const line = raw
      .replace(/^\s*(?:[-*•]|\d+[.)]|query\s*\d*\s*:)\s*/i, "")
      .replace(/^["'“”]+|["'“”]+$/g, "")
      .trim();
    if (line === "") continue;
    const words = normalized(line).split(" ").filter(Boolean);
    const usable = words.length >= 2 && words.length <= 24 && words.some((w) => /\p{L}{3,}/u.test(w));
    const key = words.join(" ");
    if (!usable || key === own || queries.some((q) => normalized(q) === key) || queries.length >= MAX_REWRITES) {
      dropped++;
      continue;
    }
    queries.push(line);
  }
  return { queries, dropped };
}

/** The model's queries for `question`, under REWRITE_MAX_TOKENS and REWRITE_MAX_SECONDS. */
export async function rewriteQuestion(llm: LlmClient, question: string, signal?: AbortSignal): Promise<QueryRewrite> {
  const started = performance.now();
  try {
    const { result, stoppedBy } = await generateCapped(
      llm,
      { system: SYSTEM, prompt: question, maxTokens: REWRITE_MAX_TOKENS, temperature: 0, ...(signal === undefined ? {} : { signal }) },
      REWRITE_MAX_SECONDS,
    );
    return { ...parseRewrites(result.text, question), ms: Math.round(performance.now() - started), stoppedBy };
  } catch (err) {
    // Stop still stops; any other failure only costs the rewrite.
    if (signal?.aborted)
      throw isClauseGraphError(err) && err.code === "CANCELLED" ? err : new ClauseGraphError("CANCELLED", "Answering cancelled.", { cause: err });
    return { queries: [], dropped: 0, ms: Math.round(performance.now() - started), stoppedBy: null, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The question's ranking fused with its rewrites': each list's scores over its best, summed with
 * the list's weight (1 for the question, REWRITE_WEIGHT for each rewrite), best first.
 */
export function fuseRewrites(own: readonly RankedSection[], rewrites: ReadonlyArray<readonly RankedSection[]>): RankedSection[] {
  const fused = new Map<string, { result: RankedSection; score: number }>();
  const add = (list: readonly RankedSection[], weight: number): void => {
    const top = Math.max(...list.map((r) => r.score), Number.EPSILON);
    for (const r of list) {
      const entry = fused.get(r.section.id);
      const part = (weight * Math.max(0, r.score)) / top;
      if (entry === undefined) fused.set(r.section.id, { result: r, score: part });
      else entry.score += part;
    }
  };
  add(own, 1);
  for (const list of rewrites) add(list, REWRITE_WEIGHT);
  return [...fused.values()].sort((a, b) => b.score - a.score).map(({ result, score }, i) => ({ ...result, score, rank: i + 1 }));
}
