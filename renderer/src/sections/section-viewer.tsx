import { useEffect, useMemo, useState } from "react";
import type { Result, Section } from "../../../core/contract/contract.ts";
import { useApi } from "../api/api-context.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { pageRange } from "../lib/format.ts";
import { loadDocumentSections } from "./document-sections.ts";
import { SectionNav } from "./section-nav.tsx";
import { SectionPages } from "./section-pages.tsx";
import { SectionText } from "./section-text.tsx";
import { findCrossReferences, segmentText } from "./section-text-model.ts";
import { useRemote } from "./use-remote.ts";

export interface RelatedSection {
  sectionId: string;
  label: string;
  via: string;
}

interface Props {
  sectionId: string;
  emphasis: { start: number; end: number } | null;
  /** The page to show first, when the caller knows better than the section's first page. */
  page: number | null;
  titles: ReadonlyMap<string, string>;
  /** Sections linked to this one in the current graph (citations, shared terms). */
  related: RelatedSection[];
  onOpenSection(id: string): void;
}

export function SectionViewer({ sectionId, emphasis, page, titles, related, onOpenSection }: Props) {
  const api = useApi();
  const remote = useRemote(sectionId, () => api.getSection({ id: sectionId }));
  const documentId = remote.kind === "ready" ? remote.value.documentId : null;
  const [siblings, setSiblings] = useState<{ documentId: string; result: Result<Section[]> } | null>(null);

  useEffect(() => {
    if (documentId === null) return;
    let current = true;
    void loadDocumentSections(api, documentId).then((result) => {
      if (current) setSiblings({ documentId, result });
    });
    return () => {
      current = false;
    };
  }, [api, documentId]);

  const all = siblings !== null && siblings.documentId === documentId && siblings.result.ok ? siblings.result.value : [];
  const section = remote.kind === "ready" ? remote.value : null;
  const paragraphs = useMemo(
    () => (section === null ? [] : segmentText(section.text, findCrossReferences(section, all), emphasis)),
    // emphasis is compared by value: a fresh object with the same range must not re-segment.
    [section, all, emphasis?.start, emphasis?.end],
  );

  if (remote.kind === "loading") return <p className="muted">Loading section…</p>;
  if (remote.kind === "failed" || section === null) return remote.kind === "failed" ? <ErrorMessage error={remote.error} /> : null;
  const index = all.findIndex((s) => s.id === section.id);
  const labelOf = (id: string): string => all.find((s) => s.id === id)?.label ?? id;
  const others = related.filter((r) => r.sectionId !== section.id);

  return (
    <article className="section-view" data-testid="section-view" data-section-id={section.id}>
      <nav className="breadcrumb" aria-label="Location in the document" data-testid="section-path">
        <span>{titles.get(section.documentId) ?? section.documentId}</span>
        {section.path.map((part, i) => (
          <span key={`${i}-${part}`}> › {part}</span>
        ))}
      </nav>
      <div className="section-title-row">
        <h3>
          <span data-testid="section-label">{section.label}</span>
          {section.heading !== "" && section.heading !== section.label ? <span className="section-heading"> {section.heading}</span> : null}
        </h3>
        <span className="page-badge" data-testid="section-pages">
          {pageRange(section.pageStart, section.pageEnd)}
        </span>
      </div>
      <SectionNav previous={index > 0 ? all[index - 1] : undefined} next={index >= 0 ? all[index + 1] : undefined} onOpenSection={onOpenSection} />
      <SectionPages section={section} emphasis={emphasis} requestedPage={page} />
      <SectionText paragraphs={paragraphs} labelOf={labelOf} onOpenSection={onOpenSection} />
      {others.length > 0 ? (
        <section className="related" aria-label="Related sections" data-testid="related-sections">
          <h4>Related in the graph</h4>
          <ul>
            {others.map((r) => (
              <li key={r.sectionId}>
                <button type="button" className="link" onClick={() => onOpenSection(r.sectionId)}>
                  {r.label}
                </button>
                <span className="muted small"> · {r.via}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
