import { useState } from "react";
import type { DocumentRecord, ErrorInfo } from "../../../core/contract/contract.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { DocumentAliases } from "./document-aliases.tsx";
import { plural } from "../lib/format.ts";
import { OcrBadge } from "./ocr-badge.tsx";

interface Props {
  document: DocumentRecord;
  selected: boolean;
  onOpen(): void;
  onDelete(): Promise<ErrorInfo | null>;
  /** Saves the names questions find the document by. */
  onSetAliases(aliases: string[]): Promise<ErrorInfo | null>;
}

export function DocumentRow({ document, selected, onOpen, onDelete, onSetAliases }: Props) {
  // Deleting drops every section and link of the document: ask once, in place, not in a modal.
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);

  const remove = async (): Promise<void> => {
    setBusy(true);
    const failure = await onDelete();
    setBusy(false);
    setConfirming(false);
    setError(failure);
  };

  return (
    <li
      className={selected ? "library-row document-row selected" : "library-row document-row"}
      data-testid="document-row"
      data-document-id={document.id}
      data-status="done"
    >
      <div className="row-main">
        <button type="button" className="row-title link" onClick={onOpen} title={document.file}>
          {document.title || document.fileName}
        </button>
        <span className="row-meta">
          <span data-testid="document-file">{document.fileName}</span> · {plural(document.pages, "page")} · {plural(document.sections, "section")}
        </span>
      </div>
      {document.ocr === undefined ? null : <OcrBadge ocr={document.ocr} />}
      <span className="status-badge" data-testid="document-status">
        Ready
      </span>
      {confirming ? (
        <span className="confirm">
          <button type="button" className="danger" disabled={busy} data-testid="confirm-delete" onClick={() => void remove()}>
            Delete
          </button>
          <button type="button" className="quiet" disabled={busy} onClick={() => setConfirming(false)}>
            Keep
          </button>
        </span>
      ) : (
        <button type="button" className="quiet" aria-label={`Delete ${document.fileName}`} data-testid="delete-document" onClick={() => setConfirming(true)}>
          Delete
        </button>
      )}
      <DocumentAliases document={document} onSave={onSetAliases} />
      {error !== null ? (
        <div className="row-detail">
          <ErrorMessage error={error} />
        </div>
      ) : null}
    </li>
  );
}
