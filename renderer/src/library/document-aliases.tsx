import { useEffect, useState } from "react";
import { ALIAS_LIMITS, effectiveAliases } from "../../../core/contract/contract.ts";
import type { DocumentRecord, ErrorInfo } from "../../../core/contract/contract.ts";
import { ErrorMessage } from "../common/error-message.tsx";

// The names a document answers to in questions ("under DORA"), shown under its title and edited
// in place as one comma-separated list: the registry's names found at import and the user's own.
// Saving sends the whole list (documents.aliases); a registry name left out is hidden, not lost.

interface Props {
  document: DocumentRecord;
  onSave(aliases: string[]): Promise<ErrorInfo | null>;
  /** The editor opened or closed: the library keeps an open editor rendered while it scrolls. */
  onEditingChange?(editing: boolean): void;
}

export function DocumentAliases({ document, onSave, onEditingChange }: Props) {
  const aliases = effectiveAliases(document);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  useEffect(() => onEditingChange?.(editing), [editing, onEditingChange]);

  const start = (): void => {
    setDraft(aliases.join(", "));
    setError(null);
    setEditing(true);
  };
  const save = async (): Promise<void> => {
    setBusy(true);
    const failure = await onSave(
      draft
        .split(",")
        .map((a) => a.trim())
        .filter((a) => a !== ""),
    );
    setBusy(false);
    setError(failure);
    if (failure === null) setEditing(false);
  };

  if (editing) {
    return (
      <form
        className="row-detail document-aliases editing"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <input
          type="text"
          value={draft}
          autoFocus
          disabled={busy}
          maxLength={ALIAS_LIMITS.perDocument * (ALIAS_LIMITS.chars + 2)}
          aria-label={`Names of ${document.fileName}, separated by commas`}
          data-testid="aliases-input"
          placeholder="e.g. DORA, Regulation (EU) 2022/2554"
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape") setEditing(false);
          }}
        />
        <button type="submit" disabled={busy} data-testid="aliases-save">
          Save
        </button>
        <button type="button" className="quiet" disabled={busy} onClick={() => setEditing(false)}>
          Cancel
        </button>
        {error !== null ? <ErrorMessage error={error} /> : null}
      </form>
    );
  }
  return (
    <div className="row-detail document-aliases" data-testid="document-aliases">
      <span className="row-meta" title={aliases.length > 0 ? aliases.join(" · ") : undefined}>
        {aliases.length > 0 ? `Also known as ${aliases.join(" · ")}` : "No other names"}
      </span>{" "}
      <button type="button" className="quiet link" aria-label={`Edit the names of ${document.fileName}`} data-testid="aliases-edit" onClick={start}>
        Edit names
      </button>
    </div>
  );
}
