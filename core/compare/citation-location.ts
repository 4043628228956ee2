import { marksLettere, PinpointTracker, pinpointFamily, printPinpoint } from "../citations/index.ts";
import { partNumber, provisionLabel } from "../structure/part-label.ts";
import type { Section } from "../model/section-types.ts";
import type { Span } from "../model/compare-schemas.ts";

// Where a matched sentence is printed, the way an auditor cites it: the provision and the
// paragraph and point it sits in ("Article 19(4)(a)", "§ 164.308(a)(6)"), the PDF page, and the
// page number printed on it when that differs.

export interface CitationLocation {
  /** "Article 19(4)(a)"; the bare label when the text numbers no paragraphs. */
  citation: string;
  paragraph: string | null;
  page: number;
  /** The page number printed on that page, when it differs from the PDF page. */
  printedPage: string | null;
}

export function locateInSection(section: Section, span: Span | null): CitationLocation {
  const at = span?.start ?? 0;
  const family = pinpointFamily(section.label);
  // Without the provision's earlier parts, a later part's markers are printed only where known.
  const tracker = new PinpointTracker({
    ...(family === undefined ? {} : { family }),
    continues: partNumber(section.label) > 1,
    text: section.text,
    lettere: marksLettere(section.label),
  });
  let paragraph: string | null = null;
  let offset = 0;
  for (const line of section.text.split("\n")) {
    const pin = tracker.line(line);
    if (at < offset + line.length + 1) {
      paragraph = pin;
      break;
    }
    offset += line.length + 1;
  }
  const printed = section.spans.find((s) => at >= s.start && at < s.end) ?? section.spans.find((s) => s.start >= at) ?? section.spans.at(-1);
  const base = provisionLabel(section.label);
  return {
    citation: paragraph === null ? base : `${base}${printPinpoint(paragraph)}`,
    paragraph,
    page: printed?.page ?? section.pageStart,
    printedPage: printed?.label !== undefined && printed.label !== String(printed.page) ? printed.label : null,
  };
}

/** "p. 41" or "p. 163 (printed 162)". */
export function pageText(location: Pick<CitationLocation, "page" | "printedPage">): string {
  return location.printedPage === null ? `p. ${location.page}` : `p. ${location.page} (printed ${location.printedPage})`;
}
