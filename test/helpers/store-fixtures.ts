import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import type { Section, SectionKind } from "../../core/model/section-types.ts";

// Synthetic documents for the store tests: small, deterministic, and shaped like a regulation
// (chapters holding articles) so PART_OF/NEXT edges and search ranking have something to show.

export function tempDir(prefix = "cg-store-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function makeDocument(id: string, sections: number, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    id,
    sha256: `${id}`.padEnd(64, "0"),
    file: `/docs/${id}.pdf`,
    fileName: `${id}.pdf`,
    title: `Regulation ${id}`,
    format: "pdf",
    language: "en",
    pages: 10,
    bytes: 12345,
    sections,
    importedAt: new Date(Date.UTC(2025, 0, 1)).toISOString(),
    ...overrides,
  };
}

export interface SectionSpec {
  label: string;
  heading?: string;
  text?: string;
  kind?: SectionKind;
  path?: string[];
}

/** One chapter section, then the given sections as its children, in order. */
export function makeSections(documentId: string, specs: SectionSpec[]): Section[] {
  const chapterId = `${documentId}:chapter-i`;
  const chapter: Section = {
    id: chapterId,
    documentId,
    ordinal: 0,
    kind: "chapter",
    label: "Chapter I",
    heading: "General provisions",
    path: ["Chapter I"],
    parentId: null,
    level: 0,
    text: "",
    pageStart: 1,
    pageEnd: 1,
    spans: [],
  };
  const children = specs.map((spec, i): Section => ({
    id: `${documentId}:s${i + 1}`,
    documentId,
    ordinal: i + 1,
    kind: spec.kind ?? "article",
    label: spec.label,
    heading: spec.heading ?? "",
    path: spec.path ?? ["Chapter I", spec.label],
    parentId: chapterId,
    level: 1,
    text: spec.text ?? `Text of ${spec.label}.`,
    pageStart: i + 1,
    pageEnd: i + 2,
    spans: [{ start: 0, end: 4, page: i + 1, box: { x: 72, y: 100.5, width: 400, height: 12 } }],
  }));
  return [chapter, ...children];
}

/** `n` filler articles, for batching and volume. */
export function fillerSpecs(n: number, word = "provision"): SectionSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    label: `Article ${i + 1}`,
    heading: `Heading ${i + 1}`,
    text: `This ${word} number ${i + 1} applies to operators and competent authorities.`,
  }));
}
