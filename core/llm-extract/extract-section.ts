import type { LlmClient } from "../model/llm-client.ts";
import type { Section } from "../model/section-types.ts";
import {
  buildPrompt,
  EXTRACTION_SYSTEM,
  extractionOutputSchema,
  OUTPUT_TOKENS,
  promptHeader,
  TRIPLET_JSON_SCHEMA,
  type PromptContext,
  type RawTriplet,
} from "./extraction-prompt.ts";
import { chunkBySentence } from "./section-chunks.ts";

// One section through the model: cut into chunks that fit the context with room for the answer,
// each answered under the JSON grammar. Output that does not parse (a small model cut off at its
// token limit) counts as no triplets rather than failing the section.

/** Tokens the chat template adds around system and user text (role markers), with a margin. */
const TEMPLATE_TOKENS = 48;
const MIN_PASSAGE_TOKENS = 16;

export interface SectionExtraction {
  chunks: number;
  malformedChunks: number;
  triplets: RawTriplet[];
}

/** The output budget: a quarter of a small context, at most OUTPUT_TOKENS. */
export function outputBudget(contextSize: number): number {
  return Math.max(32, Math.min(OUTPUT_TOKENS, Math.floor(contextSize / 4)));
}

export function parseExtractionOutput(text: string): RawTriplet[] | null {
  try {
    const parsed = extractionOutputSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.triplets : null;
  } catch {
    return null;
  }
}

export async function extractSection(llm: LlmClient, section: Section, context: PromptContext, signal?: AbortSignal): Promise<SectionExtraction> {
  const maxTokens = outputBudget(llm.contextSize);
  const fixed = llm.countTokens(EXTRACTION_SYSTEM) + llm.countTokens(promptHeader(context)) + TEMPLATE_TOKENS;
  const budget = Math.max(MIN_PASSAGE_TOKENS, llm.contextSize - maxTokens - fixed);
  const chunks = chunkBySentence(section.text, budget, (t) => llm.countTokens(t));
  const triplets: RawTriplet[] = [];
  let malformedChunks = 0;
  for (const chunk of chunks) {
    const result = await llm.generate({
      system: EXTRACTION_SYSTEM,
      prompt: buildPrompt(context, chunk),
      jsonSchema: TRIPLET_JSON_SCHEMA,
      temperature: 0,
      maxTokens,
      ...(signal ? { signal } : {}),
    });
    const parsed = parseExtractionOutput(result.text);
    if (parsed === null) malformedChunks++;
    else triplets.push(...parsed);
  }
  return { chunks: chunks.length, malformedChunks, triplets };
}
