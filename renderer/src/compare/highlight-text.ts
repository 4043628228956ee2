import { cutParagraphs } from "../sections/section-text-model.ts";

// A section's text cut into paragraphs (at "\n") of plain and highlighted pieces, for the side by
// side view: several spans may be marked at once (the matching sentences, the model's quote), each
// with its own kind; offsets are the engine's (Section.text).

export interface Highlight {
  start: number;
  end: number;
  kind: "match" | "quote";
}

export interface HighlightPiece {
  text: string;
  kind: Highlight["kind"] | null;
}

export function highlightText(text: string, highlights: readonly Highlight[]): HighlightPiece[][] {
  return cutParagraphs(
    text,
    highlights.flatMap((h) => [h.start, h.end]),
  ).map((pieces) =>
    pieces.map(({ start, end, text: piece }) => {
      // A quote outranks a match where both cover a piece: it is what the verdict rests on.
      const covering = highlights.filter((h) => start >= h.start && end <= h.end);
      const kind = covering.some((h) => h.kind === "quote") ? "quote" : covering.length > 0 ? "match" : null;
      return { text: piece, kind };
    }),
  );
}
