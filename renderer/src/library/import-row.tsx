import { useState } from "react";
import { ErrorMessage } from "../common/error-message.tsx";
import { needsPassword } from "../lib/error-text.ts";
import { OcrPrompt, type OcrLanguageChoice } from "./ocr-prompt.tsx";
import type { ImportEntry } from "./use-library.ts";

const STEP_NAMES: Record<string, string> = {
  queued: "Waiting",
  reading: "Reading pages",
  ocr: "Reading scanned pages (OCR)",
  sections: "Finding sections",
  graph: "Linking citations and obligations",
  embeddings: "Indexing meaning",
  storing: "Saving",
  done: "Done",
  cancelled: "Cancelling",
  failed: "Failed",
};

function PasswordForm({ onSubmit }: { onSubmit: (password: string) => void }) {
  const [password, setPassword] = useState("");
  return (
    <form
      className="password-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (password !== "") onSubmit(password);
      }}
    >
      <input
        type="password"
        aria-label="PDF password"
        placeholder="Password"
        autoComplete="off"
        data-testid="password-input"
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
      />
      <button type="submit">Open</button>
    </form>
  );
}

interface Props {
  entry: ImportEntry;
  onCancel(): void;
  onDismiss(): void;
  onPassword(password: string): void;
  /** The language the OCR question starts with (the remembered one). */
  ocrLanguage: OcrLanguageChoice;
  onReadWithOcr(language: OcrLanguageChoice, remember: boolean): void;
  onSkipOcr(remember: boolean): void;
}

export function ImportRow({ entry, onCancel, onDismiss, onPassword, ocrLanguage, onReadWithOcr, onSkipOcr }: Props) {
  const progress = entry.progress;
  const waiting = entry.state === "queued" || entry.state === "importing";
  // The engine's last event says the job ended: nothing is left to cancel while its result travels.
  const ended = progress !== undefined && progress.status !== "queued" && progress.status !== "running";
  // "0 of 1" is the engine's placeholder before it knows the page count: show no count, and an
  // indeterminate bar, rather than "0 of 1 pages" for a 261-page regulation.
  const hasTotal = progress !== undefined && progress.total > 0 && !(progress.current === 0 && progress.total === 1);
  return (
    <li className={`library-row import-row ${entry.state}`} data-testid="import-row" data-state={entry.state}>
      <div className="row-main">
        <span className="row-title">{entry.name}</span>
        {waiting ? (
          <span className="row-meta">
            {STEP_NAMES[progress?.step ?? "queued"] ?? progress?.step}
            {hasTotal ? ` · ${progress.current} of ${progress.total}${progress.step === "reading" || progress.step === "ocr" ? " pages" : ""}` : ""}
          </span>
        ) : null}
      </div>
      {waiting ? (
        <>
          {/* Nothing moves for a file still waiting (here or in the engine's queue): no bar until it starts. */}
          {progress !== undefined && progress.status !== "queued" ? (
            <progress
              data-testid="import-progress"
              aria-label={`Importing ${entry.name}`}
              {...(hasTotal ? { value: progress.current, max: progress.total } : {})}
            />
          ) : null}
          {ended ? null : (
            <button type="button" className="quiet" data-testid="import-cancel" aria-label={`Cancel ${entry.name}`} onClick={onCancel}>
              Cancel
            </button>
          )}
        </>
      ) : null}
      {entry.state === "cancelled" ? (
        <p className="row-detail notice" data-testid="import-cancelled">
          Cancelled: nothing of this file was added to the library.
        </p>
      ) : null}
      {entry.state === "failed" && entry.error !== undefined ? (
        <div className="row-detail">
          <ErrorMessage error={entry.error} testId="import-error" />
          {needsPassword(entry.error) ? <PasswordForm onSubmit={onPassword} /> : null}
        </div>
      ) : null}
      {entry.state === "needs-ocr" && entry.ocrOffer !== undefined ? (
        <div className="row-detail">
          <OcrPrompt offer={entry.ocrOffer} language={ocrLanguage} onRead={onReadWithOcr} onSkip={onSkipOcr} />
        </div>
      ) : null}
      {entry.state === "skipped" ? (
        <p className="row-detail notice" data-testid="import-notice">
          {entry.notice}
        </p>
      ) : null}
      {/* A scanned file's question has its own "Don't import". */}
      {!waiting && entry.state !== "needs-ocr" ? (
        <button type="button" className="quiet" aria-label={`Dismiss ${entry.name}`} onClick={onDismiss}>
          Dismiss
        </button>
      ) : null}
    </li>
  );
}
