import type { ErrorInfo } from "../../../core/contract/contract.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import type { SectionRef } from "./graph-model.ts";

/** A section the selected node comes from (or states a fact about it), as listed under the graph. */
export interface SourceItem {
  sectionId: string;
  /** "DORA Art. 19, p. 42" or the section's label. */
  label: string;
  /** Why it is listed: the fact, the relation. */
  detail: string;
  ref: SectionRef;
}

interface Props {
  nodeLabel: string;
  /** What the node is: "entity", "term", "section". */
  kind: string;
  sources: SourceItem[];
  /** The source open in the reader. */
  current: number;
  loading: boolean;
  error: ErrorInfo | null;
  /** More sections state facts about it than are listed. */
  truncated: boolean;
  onOpen(index: number): void;
  onExpand(): void;
  expanding: boolean;
}

/**
 * Under the graph: the selected node and the sections it comes from. For an entity, every section
 * of the library that states a fact about it, with previous / next to step through them in the
 * reader (each opens on the fact's page with the fact highlighted).
 */
export function NodeSources({ nodeLabel, kind, sources, current, loading, error, truncated, onOpen, onExpand, expanding }: Props) {
  const many = sources.length > 1;
  return (
    <div className="node-sources" data-testid="node-sources" data-kind={kind} data-loading={loading ? "true" : "false"} aria-busy={loading}>
      <div className="node-sources-head">
        <strong className="node-sources-title">{nodeLabel}</strong>
        <span className="node-sources-actions">
          {many ? (
            <>
              <button
                type="button"
                className="quiet small"
                data-testid="node-source-prev"
                aria-label="Previous section"
                disabled={current <= 0}
                onClick={() => onOpen(current - 1)}
              >
                ‹ Previous
              </button>
              <span className="muted small" data-testid="node-source-position" aria-live="polite">
                {current + 1} of {sources.length}
              </span>
              <button
                type="button"
                className="quiet small"
                data-testid="node-source-next"
                aria-label="Next section"
                disabled={current >= sources.length - 1}
                onClick={() => onOpen(current + 1)}
              >
                Next ›
              </button>
            </>
          ) : null}
          <button type="button" className="quiet small" data-testid="expand-node" disabled={expanding} onClick={onExpand}>
            {expanding ? "Expanding…" : "Show neighbours"}
          </button>
        </span>
      </div>
      {kind === "entity" && !loading && error === null ? (
        <p className="muted small node-sources-note">
          {sources.length === 0
            ? "No section states a fact about it."
            : `${sources.length === 1 ? "1 section states" : `${sources.length} sections state`} a fact about it${truncated ? " (the first are listed)" : ""}.`}
        </p>
      ) : null}
      {loading ? <p className="muted small">Finding the sections that state facts about it…</p> : null}
      {error !== null ? <ErrorMessage error={error} /> : null}
      {!loading && sources.length === 0 && kind !== "entity" ? <p className="muted small">No section in this graph states it.</p> : null}
      {sources.length > 0 ? (
        <ol className="node-sources-list">
          {sources.map((item, i) => (
            <li key={item.sectionId} className={i === current ? "current" : undefined}>
              <button
                type="button"
                className="link"
                data-testid="node-source"
                data-section-id={item.sectionId}
                aria-current={i === current ? "true" : undefined}
                onClick={() => onOpen(i)}
              >
                {item.label}
              </button>
              {item.detail !== "" ? <span className="muted small"> · {item.detail}</span> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
