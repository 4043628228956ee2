import type { Section } from "../../../core/contract/contract.ts";

interface Props {
  previous: Section | undefined;
  next: Section | undefined;
  onOpenSection(id: string): void;
}

export function SectionNav({ previous, next, onOpenSection }: Props) {
  return (
    <div className="section-nav" role="navigation" aria-label="Neighbouring sections">
      <button
        type="button"
        className="quiet small"
        data-testid="section-prev"
        disabled={previous === undefined}
        title={previous?.label}
        onClick={() => previous && onOpenSection(previous.id)}
      >
        ‹ {previous?.label ?? "Previous"}
      </button>
      <button
        type="button"
        className="quiet small"
        data-testid="section-next"
        disabled={next === undefined}
        title={next?.label}
        onClick={() => next && onOpenSection(next.id)}
      >
        {next?.label ?? "Next"} ›
      </button>
    </div>
  );
}
