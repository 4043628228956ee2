import type { AskCitation } from "./ask-types.ts";

interface Props {
  citation: AskCitation;
  text: string;
  active: boolean;
  onOpen(): void;
}

export function CitationChip({ citation, text, active, onOpen }: Props) {
  return (
    <button
      type="button"
      className={active ? "citation-chip active" : "citation-chip"}
      data-testid="citation-chip"
      data-section-id={citation.sectionId}
      title={`Open ${citation.label} (${citation.file})`}
      onClick={onOpen}
    >
      {text}
    </button>
  );
}
