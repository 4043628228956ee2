import type { Section } from "../model/section-types.ts";

// A cited sentence names the page it is printed on, not its section's first page: answers
// (context-builder.ts) and the graph's rows (graph-query/row-citation.ts) both pin it so.

/** The PDF page a character offset of the section is printed on, with its printed number when known. */
export function pageAt(section: Section, offset: number): { page: number; printed: string | null } {
  let page = section.pageStart;
  let printed: string | null = null;
  for (const span of section.spans) {
    if (span.start > offset) break;
    page = span.page;
    printed = span.label ?? null;
  }
  const clamped = Math.min(Math.max(page, section.pageStart), Math.max(section.pageStart, section.pageEnd));
  return { page: clamped, printed: clamped === page ? printed : null };
}
