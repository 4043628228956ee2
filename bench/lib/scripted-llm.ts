import { ClauseGraphError } from "../../core/model/errors.ts";
import type { LlmClient, LlmGenerateOptions, LlmResult } from "../../core/model/llm-client.ts";

// A deterministic stand-in for a language model in the extraction kill runs: every "X shall Y Z."
// sentence of the passage becomes one triplet quoting it as evidence. Fast and repeatable, so an
// interrupted extraction and an uninterrupted one must store exactly the same triplets; the delay
// spreads the work over time so kills land between sections, not only before or after them.

const PASSAGE_MARK = "Passage:\n";

function words(text: string, n: number): string {
  return text.trim().split(/\s+/).slice(0, n).join(" ");
}

function tripletsOf(passage: string): Array<Record<string, string>> {
  const sentences = passage.split(/(?<=\.)\s+/).map((s) => s.trim());
  return sentences.flatMap((sentence) => {
    const match = /^(.+?)\s+shall\s+(\w+)\s+(.+?)\.?$/.exec(sentence);
    if (!match) return [];
    const [, subject = "", verb = "", rest = ""] = match;
    return [
      { subject: words(subject, 5), subject_type: "actor", predicate: `shall ${verb}`, object: words(rest, 6), object_type: "thing", evidence_span: sentence },
    ];
  });
}

export function createScriptedLlm(delayMs = 120): LlmClient {
  return {
    modelId: "scripted-shall-extractor",
    contextSize: 2048,
    countTokens: (text) => Math.ceil(text.length / 4),
    async generate(options: LlmGenerateOptions): Promise<LlmResult> {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const at = options.prompt.lastIndexOf(PASSAGE_MARK);
      const passage = at < 0 ? options.prompt : options.prompt.slice(at + PASSAGE_MARK.length);
      const text = JSON.stringify({ triplets: tripletsOf(passage) });
      return {
        text,
        promptTokens: Math.ceil(options.prompt.length / 4),
        completionTokens: Math.ceil(text.length / 4),
        firstTokenMs: delayMs,
        totalMs: delayMs,
        stopReason: "end",
      };
    },
    close: () => Promise.resolve(),
  };
}

/**
 * A stand-in model for comparison verdicts (core/compare/): answers every prompt with the first
 * verdict and the first sentence of each side its grammar allows, counting its calls; `delayMs`
 * spreads the calls over time (kill runs).
 */
export function scriptedVerdictLlm(delayMs = 0): LlmClient & { calls: number; prompts: string[] } {
  const first = (schema: unknown, key: string): string => {
    const props = (schema as { properties?: Record<string, { enum?: unknown[] }> }).properties ?? {};
    return String(props[key]?.enum?.[0] ?? "");
  };
  const llm = {
    modelId: "scripted-verdicts",
    contextSize: 2048,
    calls: 0,
    prompts: [] as string[],
    countTokens: (text: string) => Math.ceil(text.length / 4),
    async generate(options: LlmGenerateOptions): Promise<LlmResult> {
      llm.calls++;
      llm.prompts.push(options.prompt);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (options.signal?.aborted) throw new ClauseGraphError("CANCELLED", "Generation cancelled.");
      const text = JSON.stringify({
        verdict: first(options.jsonSchema, "verdict"),
        sentence_a: first(options.jsonSchema, "sentence_a"),
        sentence_b: first(options.jsonSchema, "sentence_b"),
      });
      return { text, promptTokens: 1, completionTokens: 1, firstTokenMs: 0, totalMs: 0, stopReason: "end" };
    },
    close: () => Promise.resolve(),
  };
  return llm;
}
