import { useApi } from "../api/api-context.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { pageRange } from "../lib/format.ts";
import { useRemote } from "./use-remote.ts";

interface Props {
  sectionId: string;
  titles: ReadonlyMap<string, string>;
}

export function SectionViewer({ sectionId, titles }: Props) {
  const api = useApi();
  const remote = useRemote(sectionId, () => api.getSection({ id: sectionId }));

  if (remote.kind === "loading") return <p className="muted">Loading section…</p>;
  if (remote.kind === "failed") return <ErrorMessage error={remote.error} />;
  const section = remote.value;
  const paragraphs = section.text.split("\n").filter((p) => p.trim() !== "");
  return (
    <article className="section-view" data-testid="section-view" data-section-id={section.id}>
      <nav className="breadcrumb" aria-label="Location in the document" data-testid="section-path">
        <span>{titles.get(section.documentId) ?? section.documentId}</span>
        {section.path.map((part, i) => (
          <span key={`${i}-${part}`}> › {part}</span>
        ))}
      </nav>
      <h3>
        <span data-testid="section-label">{section.label}</span>
        {section.heading !== "" && section.heading !== section.label ? <span className="section-heading"> {section.heading}</span> : null}
      </h3>
      <p className="muted" data-testid="section-pages">
        {pageRange(section.pageStart, section.pageEnd)}
      </p>
      <div className="section-text" data-testid="section-text">
        {paragraphs.length > 0 ? paragraphs.map((p, i) => <p key={i}>{p}</p>) : <p className="muted">(no body text)</p>}
      </div>
    </article>
  );
}
