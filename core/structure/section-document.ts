import type { ParsedDocument } from "../model/ingest-types.ts";
import type { Section } from "../model/section-types.ts";
import { flattenLines } from "./flow.ts";
import { withoutNextNotice } from "./document-end.ts";
import { computeLayoutStats } from "./layout-stats.ts";
import { chooseProfile } from "./profile.ts";
import { scanHeadings } from "./heading-scanner.ts";
import { buildSections } from "./section-builder.ts";
import { DEFAULT_CHUNK_CHARS } from "./fallback-chunker.ts";

// Entry point of the structure stage: the sections a lawyer would cite, in document order, each
// with its text and where every line of it is printed.

export const MAX_SECTION_CHARS = 8000;

export interface SectionOptions {
  maxSectionChars?: number;
  chunkChars?: number;
}

export function sectionDocument(doc: ParsedDocument, documentId: string, options: SectionOptions = {}): Section[] {
  const lines = withoutNextNotice(flattenLines(doc));
  if (lines.length === 0) return [];
  const stats = computeLayoutStats(doc, lines);
  const ctx = { stats, lines, language: doc.language };
  const profile = chooseProfile(lines, ctx);
  const headings = scanHeadings(lines, profile.detectors, ctx);
  const sections = buildSections(lines, headings, stats, documentId, {
    maxSectionChars: options.maxSectionChars ?? MAX_SECTION_CHARS,
    ...(profile.fallback ? { chunkChars: options.chunkChars ?? DEFAULT_CHUNK_CHARS } : {}),
  });
  // Printed page numbers travel with the spans, so a citation names the page as printed; so does
  // the OCR confidence of a scanned page, so a citation of it can say "OCR, low confidence".
  const labels = new Map(doc.pages.flatMap((p) => (p.label === undefined ? [] : [[p.number, p.label] as const])));
  const ocr = new Map(doc.pages.flatMap((p) => (p.ocr === undefined ? [] : [[p.number, p.ocr.confidence] as const])));
  if (labels.size > 0 || ocr.size > 0) {
    for (const section of sections) {
      for (const span of section.spans) {
        const label = labels.get(span.page);
        if (label !== undefined) span.label = label;
        const confidence = ocr.get(span.page);
        if (confidence !== undefined) span.ocr = confidence;
      }
    }
  }
  return sections;
}
