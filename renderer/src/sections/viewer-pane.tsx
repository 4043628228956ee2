import type { CitationTrail } from "../chat/citation-trail.ts";
import { CitationSteps } from "./citation-steps.tsx";
import { SectionOutline } from "./section-outline.tsx";
import { SectionViewer } from "./section-viewer.tsx";
import type { RelatedSection } from "./section-viewer.tsx";

export type ViewerTarget =
  | { kind: "none" }
  /** page: the page to show first (a citation names the page it cites, not always the section's first). */
  | { kind: "section"; id: string; emphasis?: { start: number; end: number }; page?: number; trail?: CitationTrail }
  | { kind: "document"; id: string };

interface Props {
  target: ViewerTarget;
  titles: ReadonlyMap<string, string>;
  related: RelatedSection[];
  onOpenSection(id: string): void;
  /** Opens another stop of the answer's citations (previous / next citation). */
  onOpenStop(trail: CitationTrail): void;
}

export function ViewerPane({ target, titles, related, onOpenSection, onOpenStop }: Props) {
  return (
    <section className="pane viewer-pane" aria-label="Section" data-testid="section-viewer">
      {target.kind === "none" ? <p className="empty">Open a citation, a graph node, a search result or a document from the library to read it here.</p> : null}
      {target.kind === "section" ? (
        <>
          {target.trail !== undefined && target.trail.stops.length > 1 ? <CitationSteps trail={target.trail} onOpenStop={onOpenStop} /> : null}
          <SectionViewer
            sectionId={target.id}
            emphasis={target.emphasis ?? null}
            page={target.page ?? null}
            titles={titles}
            related={related}
            onOpenSection={onOpenSection}
          />
        </>
      ) : null}
      {target.kind === "document" ? <SectionOutline documentId={target.id} title={titles.get(target.id)} onOpenSection={onOpenSection} /> : null}
    </section>
  );
}
