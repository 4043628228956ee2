import { ClauseGraphError } from "../../core/model/errors.ts";
import type { LlmClient, LlmGenerateOptions, LlmResult } from "../../core/model/llm-client.ts";

// A scripted model for the answer caps and Stop: it streams an opening and then a word
// every few milliseconds, forever, honouring maxTokens and its abort signal like node-llama-cpp.

/**
 * A model that streams `head(prompt)` and then a word every `tokenMs` until it is aborted or reaches
 * maxTokens: a generation that only a cap or a Stop ends.
 */
export function endlessLlm(head: (prompt: string) => string, tokenMs = 10): LlmClient & { calls: LlmGenerateOptions[]; running: number } {
  const calls: LlmGenerateOptions[] = [];
  const llm = {
    modelId: "scripted-endless",
    contextSize: 4096,
    calls,
    /** Generations under way: 0 once a Stop or a cap has ended them. */
    running: 0,
    countTokens: (text: string) => Math.ceil(text.length / 4),
    async generate(options: LlmGenerateOptions): Promise<LlmResult> {
      calls.push(options);
      llm.running += 1;
      try {
        return await stream(options);
      } finally {
        llm.running -= 1;
      }
    },
    close: () => Promise.resolve(),
  };
  async function stream(options: LlmGenerateOptions): Promise<LlmResult> {
    let text = "";
    for (let n = 0; ; n++) {
      if (options.signal?.aborted === true) throw new ClauseGraphError("CANCELLED", "Generation cancelled.");
      if (options.maxTokens !== undefined && n >= options.maxTokens) {
        return { text, promptTokens: 100, completionTokens: n, firstTokenMs: 1, totalMs: 1, stopReason: "maxTokens" };
      }
      const piece = n === 0 ? head(options.prompt) : " and more";
      text += piece;
      options.onToken?.(piece);
      await new Promise((resolve) => setTimeout(resolve, tokenMs));
    }
  }
  return llm;
}

/** "Answer: <the first full sentence of a source> [Sn]": a cited sentence the verifier accepts. */
export function citedHead(prompt: string): string {
  for (const block of prompt.matchAll(/<source key="\[(S\d+)\]">\n([\s\S]*?)<\/source>/g)) {
    const line = (block[2] ?? "").split("\n").find((l) => !l.startsWith("Citation:") && /\w.*\.\s*$/.test(l));
    if (line !== undefined) return `Answer: ${line.trim()} [${block[1] ?? "S1"}]`;
  }
  return "Answer: (no source)";
}
