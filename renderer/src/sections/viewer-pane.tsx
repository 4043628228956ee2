import { SectionOutline } from "./section-outline.tsx";
import { SectionViewer } from "./section-viewer.tsx";

export type ViewerTarget = { kind: "none" } | { kind: "section"; id: string } | { kind: "document"; id: string };

interface Props {
  target: ViewerTarget;
  titles: ReadonlyMap<string, string>;
  onOpenSection(id: string): void;
}

export function ViewerPane({ target, titles, onOpenSection }: Props) {
  return (
    <section className="pane viewer-pane" aria-labelledby="viewer-title" data-testid="section-viewer">
      <header className="pane-header">
        <h2 id="viewer-title">Section</h2>
      </header>
      {target.kind === "none" ? (
        <p className="empty">Open a search result, or a document from the library, to read it here.</p>
      ) : null}
      {target.kind === "section" ? <SectionViewer sectionId={target.id} titles={titles} /> : null}
      {target.kind === "document" ? (
        <SectionOutline documentId={target.id} title={titles.get(target.id)} onOpenSection={onOpenSection} />
      ) : null}
    </section>
  );
}
