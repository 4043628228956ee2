import type { AskResult } from "./ask-types.ts";

const EXPLANATIONS: Record<AskResult["mode"], [string, string]> = {
  extractive: ["Extractive", "Quoted from the sources: the sentences are taken from the cited sections, not written by a language model."],
  llm: ["Generated", "Written by the local language model from the cited sections; check each sentence against its citation."],
};

export function ModeBadge({ mode }: { mode: AskResult["mode"] }) {
  const [label, explanation] = EXPLANATIONS[mode];
  return (
    <span className={`mode-badge mode-${mode}`} data-testid="mode-badge" data-mode={mode} title={explanation}>
      {label}
    </span>
  );
}
