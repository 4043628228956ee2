import { existsSync } from "node:fs";
import type { LlmClient, LlmGenerateOptions, LlmResult } from "../../core/model/llm-client.ts";
import path from "node:path";
import { describe } from "vitest";
import { SHARED_DIR } from "./corpus.ts";

// ../shared/models/stories260K.gguf is a 1 MB real GGUF (llama architecture, no knowledge) that
// exercises the real node-llama-cpp path. It exists on our machines and in CI, not on a user's clone:
// tests that need it say clearly when they are skipped.
export const TINY_LLM_PATH = path.join(SHARED_DIR, "models", "stories260K.gguf");
export const HAS_TINY_LLM = existsSync(TINY_LLM_PATH);

let warned = false;
export function describeTinyLlm(name: string, fn: () => void): void {
  if (!HAS_TINY_LLM && !warned) {
    warned = true;
    console.warn(`[tiny-llm] ${TINY_LLM_PATH} not found: real-model LLM tests are SKIPPED on this machine.`);
  }
  (HAS_TINY_LLM ? describe : describe.skip)(`[tiny-llm] ${name}`, fn);
}

/** The model, counting its calls and keeping its outputs; closing it leaves the model open (the test owns it). */
export function countingLlm(real: LlmClient): LlmClient & { calls: number; outputs: string[] } {
  const llm = {
    modelId: real.modelId,
    contextSize: real.contextSize,
    calls: 0,
    outputs: [] as string[],
    countTokens: (t: string) => real.countTokens(t),
    async generate(options: LlmGenerateOptions): Promise<LlmResult> {
      llm.calls++;
      const result = await real.generate(options);
      llm.outputs.push(result.text);
      return result;
    },
    close: async () => {},
  };
  return llm;
}
