// Sizes of the two contexts bench:answer compares, in tokens, without loading a model.
//
// approxTokens: words (letter/digit runs) count 1.3 tokens each, every other non-space character
// one token. 1.3 tokens a word is the usual figure for English prose under BPE vocabularies of
// Llama/Qwen size; punctuation and markup are mostly single tokens. Both contexts are counted the
// same way, so the ratio between them is what matters. bench:answer --tokenizer <gguf> counts with
// a real model's tokenizer instead.
import type { RankedSection } from "../../core/model/retrieval-types.ts";
import { renderSourceOpen, SOURCE_CLOSE } from "../../core/answer/compose/context-render.ts";
import { quoteForPrompt } from "../../core/answer/compose/neutralize.ts";

const WORD = /[\p{L}\p{N}]+/gu;
const OTHER = /[^\s\p{L}\p{N}]/gu;

export const APPROX_TOKENIZER = "approx: 1.3 tokens per word + 1 per punctuation character";

export function approxTokens(text: string): number {
  const words = text.match(WORD)?.length ?? 0;
  const other = text.match(OTHER)?.length ?? 0;
  return Math.ceil(words * 1.3 + other);
}

/**
 * The plain RAG context: the whole text of each of the top sections, under the same source header
 * the compact context uses, so the two differ only in what is quoted.
 */
export function plainContext(results: readonly RankedSection[]): string {
  return results
    .map((r, i) => {
      const { section } = r;
      const body = quoteForPrompt(section.text === "" ? section.heading : section.text);
      return `${renderSourceOpen(`S${i + 1}`, section.label, section.heading)}\n${body}\n${SOURCE_CLOSE}`;
    })
    .join("\n\n");
}
