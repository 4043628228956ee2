import { useState } from "react";
import type { Ref } from "react";
import { LengthCounter, overLimit, showsLength } from "../common/length-counter.tsx";

interface Props {
  busy: boolean;
  onAsk(question: string): void;
  onCancel(): void;
  ref?: Ref<HTMLTextAreaElement>;
}

const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform);

export function QuestionBox({ busy, onAsk, onCancel, ref }: Props) {
  const [question, setQuestion] = useState("");
  const submit = (): void => {
    if (question.trim() === "" || overLimit(question)) return;
    onAsk(question);
    setQuestion("");
  };
  return (
    <form
      className="question-box"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={ref}
        rows={2}
        aria-label="Question"
        placeholder="Ask about the library, e.g. “When must a major incident be reported?”"
        data-testid="question-input"
        value={question}
        aria-invalid={overLimit(question)}
        onChange={(e) => setQuestion(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter asks, Shift+Enter starts a new line (IME composition must not trigger it).
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <div className="question-actions">
        {/* Near the limit, the count takes the hint's place: it is what the auditor needs then. */}
        {showsLength(question) ? (
          <LengthCounter text={question} what="question" testId="question-length" />
        ) : (
          <span className="muted small shortcut-hint">
            <kbd>Enter</kbd> ask · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line · <kbd>Esc</kbd> stop · <kbd>{IS_MAC ? "⌘" : "Ctrl"}</kbd>+<kbd>K</kbd> focus
          </span>
        )}
        {busy ? (
          <button type="button" className="quiet" data-testid="cancel-ask" onClick={onCancel}>
            Stop
          </button>
        ) : null}
        <button type="submit" className="primary" data-testid="ask-button" disabled={question.trim() === "" || overLimit(question)}>
          Ask
        </button>
      </div>
    </form>
  );
}
