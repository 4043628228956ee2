import type { AskResult } from "./ask-types.ts";

// Above an answer: which model wrote it (its name, not its architecture: the header used to read
// "LLM llama") and, prominently, why the model's answer was cut short or replaced by quoted
// sentences (a time or token limit, no citations, …). Before, a minutes-long answer was silently
// replaced by a quoted one and the reason was only in the log.

export function AnswerOrigin({ result }: { result: AskResult }) {
  const { model, notice } = result;
  if (model === undefined && notice === undefined) return null;
  const writer = model === undefined ? null : result.mode === "llm" ? `Written by ${model.name}` : `Quoted instead of ${model.name}'s answer`;
  return (
    <div className="answer-origin" data-testid="answer-origin">
      {writer !== null ? (
        <span className="muted small" data-testid="answer-model" title={model?.id}>
          {writer}
        </span>
      ) : null}
      {notice !== undefined ? (
        <p className={`answer-notice${notice.quoted ? " quoted" : ""}`} role="status" data-testid="answer-notice" data-reason={notice.reason}>
          <span aria-hidden="true">⚠ </span>
          {notice.message}
        </p>
      ) : null}
    </div>
  );
}
