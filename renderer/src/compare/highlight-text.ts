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
  const cuts = new Set<number>([0, text.length]);
  for (const h of highlights) {
    cuts.add(Math.max(0, Math.min(text.length, h.start)));
    cuts.add(Math.max(0, Math.min(text.length, h.end)));
  }
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
    cuts.add(i);
    cuts.add(i + 1);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const paragraphs: HighlightPiece[][] = [[]];
  for (let i = 0; i < points.length - 1; i++) {
    const start = points[i] ?? 0;
    const end = points[i + 1] ?? 0;
    const piece = text.slice(start, end);
    if (piece === "\n") {
      paragraphs.push([]);
      continue;
    }
    if (piece === "") continue;
    // A quote outranks a match where both cover a piece: it is what the verdict rests on.
    const covering = highlights.filter((h) => start >= h.start && end <= h.end);
    const kind = covering.some((h) => h.kind === "quote") ? "quote" : covering.length > 0 ? "match" : null;
    paragraphs[paragraphs.length - 1]?.push({ text: piece, kind });
  }
  return paragraphs.filter((p) => p.some((piece) => piece.text.trim() !== ""));
}
