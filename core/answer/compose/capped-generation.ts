import { ClauseGraphError, isClauseGraphError } from "../../model/errors.ts";
import type { LlmClient, LlmGenerateOptions, LlmResult } from "../../model/llm-client.ts";

// A model's generation under the answer caps (core/model/answer-limits.ts). The token cap is the
// model's own maxTokens; the time cap aborts generation through the same signal a Stop uses, but
// where a Stop ends the answer (CANCELLED), the time cap keeps what was streamed so far and says it
// was cut: the answer is then built from the sentences the model managed to write and cite, or
// quoted from the documents, with the reason shown (answer-notices.ts). Without this an answer
// streamed for minutes and was then silently replaced.

export interface CappedResult {
  result: LlmResult;
  /** Which cap ended the generation, if one did. */
  stoppedBy: "time-limit" | "token-limit" | null;
}

/**
 * Runs `options` on `llm`, stopped after `maxSeconds` (none: no time cap). The caller's own
 * `options.signal` still cancels (CANCELLED is thrown); the time cap resolves with the text
 * streamed until then.
 */
export async function generateCapped(llm: LlmClient, options: LlmGenerateOptions, maxSeconds: number | undefined): Promise<CappedResult> {
  const started = performance.now();
  const timer = new AbortController();
  const timeout = maxSeconds === undefined ? undefined : setTimeout(() => timer.abort(), maxSeconds * 1000);
  let streamed = "";
  let firstTokenMs: number | null = null;
  const signal = options.signal === undefined ? timer.signal : AbortSignal.any([options.signal, timer.signal]);
  try {
    const result = await llm.generate({
      ...options,
      signal,
      onToken: (text) => {
        firstTokenMs ??= Math.round(performance.now() - started);
        streamed += text;
        options.onToken?.(text);
      },
    });
    // A client that noticed the abort only after it finished still answered in full.
    return { result, stoppedBy: result.stopReason === "maxTokens" ? "token-limit" : null };
  } catch (err) {
    const timedOut = timer.signal.aborted && options.signal?.aborted !== true;
    if (!timedOut) throw err;
    if (isClauseGraphError(err) && err.code !== "CANCELLED") throw err;
    if (!isClauseGraphError(err) && !(err instanceof Error && err.name === "AbortError")) {
      throw new ClauseGraphError("INTERNAL", `The model failed to answer: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const totalMs = Math.round(performance.now() - started);
    return {
      result: { text: streamed, promptTokens: 0, completionTokens: 0, firstTokenMs, totalMs, stopReason: "maxTokens" },
      stoppedBy: "time-limit",
    };
  } finally {
    clearTimeout(timeout);
  }
}
