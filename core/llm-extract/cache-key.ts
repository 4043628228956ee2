import { createHash } from "node:crypto";
import type { Section } from "../model/section-types.ts";
import { PROMPT_VERSION } from "./extraction-prompt.ts";

// A section's extraction is reusable exactly when the model, the prompt and everything the prompt
// is built from are unchanged. The section id is not part of the key: an edited document is a new
// document (new id) whose unchanged sections hit the cache of the old one.

export interface CacheKeyInput {
  modelId: string;
  section: Pick<Section, "label" | "heading" | "text">;
  /** Everything else the prompt shows for this section (document title, defined terms). */
  context: string;
  promptVersion?: string;
}

export function sectionContentHash(section: Pick<Section, "label" | "heading" | "text">, context: string): string {
  return createHash("sha256").update(`${section.label}\u0000${section.heading}\u0000${section.text}\u0000${context}`).digest("hex");
}

export function extractionCacheKey(input: CacheKeyInput): string {
  const version = input.promptVersion ?? PROMPT_VERSION;
  const content = sectionContentHash(input.section, input.context);
  return createHash("sha256").update(`${input.modelId}\u0000${version}\u0000${content}`).digest("hex");
}
