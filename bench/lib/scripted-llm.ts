import type { LlmClient, LlmGenerateOptions, LlmResult } from "../../core/llm/llm-client.ts";

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
    return [{ subject: words(subject, 5), subject_type: "actor", predicate: `shall ${verb}`, object: words(rest, 6), object_type: "thing", evidence_span: sentence }];
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
      return { text, promptTokens: Math.ceil(options.prompt.length / 4), completionTokens: Math.ceil(text.length / 4), firstTokenMs: delayMs, totalMs: delayMs, stopReason: "end" };
    },
    close: () => Promise.resolve(),
  };
}
