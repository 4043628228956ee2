import { useState } from "react";
import { ANSWER_LIMIT_BOUNDS } from "../../../core/contract/contract.ts";
import type { AnswerLimits } from "../../../core/contract/contract.ts";

// The caps on a written answer, in the model menu: most tokens the model may write and most seconds
// it may take. The engine enforces them and says in the answer when one stopped the model.

interface Props {
  limits: AnswerLimits;
  onSave(limits: AnswerLimits): Promise<boolean>;
}

export function AnswerLimitsForm({ limits, onSave }: Props) {
  const [tokens, setTokens] = useState(String(limits.maxTokens));
  const [seconds, setSeconds] = useState(String(limits.maxSeconds));
  const [saved, setSaved] = useState(false);
  const next = { maxTokens: Number(tokens), maxSeconds: Number(seconds) };
  const changed = next.maxTokens !== limits.maxTokens || next.maxSeconds !== limits.maxSeconds;
  const { maxTokens: t, maxSeconds: s } = ANSWER_LIMIT_BOUNDS;
  const valid =
    Number.isInteger(next.maxTokens) &&
    next.maxTokens >= t.min &&
    next.maxTokens <= t.max &&
    Number.isInteger(next.maxSeconds) &&
    next.maxSeconds >= s.min &&
    next.maxSeconds <= s.max;
  return (
    <form
      className="answer-limits-form"
      data-testid="answer-limits-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!valid) return;
        void onSave(next).then(setSaved);
      }}
    >
      <div className="model-menu-title">Limits on written answers</div>
      <label className="small">
        At most{" "}
        <input
          type="number"
          min={t.min}
          max={t.max}
          step={1}
          value={tokens}
          aria-label="Most tokens per answer"
          data-testid="max-tokens-input"
          onChange={(e) => (setTokens(e.currentTarget.value), setSaved(false))}
        />{" "}
        tokens
      </label>
      <label className="small">
        and{" "}
        <input
          type="number"
          min={s.min}
          max={s.max}
          step={1}
          value={seconds}
          aria-label="Most seconds per answer"
          data-testid="max-seconds-input"
          onChange={(e) => (setSeconds(e.currentTarget.value), setSaved(false))}
        />{" "}
        seconds
      </label>
      <button type="submit" className="small" disabled={!valid || !changed} data-testid="save-limits">
        Save
      </button>
      {saved && !changed ? (
        <span className="muted small" role="status">
          Saved
        </span>
      ) : null}
      {!valid ? (
        <p className="muted small">
          Tokens from {t.min} to {t.max}, seconds from {s.min} to {s.max}.
        </p>
      ) : null}
    </form>
  );
}
