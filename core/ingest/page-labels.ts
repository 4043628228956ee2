import type { PageLines } from "./running-headers.ts";
import { isPageNumber } from "./running-headers.ts";

// The page an auditor cites is the one printed on the paper, not the PDF's page index: the corpus
// GDPR (a Council document with a cover page) prints "53" on its 54th PDF page, so a citation
// "p. 54" sent readers to the wrong page. The printed number comes from the PDF's own page labels
// when it has them (pdf.js getPageLabels), else from the page numbers printed in the header or
// footer bands — the lines the running-header pass drops as furniture. A printed number is trusted
// only where it keeps a steady offset from the PDF page over most of the numbered pages (a "12" in
// a footer that is really a paragraph number does not); pages without one in that run take the
// offset's number, and labels equal to the PDF page are not kept (nothing to say).

/** Share of the pages a steady offset must explain before printed numbers are trusted. */
const MIN_STEADY_SHARE = 0.5;
const MIN_NUMBERED_PAGES = 3;
/** Top and bottom bands, as a share of the page height (as in running-headers.ts). */
const BAND = 0.12;

/** "53", "- 53 -", "Page 53 of 88", "p. 53", "L 333/53" → 53; null when the line prints no page number. */
export function printedNumber(text: string): number | null {
  const t = text.trim();
  if (isPageNumber(t)) {
    const digits = /(\d{1,4})(?!.*\d)/.exec(t.replace(/\s*(of|di|\/)\s*\d{1,4}$/i, ""));
    return digits ? Number.parseInt(digits[1] ?? "", 10) : null;
  }
  // Official Journal headers print "L 333/12": the issue and its page.
  const oj = /^(?:[A-Z]{1,2}\s*)?\d{1,4}\s*\/\s*(\d{1,4})$/.exec(t);
  if (oj) return Number.parseInt(oj[1] ?? "", 10);
  // A short header piece ending in its page number: "5419/16 … 53", "EN 12".
  const tail = /^(?:[^\n]{0,30}\s)?(\d{1,4})$/.exec(t);
  return t.length <= 40 && tail ? Number.parseInt(tail[1] ?? "", 10) : null;
}

/** Numbers printed in a page's header and footer bands, outermost lines first. */
function bandNumbers(page: PageLines): number[] {
  const top = page.lines.filter((l) => l.box.y + l.box.height <= BAND * page.height).sort((a, b) => a.box.y - b.box.y);
  const bottom = page.lines.filter((l) => l.box.y >= (1 - BAND) * page.height).sort((a, b) => b.box.y - a.box.y);
  const out: number[] = [];
  for (const line of [...bottom, ...top]) {
    const n = printedNumber(line.text);
    if (n !== null) out.push(n);
  }
  return out;
}

/**
 * Printed page labels per page (index i is PDF page i + 1), null where the printed page is the PDF
 * page or unknown. `fromPdf` is pdf.js's getPageLabels() result.
 */
export function printedPageLabels(pages: readonly PageLines[], fromPdf: readonly string[] | null): Array<string | null> {
  if (fromPdf !== null && fromPdf.length === pages.length) {
    const labels = fromPdf.map((l, i) => (l.trim() === "" || l.trim() === String(i + 1) ? null : l.trim()));
    if (labels.some((l) => l !== null)) return labels;
  }
  const offsets = new Map<number, number>();
  const numbersByPage = pages.map((p) => bandNumbers(p));
  numbersByPage.forEach((numbers, i) => {
    for (const n of new Set(numbers)) offsets.set(n - (i + 1), (offsets.get(n - (i + 1)) ?? 0) + 1);
  });
  let best = 0;
  let bestCount = 0;
  for (const [offset, count] of offsets) {
    if (count > bestCount || (count === bestCount && Math.abs(offset) < Math.abs(best))) {
      best = offset;
      bestCount = count;
    }
  }
  const numbered = numbersByPage.filter((n) => n.length > 0).length;
  if (best === 0 || bestCount < MIN_NUMBERED_PAGES || bestCount < MIN_STEADY_SHARE * numbered) return pages.map(() => null);
  // Pages before the printed numbering starts (a cover, a title page) print none: no label.
  const first = numbersByPage.findIndex((numbers, i) => numbers.includes(i + 1 + best));
  return pages.map((_, i) => (i < first || i + 1 + best < 1 ? null : String(i + 1 + best)));
}
