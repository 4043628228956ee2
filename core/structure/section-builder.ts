import { partLabel } from "./part-label.ts";
import type { FlowLine } from "./flow.ts";
import type { AcceptedHeading } from "./heading-scanner.ts";
import type { LayoutStats } from "./layout-stats.ts";
import type { BodyPiece } from "./paragraphs.ts";
import { assemble, isParagraphBreak } from "./paragraphs.ts";
import { chunkPieces } from "./fallback-chunker.ts";
import { pathSlug, uniqueSlugger } from "./slug.ts";
import type { Section, SectionKind } from "../model/section-types.ts";

// Accepted headings + the line stream → Section records: body text with spans, hierarchy, ids.
// Oversized sections are split so no single record is too big to show, embed or quote.

export interface BuildOptions {
  /** Split sections longer than this into "(part n)" siblings. */
  maxSectionChars: number;
  /** When set (unstructured documents), bodies longer than this become chunk children. */
  chunkChars?: number;
}

interface Draft {
  kind: SectionKind;
  label: string;
  heading: string;
  parent: Draft | undefined;
  pieces: BodyPiece[];
  /** Page of the heading line, for sections whose body is empty. */
  page: number;
}

const PART_TARGET = 0.75;

function linePieces(lines: readonly FlowLine[], from: number, to: number): BodyPiece[] {
  const out: BodyPiece[] = [];
  for (let i = from; i < to; i++) {
    const f = lines[i];
    if (f !== undefined) out.push({ text: f.text, line: f.line });
  }
  return out;
}

function headingPieces(lines: readonly FlowLine[], h: AcceptedHeading, end: number): BodyPiece[] {
  const c = h.candidate;
  const first = lines[h.start];
  if (first === undefined) return [];
  if (c.titleMode === "run-in") {
    const rest = first.text.slice(c.runInPrefix ?? 0);
    return [{ text: rest, line: first.line }, ...linePieces(lines, h.start + 1, end)];
  }
  if (c.titleIsBody === true) {
    const statement = { text: first.text.replace(/^\S+\s+/, ""), line: first.line };
    return [statement, ...linePieces(lines, h.start + 1, end)];
  }
  return linePieces(lines, h.bodyStart, end);
}

function chars(pieces: readonly BodyPiece[]): number {
  return pieces.reduce((n, p) => n + p.text.length + 1, 0);
}

/** Cuts an oversized body at paragraph breaks (or, failing that, at line ends). */
function splitParts(pieces: readonly BodyPiece[], max: number, stats: LayoutStats): BodyPiece[][] {
  const target = max * PART_TARGET;
  const parts: BodyPiece[][] = [];
  let current: BodyPiece[] = [];
  let size = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece === undefined) continue;
    const prev = current[current.length - 1];
    const atBreak = prev !== undefined && isParagraphBreak(prev, piece, stats);
    if (current.length > 0 && ((size >= target && atBreak) || size + piece.text.length > max)) {
      parts.push(current);
      current = [];
      size = 0;
    }
    current.push(piece);
    size += piece.text.length + 1;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

function drafts(lines: readonly FlowLine[], headings: readonly AcceptedHeading[]): Draft[] {
  const out: Draft[] = [];
  const first = headings[0]?.start ?? lines.length;
  if (first > 0) {
    out.push({ kind: "preamble", label: "Preamble", heading: "", parent: undefined, pieces: linePieces(lines, 0, first), page: lines[0]?.line.page ?? 1 });
  }
  const byHeading: Draft[] = [];
  headings.forEach((h, i) => {
    const end = headings[i + 1]?.start ?? lines.length;
    const d: Draft = {
      kind: h.candidate.kind,
      label: h.candidate.label,
      heading: h.title,
      parent: h.parent >= 0 ? byHeading[h.parent] : undefined,
      pieces: headingPieces(lines, h, end),
      page: lines[h.start]?.line.page ?? 1,
    };
    byHeading.push(d);
    out.push(d);
  });
  return out;
}

function chunkLabel(pieces: readonly BodyPiece[], counter: Map<number, number>): { label: string; page: number } {
  const page = pieces[0]?.line.page ?? 1;
  const n = (counter.get(page) ?? 0) + 1;
  counter.set(page, n);
  return { label: `p. ${page} ¶${n}`, page };
}

function expand(all: readonly Draft[], options: BuildOptions, stats: LayoutStats): Draft[] {
  const out: Draft[] = [];
  const chunkCounter = new Map<number, number>();
  for (const d of all) {
    const size = chars(d.pieces);
    if (options.chunkChars !== undefined && size > options.chunkChars) {
      const chunks = chunkPieces(d.pieces, options.chunkChars);
      // An untitled run of text is its chunks; a titled one keeps its heading as their parent.
      let parent = d.parent;
      if (d.kind !== "preamble") {
        d.pieces = [];
        out.push(d);
        parent = d;
      }
      for (const chunk of chunks) {
        const { label, page } = chunkLabel(chunk, chunkCounter);
        out.push({ kind: "chunk", label, heading: "", parent, pieces: chunk, page });
      }
      continue;
    }
    if (size > options.maxSectionChars) {
      const parts = splitParts(d.pieces, options.maxSectionChars, stats);
      d.pieces = parts[0] ?? [];
      out.push(d);
      parts.slice(1).forEach((pieces, i) => {
        out.push({ ...d, label: partLabel(d.label, i + 2), pieces, page: pieces[0]?.line.page ?? d.page });
      });
      continue;
    }
    out.push(d);
  }
  return out;
}

export function buildSections(
  lines: readonly FlowLine[],
  headings: readonly AcceptedHeading[],
  stats: LayoutStats,
  documentId: string,
  options: BuildOptions,
): Section[] {
  const expanded = expand(drafts(lines, headings), options, stats);
  const unique = uniqueSlugger();
  const ids = new Map<Draft, Section>();
  const sections: Section[] = [];
  expanded.forEach((d, ordinal) => {
    const parent = d.parent === undefined ? undefined : ids.get(d.parent);
    const path = parent === undefined ? [d.label] : [...parent.path, d.label];
    const { text, spans } = assemble(d.pieces, stats);
    const pages = spans.map((s) => s.page);
    const section: Section = {
      id: `${documentId}:${unique(pathSlug(path))}`,
      documentId,
      ordinal,
      kind: d.kind,
      label: d.label,
      heading: d.heading,
      path,
      parentId: parent?.id ?? null,
      level: parent === undefined ? 0 : parent.level + 1,
      text,
      pageStart: Math.min(d.page, ...pages),
      pageEnd: Math.max(d.page, ...pages),
      spans,
    };
    ids.set(d, section);
    sections.push(section);
  });
  return sections;
}
