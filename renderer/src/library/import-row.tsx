import { useState } from "react";
import { ErrorMessage } from "../common/error-message.tsx";
import { needsPassword } from "../lib/error-text.ts";
import type { ImportEntry } from "./use-library.ts";

const STEP_NAMES: Record<string, string> = {
  queued: "Waiting",
  reading: "Reading pages",
  sections: "Finding sections",
  graph: "Linking citations and obligations",
  embeddings: "Indexing meaning",
  storing: "Saving",
  done: "Done",
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
}

export function ImportRow({ entry, onCancel, onDismiss, onPassword }: Props) {
  const progress = entry.progress;
  // "0 of 1" is the engine's placeholder before it knows the page count: show no count, and an
  // indeterminate bar, rather than "0 of 1 pages" for a 261-page regulation.
  const hasTotal = progress !== undefined && progress.total > 0 && !(progress.current === 0 && progress.total === 1);
  return (
    <li className={`library-row import-row ${entry.state}`} data-testid="import-row" data-state={entry.state}>
      <div className="row-main">
        <span className="row-title">{entry.name}</span>
        {entry.state === "importing" ? (
          <span className="row-meta">
            {STEP_NAMES[progress?.step ?? "queued"] ?? progress?.step}
            {hasTotal ? ` · ${progress.current} of ${progress.total}${progress.step === "reading" ? " pages" : ""}` : ""}
          </span>
        ) : null}
      </div>
      {entry.state === "importing" ? (
        <>
          <progress
            data-testid="import-progress"
            aria-label={`Importing ${entry.name}`}
            {...(hasTotal ? { value: progress.current, max: progress.total } : {})}
          />
          <button type="button" className="quiet" onClick={onCancel} disabled={entry.jobId === undefined}>
            Cancel
          </button>
        </>
      ) : null}
      {entry.state === "failed" && entry.error !== undefined ? (
        <div className="row-detail">
          <ErrorMessage error={entry.error} testId="import-error" />
          {needsPassword(entry.error) ? <PasswordForm onSubmit={onPassword} /> : null}
        </div>
      ) : null}
      {entry.state === "skipped" ? (
        <p className="row-detail notice" data-testid="import-notice">
          {entry.notice}
        </p>
      ) : null}
      {entry.state !== "importing" ? (
        <button type="button" className="quiet" aria-label={`Dismiss ${entry.name}`} onClick={onDismiss}>
          Dismiss
        </button>
      ) : null}
    </li>
  );
}
