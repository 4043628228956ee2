import type { SectionRef } from "./graph-model.ts";

interface Props {
  nodeLabel: string;
  sources: SectionRef[];
  sectionLabel(sectionId: string): string;
  onOpen(ref: SectionRef): void;
  onExpand(): void;
  expanding: boolean;
}

/** Under the graph: the selected node and the sections it comes from. */
export function NodeSources({ nodeLabel, sources, sectionLabel, onOpen, onExpand, expanding }: Props) {
  return (
    <div className="node-sources" data-testid="node-sources">
      <div className="node-sources-head">
        <strong className="node-sources-title">{nodeLabel}</strong>
        <button type="button" className="quiet small" data-testid="expand-node" disabled={expanding} onClick={onExpand}>
          {expanding ? "Expanding…" : "Show neighbours"}
        </button>
      </div>
      {sources.length === 0 ? (
        <p className="muted small">No section in this graph states it.</p>
      ) : (
        <ul>
          {sources.map((ref) => (
            <li key={ref.sectionId}>
              <button type="button" className="link" data-testid="node-source" data-section-id={ref.sectionId} onClick={() => onOpen(ref)}>
                {sectionLabel(ref.sectionId)}
              </button>
              {ref.via !== "section" ? <span className="muted small"> · {ref.via}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
