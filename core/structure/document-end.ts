import type { FlowLine } from "./flow.ts";

// Rule "a Federal Register notice ends at its filing line". The Federal Register prints notices
// one after another, and a notice's PDF (as govinfo serves it) is cut at page boundaries: its last
// page goes on with the next notice, after the filing line "[FR Doc. 2020–17221 Filed 8–5–20;
// 8:45 am]" and "BILLING CODE 4910–13–P". That text is another agency's or another product's
// notice; read as this one, its "SUMMARY:" and "DATES:" became this document's sections, cited
// under this document's name. Only the last page is looked at: a PDF holding several whole notices
// (an issue) keeps every notice before it.

/** "[FR Doc. 2020–17221 Filed 8–5–20; 8:45 am]", "[FR Doc. E9-12345 Filed …]". */
const FILING_LINE = /^\[FR Doc\.?\s+[\w–-]+\s+Filed\b[^\]]*\]?/;

/** The lines of the document, without a next notice that begins on its last page. */
export function withoutNextNotice(lines: FlowLine[]): FlowLine[] {
  const lastPage = lines.at(-1)?.line.page;
  // The last page's last filing line: the notice's own, when the PDF holds it and the next one's start.
  const end = lines.findLastIndex((l) => l.line.page === lastPage && FILING_LINE.test(l.text));
  // No filing line on the last page, or one opening the document: nothing to cut.
  return end <= 0 ? lines : lines.slice(0, end);
}
