import { memo, useEffect, useState } from "react";
import type { DocumentRecord, ErrorInfo } from "../../../core/contract/contract.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { DocumentAliases } from "./document-aliases.tsx";
import { plural } from "../lib/format.ts";
import { OcrBadge } from "./ocr-badge.tsx";

interface Props {
  document: DocumentRecord;
  selected: boolean;
  onOpen(id: string): void;
  onDelete(id: string): Promise<ErrorInfo | null>;
  /** Saves the names questions find the document by. */
  onSetAliases(id: string, aliases: string[]): Promise<ErrorInfo | null>;
  /** The row holds state of its own (a question, an editor, an error): the list keeps it rendered. */
  onExpanded(id: string, expanded: boolean): void;
}

// Memoised, with callbacks taking the id: scrolling or filtering the library re-renders the list,
// not the rows whose document did not change.
export const DocumentRow = memo(function DocumentRow({ document, selected, onOpen, onDelete, onSetAliases, onExpanded }: Props) {
  // Deleting drops every section and link of the document: ask once, in place, not in a modal.
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [editingNames, setEditingNames] = useState(false);

  const expanded = confirming || busy || editingNames || error !== null;
  const { id } = document;
  useEffect(() => {
    if (!expanded) return;
    onExpanded(id, true);
    return () => onExpanded(id, false);
  }, [expanded, id, onExpanded]);

  const remove = async (): Promise<void> => {
    setBusy(true);
    const failure = await onDelete(id);
    setBusy(false);
    setConfirming(false);
    setError(failure);
  };

  return (
    <div
      className={selected ? "library-row document-row selected" : "library-row document-row"}
      data-testid="document-row"
      data-document-id={id}
      data-status="done"
    >
      <div className="row-main">
        <button type="button" className="row-title link" onClick={() => onOpen(id)} title={document.file}>
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
      <DocumentAliases document={document} onSave={(aliases) => onSetAliases(id, aliases)} onEditingChange={setEditingNames} />
      {error !== null ? (
        <div className="row-detail">
          <ErrorMessage error={error} />
        </div>
      ) : null}
    </div>
  );
});
