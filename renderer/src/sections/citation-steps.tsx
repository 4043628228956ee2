import type { CitationTrail } from "../chat/citation-trail.ts";

interface Props {
  trail: CitationTrail;
  onOpenStop(trail: CitationTrail): void;
}

/** "‹ Previous citation · 2 of 5 · Next citation ›": steps through the cited sentences of the answer the viewer was opened from. */
export function CitationSteps({ trail, onOpenStop }: Props) {
  const { stops, index } = trail;
  const go = (to: number): void => onOpenStop({ stops, index: to });
  const here = stops[index];
  return (
    <nav className="citation-steps" aria-label="Citations of this answer" data-testid="citation-steps">
      <button type="button" className="quiet" data-testid="citation-previous" disabled={index <= 0} onClick={() => go(index - 1)}>
        ‹ Previous citation
      </button>
      <span className="muted small" data-testid="citation-position" title={here?.citation.label}>
        {index + 1} of {stops.length}
      </span>
      <button type="button" className="quiet" data-testid="citation-next" disabled={index >= stops.length - 1} onClick={() => go(index + 1)}>
        Next citation ›
      </button>
    </nav>
  );
}
