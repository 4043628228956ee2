import { useApi } from "../api/api-context.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { pageRange } from "../lib/format.ts";
import { useRemote } from "./use-remote.ts";

interface Props {
  documentId: string;
  title: string | undefined;
  onOpenSection(id: string): void;
}

export function SectionOutline({ documentId, title, onOpenSection }: Props) {
  const api = useApi();
  const remote = useRemote(documentId, () => api.listSections({ documentId }));

  if (remote.kind === "loading") return <p className="muted">Loading sections…</p>;
  if (remote.kind === "failed") return <ErrorMessage error={remote.error} />;
  return (
    <nav className="outline" aria-label={`Sections of ${title ?? documentId}`} data-testid="section-outline">
      <h3>{title ?? documentId}</h3>
      {remote.value.length === 0 ? <p className="empty">This document has no sections.</p> : null}
      <ul>
        {remote.value.map((section) => (
          <li key={section.id} className={`outline-level-${Math.min(section.level, 5)}`}>
            <button type="button" className="link" data-testid="outline-item" onClick={() => onOpenSection(section.id)}>
              <span className="result-label">{section.label}</span> {section.heading !== section.label ? section.heading : ""}
              <span className="muted"> · {pageRange(section.pageStart, section.pageEnd)}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
