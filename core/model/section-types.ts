import type { Box } from "./ingest-types.ts";

// Structural kinds a regulation prints. The order here is not a hierarchy: sectioning decides
// nesting from what the document shows (EU: Chapter > Section > Article; CFR: Part > Subpart > §).
export const SECTION_KINDS = [
  "document",
  "preamble",
  "recital",
  "book",
  "part",
  "subpart",
  "title",
  "chapter",
  "section",
  "subsection",
  "article",
  "paragraph",
  "point",
  "rule",
  "requirement",
  "annex",
  "appendix",
  "heading",
  "chunk",
] as const;

export type SectionKind = (typeof SECTION_KINDS)[number];

/** Maps a range of a section's text to where it is printed, so the UI can highlight it. */
export interface TextSpan {
  /** Character offsets into Section.text, end exclusive. */
  start: number;
  end: number;
  page: number;
  box: Box;
  /** The page number printed on that page, when it differs from `page` (core/ingest/page-labels.ts). */
  label?: string;
  /** The page was read with OCR: its mean word confidence, 0–100 (core/ingest/ocr/). */
  ocr?: number;
}

export interface Section {
  /** Stable across re-imports of the same file: `${documentId}:${ordinal-free slug of the path}`. */
  id: string;
  documentId: string;
  /** Document order, 0-based. */
  ordinal: number;
  kind: SectionKind;
  /** The citation a lawyer would write: "Article 19", "§ 164.308", "3.1.1", "Recital 12". */
  label: string;
  /** The printed title of the section ("Reporting of major ICT-related incidents"), may be "". */
  heading: string;
  /** Labels of the ancestors then this one: ["Chapter III", "Section I", "Article 19"]. */
  path: string[];
  parentId: string | null;
  /** Depth in the hierarchy, 0 for top-level sections. */
  level: number;
  /** The body text (heading line excluded), de-hyphenated, paragraphs separated by "\n". */
  text: string;
  pageStart: number;
  pageEnd: number;
  spans: TextSpan[];
}

/**
 * What an import needs to know about the other imported documents to resolve citations into them
 * (core/graph/build-derived-graph.ts): every section's label in order, and the opening text of the
 * first few, where a CFR part names itself. Loading their full sections instead made each import
 * read the whole library's text.
 */
export interface DocumentOutline {
  id: string;
  title: string;
  /** In document order. `heading` and `text` are filled for the first OUTLINE_OPENING_SECTIONS sections only ("" after). */
  sections: Array<Pick<Section, "id" | "label" | "ordinal" | "heading" | "text">>;
}

/** How many leading sections of a document outline carry their heading and text. */
export const OUTLINE_OPENING_SECTIONS = 5;
