import { useState } from "react";
import type { ExportFile, ExportFormat, Result } from "../../../core/contract/contract.ts";
import { downloadFile } from "./download-file.ts";

interface Props {
  /** What is exported, for the buttons' tooltips: "this answer", "this conversation". */
  what: string;
  /** Prefix of the buttons' test ids: `<testId>-md`, `<testId>-html`. */
  testId: string;
  run(format: ExportFormat): Promise<Result<ExportFile>>;
}

const FORMATS: Array<[ExportFormat, string, string]> = [
  ["md", "Markdown", "as a Markdown workpaper"],
  ["html", "Print / PDF", "as a printable page (open it and print, or “Save as PDF”)"],
];

/** Workpaper export of an answer or a conversation: built by the engine from the answer log, downloaded as a file. */
export function ExportButtons({ what, testId, run }: Props) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = (format: ExportFormat): void => {
    setBusy(format);
    setError(null);
    void run(format).then((result) => {
      setBusy(null);
      if (result.ok) downloadFile(result.value);
      else setError(result.error.message);
    });
  };
  return (
    <span className="export-buttons">
      <span className="muted small">Export</span>
      {FORMATS.map(([format, label, how]) => (
        <button
          key={format}
          type="button"
          className="quiet small"
          data-testid={`${testId}-${format}`}
          disabled={busy !== null}
          title={`Save ${what} ${how}`}
          onClick={() => start(format)}
        >
          {busy === format ? "Exporting…" : label}
        </button>
      ))}
      {error === null ? null : (
        <span className="small export-error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </span>
      )}
    </span>
  );
}
