import { useCallback, useEffect, useState } from "react";
import type { ErrorInfo, LibraryHealth, RepairResult } from "../../../core/contract/contract.ts";
import { useApi } from "../api/api-context.ts";
import { ErrorMessage } from "../common/error-message.tsx";

// The engine checks the library at every start (core/store/kuzu/library-check.ts). A damaged library
// is shown here, above the documents, with what happened in words and one action: rebuild it from
// the copies kept at import. Checked again whenever the document list changes.

interface Props {
  /** Changes whenever the library's documents change (re-check then). */
  version: string;
  onRepaired(): void;
}

export function LibraryHealthBanner({ version, onRepaired }: Props) {
  const api = useApi();
  const [health, setHealth] = useState<LibraryHealth | null>(null);
  const [repairing, setRepairing] = useState(false);
  const [outcome, setOutcome] = useState<RepairResult | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);

  const check = useCallback(async () => {
    const result = await api.checkLibrary({});
    if (result.ok) setHealth(result.value);
  }, [api]);

  useEffect(() => {
    void check();
  }, [check, version]);

  const repair = async (): Promise<void> => {
    setRepairing(true);
    setError(null);
    const result = await api.repairLibrary({ jobId: `repair-${Date.now()}` });
    setRepairing(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setOutcome(result.value);
    setHealth(result.value.health);
    onRepaired();
  };

  if (outcome !== null && (health === null || health.damaged.length === 0)) {
    const ok = outcome.reimported.filter((r) => r.status === "ok").length;
    return (
      <div className="library-health repaired" role="status" data-testid="library-repaired">
        <span>
          Library rebuilt: {ok} of {outcome.reimported.length} documents imported again from their kept copies.
          {outcome.missing.length > 0 ? ` ${outcome.missing.length} had no copy and must be imported again from the original.` : ""}
        </span>
        <button type="button" onClick={() => setOutcome(null)}>
          Dismiss
        </button>
      </div>
    );
  }
  if (health === null || health.damaged.length === 0) return null;
  const n = health.damaged.length;
  return (
    <div className="library-health" role="alert" data-testid="library-damaged">
      <strong>
        {n === 1 ? "One document" : `${n} documents`} of this library {n === 1 ? "was" : "were"} damaged by a storage error.
      </strong>
      <ul>
        {health.damaged.map((d) => (
          <li key={d.documentId}>{d.message}</li>
        ))}
      </ul>
      {error !== null ? <ErrorMessage error={error} testId="library-repair-error" /> : null}
      <button type="button" className="primary" disabled={repairing} onClick={() => void repair()} data-testid="library-repair">
        {repairing ? "Rebuilding the library…" : "Repair library"}
      </button>
    </div>
  );
}
