import { useEffect, useState } from "react";
import type { Section } from "../../../core/contract/contract.ts";
import { useApi } from "../api/api-context.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { PdfPage } from "./pdf-page.tsx";
import { loadPdf } from "./pdf-source.ts";
import type { PdfSource } from "./pdf-source.ts";

interface Props {
  section: Section;
  emphasis: { start: number; end: number } | null;
}

/** The printed page(s) of a section from the original PDF, one at a time. */
export function SectionPages({ section, emphasis }: Props) {
  const api = useApi();
  const [source, setSource] = useState<{ documentId: string; value: PdfSource } | null>(null);
  const firstPage = firstEmphasisPage(section, emphasis) ?? section.pageStart;
  const [pageState, setPage] = useState({ sectionId: section.id, page: firstPage });
  const page = pageState.sectionId === section.id ? pageState.page : firstPage;

  useEffect(() => {
    let current = true;
    void loadPdf(api, section.documentId).then((value) => {
      if (current) setSource({ documentId: section.documentId, value });
    });
    return () => {
      current = false;
    };
  }, [api, section.documentId]);

  const loaded = source?.documentId === section.documentId ? source.value : null;
  if (loaded === null) return <p className="muted small pdf-loading">Loading the page…</p>;
  if (loaded.kind === "none") return null;
  if (loaded.kind === "failed") return <ErrorMessage error={loaded.error} />;
  const last = Math.max(section.pageStart, Math.min(section.pageEnd, loaded.pdf.numPages));
  return (
    <div className="section-pages">
      {last > section.pageStart ? (
        <div className="page-nav">
          <button type="button" className="quiet small" disabled={page <= section.pageStart} onClick={() => setPage({ sectionId: section.id, page: page - 1 })}>
            ‹ Page
          </button>
          <span className="muted small" data-testid="page-indicator">
            Page {page} (section spans {section.pageStart}–{last})
          </span>
          <button type="button" className="quiet small" disabled={page >= last} onClick={() => setPage({ sectionId: section.id, page: page + 1 })}>
            Page ›
          </button>
        </div>
      ) : null}
      <PdfPage pdf={loaded.pdf} page={page} spans={section.spans} emphasis={emphasis} />
    </div>
  );
}

/** Opening a section for its evidence shows the page that evidence is printed on. */
function firstEmphasisPage(section: Section, emphasis: { start: number; end: number } | null): number | null {
  if (emphasis === null) return null;
  return section.spans.find((s) => s.start < emphasis.end && s.end > emphasis.start)?.page ?? null;
}
