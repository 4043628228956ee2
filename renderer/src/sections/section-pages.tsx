import { useEffect, useState } from "react";
import type { Section } from "../../../core/contract/contract.ts";
import { useApi } from "../api/api-context.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { PdfPage } from "./pdf-page.tsx";
import { loadPdf } from "./pdf-source.ts";
import { MAX_ZOOM, MIN_ZOOM, useDocumentZoom } from "./use-document-zoom.ts";
import type { PdfSource } from "./pdf-source.ts";

interface Props {
  section: Section;
  emphasis: { start: number; end: number } | null;
  /** Shown first when it lies within the section (a citation's page). */
  requestedPage: number | null;
}

/** The printed page(s) of a section from the original PDF, one at a time. */
export function SectionPages({ section, emphasis, requestedPage }: Props) {
  const api = useApi();
  const [source, setSource] = useState<{ documentId: string; value: PdfSource } | null>(null);
  const firstPage = firstEmphasisPage(section, emphasis) ?? pageWithin(section, requestedPage) ?? section.pageStart;
  // Paging belongs to one opening: the same section opened at another page (a second chip) starts there.
  const opening = `${section.id}@${firstPage}`;
  const [pageState, setPageState] = useState({ opening, page: firstPage });
  const page = pageState.opening === opening ? pageState.page : firstPage;
  const setPage = (next: number): void => setPageState({ opening, page: next });

  useEffect(() => {
    let current = true;
    void loadPdf(api, section.documentId).then((value) => {
      if (current) setSource({ documentId: section.documentId, value });
    });
    return () => {
      current = false;
    };
  }, [api, section.documentId]);

  const [zoom, setZoom] = useDocumentZoom(section.documentId);
  const loaded = source?.documentId === section.documentId ? source.value : null;
  if (loaded === null) return <p className="muted small pdf-loading">Loading the page…</p>;
  if (loaded.kind === "none") return null;
  if (loaded.kind === "failed") return <ErrorMessage error={loaded.error} />;
  const last = Math.max(section.pageStart, Math.min(section.pageEnd, loaded.pdf.numPages));
  const printed = (p: number): string => {
    const label = section.spans.find((s) => s.page === p)?.label;
    return label === undefined ? `Page ${p}` : `Page ${label} (PDF page ${p})`;
  };
  return (
    <div className="section-pages">
      <div className="page-nav">
        {last > section.pageStart ? (
          <button type="button" className="quiet small" disabled={page <= section.pageStart} onClick={() => setPage(page - 1)}>
            ‹ Page
          </button>
        ) : null}
        <span className="muted small" data-testid="page-indicator">
          {printed(page)}
          {last > section.pageStart ? ` · section on PDF pages ${section.pageStart}–${last}` : ""}
        </span>
        {last > section.pageStart ? (
          <button type="button" className="quiet small" disabled={page >= last} onClick={() => setPage(page + 1)}>
            Page ›
          </button>
        ) : null}
        <span className="spacer" />
        <button
          type="button"
          className="quiet small"
          data-testid="zoom-out"
          aria-label="Zoom out"
          disabled={zoom <= MIN_ZOOM}
          onClick={() => setZoom((z) => z / 1.25)}
        >
          −
        </button>
        <button type="button" className="quiet small" data-testid="zoom-fit" onClick={() => setZoom(() => MIN_ZOOM)} title="Fit the page to the pane's width">
          {zoom <= MIN_ZOOM ? "Fit width" : `${Math.round(zoom * 100)}% of width`}
        </button>
        <button
          type="button"
          className="quiet small"
          data-testid="zoom-in"
          aria-label="Zoom in"
          disabled={zoom >= MAX_ZOOM}
          onClick={() => setZoom((z) => z * 1.25)}
        >
          +
        </button>
      </div>
      <PdfPage pdf={loaded.pdf} page={page} spans={section.spans} emphasis={emphasis} zoom={zoom} />
    </div>
  );
}

/** Opening a section for its evidence shows the page that evidence is printed on. */
function firstEmphasisPage(section: Section, emphasis: { start: number; end: number } | null): number | null {
  if (emphasis === null) return null;
  return section.spans.find((s) => s.start < emphasis.end && s.end > emphasis.start)?.page ?? null;
}

function pageWithin(section: Section, page: number | null): number | null {
  return page !== null && page >= section.pageStart && page <= section.pageEnd ? page : null;
}
