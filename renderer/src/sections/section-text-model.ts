import type { Section } from "../../../core/contract/contract.ts";

// A section's text cut into paragraphs of plain, linked and marked pieces, keeping the character
// offsets the engine uses (triplet evidence and spans point into Section.text).

export interface TextPiece {
  text: string;
  /** A cross-reference: the section it names. */
  linkTo?: string;
  marked?: boolean;
}

export interface TextLink {
  start: number;
  end: number;
  sectionId: string;
}

// Labels worth linking: those a citation in running text would use, with a number. "(a)" or "1."
// would match everywhere.
const CITABLE_LABEL = /^(article|recital|annex|appendix|section|chapter|part|subpart|title|rule|§)\s*[\dIVXLC]/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Mentions of other sections of the same document by their label ("Article 6(1)" → Article 6). */
export function findCrossReferences(section: Pick<Section, "id" | "text">, siblings: readonly Pick<Section, "id" | "label">[]): TextLink[] {
  const byLabel = new Map<string, string>();
  for (const s of siblings) {
    if (s.id === section.id || !CITABLE_LABEL.test(s.label)) continue;
    const key = s.label.toLowerCase();
    if (!byLabel.has(key)) byLabel.set(key, s.id);
  }
  if (byLabel.size === 0) return [];
  const labels = [...byLabel.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  // No digit may follow, so "Article 1" does not claim "Article 12".
  const pattern = new RegExp(`(?<![\\w§])(?:${labels.join("|")})(?![\\d.]\\d|\\d)`, "gi");
  const links: TextLink[] = [];
  for (const match of section.text.matchAll(pattern)) {
    const sectionId = byLabel.get(match[0].toLowerCase());
    if (sectionId !== undefined && match.index !== undefined) links.push({ start: match.index, end: match.index + match[0].length, sectionId });
  }
  return links;
}

export interface TextCut {
  start: number;
  end: number;
  text: string;
}

/**
 * The text cut at the given offsets and at every line break, grouped into paragraphs (the "\n"
 * pieces themselves dropped, paragraphs of blanks too): the pieces a marked-up text is drawn from.
 */
export function cutParagraphs(text: string, offsets: Iterable<number>): TextCut[][] {
  const cuts = new Set<number>([0, text.length]);
  for (const at of offsets) cuts.add(Math.max(0, Math.min(text.length, at)));
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
    cuts.add(i);
    cuts.add(i + 1);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const paragraphs: TextCut[][] = [[]];
  for (let i = 0; i < points.length - 1; i++) {
    const start = points[i] ?? 0;
    const end = points[i + 1] ?? 0;
    const piece = text.slice(start, end);
    if (piece === "\n") {
      paragraphs.push([]);
      continue;
    }
    if (piece !== "") paragraphs[paragraphs.length - 1]?.push({ start, end, text: piece });
  }
  return paragraphs.filter((p) => p.some((piece) => piece.text.trim() !== ""));
}

/** Paragraphs (split at "\n") of pieces; a link is never split by the mark, the mark wins where they overlap. */
export function segmentText(text: string, links: readonly TextLink[], mark: { start: number; end: number } | null): TextPiece[][] {
  const offsets = [...links.flatMap((l) => [l.start, l.end]), ...(mark === null ? [] : [mark.start, mark.end])];
  return cutParagraphs(text, offsets).map((pieces) =>
    pieces.map(({ start, end, text: piece }) => {
      const marked = mark !== null && start >= mark.start && end <= mark.end;
      const link = links.find((l) => start >= l.start && end <= l.end);
      return { text: piece, ...(link !== undefined && !marked ? { linkTo: link.sectionId } : {}), ...(marked ? { marked } : {}) };
    }),
  );
}
