import { citationLabel, pageAt, provisionLabel } from "../citations/index.ts";
import type { AskCitation } from "../model/ask-citation.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import type { Section } from "../model/section-types.ts";

// Every row of a graph answer cites one section and the page its fact is printed on: the page of
// the character the fact starts at (a citation, a definition, a triplet's sentence, a deadline),
// with the page as printed on it when that differs (core/ingest/page-labels.ts), so a click
// opens that page and highlights that text.

/** The citation of a row: its section, the page at `span.start` (the section's first page without one), and the span to highlight. */
export function rowCitation(section: Section, document: DocumentRecord, span?: { start: number; end: number }): AskCitation {
  const at = span === undefined ? { page: section.pageStart, printed: section.spans[0]?.label ?? null } : pageAt(section, span.start);
  const citation: AskCitation = {
    key: "S1",
    sectionId: section.id,
    documentId: section.documentId,
    file: document.fileName,
    label: citationLabel({
      document,
      sectionLabel: provisionLabel(section.label),
      paragraphs: [],
      pageStart: at.page,
      pageEnd: at.page,
      printedStart: at.printed,
      printedEnd: at.printed,
    }),
    pageStart: at.page,
    pageEnd: at.page,
  };
  if (at.printed !== null) citation.printedPages = at.printed;
  if (span !== undefined && span.end > span.start && span.end <= section.text.length) citation.spans = [{ start: span.start, end: span.end }];
  return citation;
}
