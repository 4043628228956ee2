import { SectionOutline } from "./section-outline.tsx";
import { SectionViewer } from "./section-viewer.tsx";
import type { RelatedSection } from "./section-viewer.tsx";

export type ViewerTarget =
  | { kind: "none" }
  /** page: the page to show first (a citation names the page it cites, not always the section's first). */
  | { kind: "section"; id: string; emphasis?: { start: number; end: number }; page?: number }
  | { kind: "document"; id: string };

interface Props {
  target: ViewerTarget;
  titles: ReadonlyMap<string, string>;
  related: RelatedSection[];
  onOpenSection(id: string): void;
}

export function ViewerPane({ target, titles, related, onOpenSection }: Props) {
  return (
    <section className="pane viewer-pane" aria-label="Section" data-testid="section-viewer">
      {target.kind === "none" ? (
        <p className="empty">Open a citation, a graph node, a search result or a document from the library to read it here.</p>
      ) : null}
      {target.kind === "section" ? (
        <SectionViewer sectionId={target.id} emphasis={target.emphasis ?? null} page={target.page ?? null} titles={titles} related={related} onOpenSection={onOpenSection} />
      ) : null}
      {target.kind === "document" ? (
        <SectionOutline documentId={target.id} title={titles.get(target.id)} onOpenSection={onOpenSection} />
      ) : null}
    </section>
  );
}
