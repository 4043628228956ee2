import type { LayoutLine } from "./layout-types.ts";

// Running headers/footers ("Official Journal of the European Union", "L 333/12", "5419/16",
// "EN") and page numbers are not content: left in, they split sentences across pages and pollute
// search. A line is dropped only if it sits in the top or bottom margin band AND either repeats
// (digits normalised) at about the same height on many pages, or is a bare page number. Body text
// is never in the outermost rows of many pages at the same height with the same words, so this
// cannot eat real content the way a plain "top 10% of the page" cut would.

export interface PageLines {
  number: number;
  height: number;
  lines: LayoutLine[];
}

/** Share of the page height, from the top and from the bottom, where headers/footers live. */
const BAND = 0.12;
/** Only the outermost rows of a page can be headers or footers. */
const MAX_BAND_ROWS = 3;
const MIN_REPEATS = 3;
/** Identical text: chapter-specific running heads repeat on only part of the pages. */
const MIN_EXACT_SHARE = 0.1;
/** Same text once digits are masked ("L 333/12" ~ "L 333/13"): could be body, so be stricter. */
const MIN_MASKED_SHARE = 0.3;
/** Points a repeated header may wander vertically between pages. */
const Y_TOLERANCE = 8;
/** Masked matching only for short pieces ("L 333/12", "5419/16"): longer lines are body text. */
const MASKED_MAX_CHARS = 40;
/** Other short pieces on a header row ("DGD 2", the date) go with it. */
const COMPANION_MAX_CHARS = 40;

const PAGE_NUMBER = [
  /^[-–—]?\s*([A-Z]-)?\d{1,4}\s*[-–—]?$/,
  /^(page|pag\.?|pagina|p\.)\s*([A-Z]-)?(\d{1,4}|[ivxlc]{1,7})(\s*(of|di|\/)\s*\d{1,4})?$/i,
  /^\d{1,4}\s*(of|di|\/)\s*\d{1,4}$/i,
  /^[ivxlc]{1,7}$/i,
];

export function exactKey(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/** Masks what changes from page to page: numbers, "B-7" style page labels, roman numerals. */
export function maskedKey(text: string): string {
  return exactKey(text)
    .replace(/\b[a-z]-\d+\b/g, "#")
    .replace(/\d+/g, "#")
    .replace(/\b[ivxlc]{1,7}\b/g, "#");
}

function isPageNumber(text: string): boolean {
  const t = text.trim();
  return PAGE_NUMBER.some((re) => re.test(t));
}

interface Candidate {
  page: number;
  line: LayoutLine;
  centre: number;
}

/** Lines in the outer rows of the top and bottom bands of a page. */
function bandLines(page: PageLines): LayoutLine[] {
  const rows = [...new Set(page.lines.map((l) => l.row))].sort((a, b) => a - b);
  const rowTop = new Map<number, number>();
  const rowBottom = new Map<number, number>();
  for (const line of page.lines) {
    rowTop.set(line.row, Math.min(rowTop.get(line.row) ?? Infinity, line.box.y));
    rowBottom.set(line.row, Math.max(rowBottom.get(line.row) ?? -Infinity, line.box.y + line.box.height));
  }
  const topRows = rows.slice(0, MAX_BAND_ROWS).filter((r) => (rowBottom.get(r) ?? Infinity) <= BAND * page.height);
  const bottomRows = rows
    .slice(-MAX_BAND_ROWS)
    .filter((r) => (rowTop.get(r) ?? -Infinity) >= (1 - BAND) * page.height);
  const band = new Set([...topRows, ...bottomRows]);
  return page.lines.filter((l) => band.has(l.row));
}

/** Keys found on at least `needed` pages near one common height (odd/even pages share it). */
function repeatedKeys(candidates: Candidate[], keyOf: (text: string) => string, needed: number): Set<string> {
  const byKey = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = keyOf(c.line.text);
    const list = byKey.get(key) ?? [];
    list.push(c);
    byKey.set(key, list);
  }
  const repeated = new Set<string>();
  for (const [key, list] of byKey) {
    if (key.length === 0 || new Set(list.map((c) => c.page)).size < needed) continue;
    for (const c of list) {
      const pages = new Set(list.filter((o) => Math.abs(o.centre - c.centre) <= Y_TOLERANCE).map((o) => o.page));
      if (pages.size >= needed) {
        repeated.add(key);
        break;
      }
    }
  }
  return repeated;
}

function repeatedTest(candidates: Candidate[], pageCount: number): (text: string) => boolean {
  if (pageCount < MIN_REPEATS) return () => false;
  const exact = repeatedKeys(candidates, exactKey, Math.max(MIN_REPEATS, Math.ceil(MIN_EXACT_SHARE * pageCount)));
  const short = candidates.filter((c) => c.line.text.length <= MASKED_MAX_CHARS);
  const masked = repeatedKeys(short, maskedKey, Math.max(MIN_REPEATS, Math.ceil(MIN_MASKED_SHARE * pageCount)));
  return (text) => exact.has(exactKey(text)) || (text.length <= MASKED_MAX_CHARS && masked.has(maskedKey(text)));
}

/** Removes running headers, footers and page numbers; returns the pages' remaining lines. */
export function removeRunningHeaders(pages: PageLines[]): LayoutLine[][] {
  const candidatesByPage = pages.map((page) =>
    bandLines(page).map((line) => ({ page: page.number, line, centre: line.box.y + line.box.height / 2 })),
  );
  const isRepeated = repeatedTest(candidatesByPage.flat(), pages.length);
  return pages.map((page, i) => {
    const candidates = candidatesByPage[i] ?? [];
    const drop = new Set<LayoutLine>();
    const headerRows = new Set<number>();
    for (const c of candidates) {
      if (isRepeated(c.line.text) || isPageNumber(c.line.text)) {
        drop.add(c.line);
        headerRows.add(c.line.row);
      }
    }
    for (const c of candidates) {
      if (headerRows.has(c.line.row) && c.line.text.length <= COMPANION_MAX_CHARS) drop.add(c.line);
    }
    return page.lines.filter((l) => !drop.has(l));
  });
}

/**
 * Rotated margin text (e.g. "This publication is available free of charge from…" printed up the
 * side, or a scanner's stamp) repeated at the same place on many pages is dropped the same way.
 */
export function removeRepeatedMarginText(pages: Array<{ number: number; lines: LayoutLine[] }>): LayoutLine[][] {
  const candidates = pages.flatMap((page) =>
    page.lines.map((line) => ({ page: page.number, line, centre: line.box.y + line.box.height / 2 })),
  );
  const isRepeated = repeatedTest(candidates, pages.length);
  return pages.map((page) => page.lines.filter((l) => !isRepeated(l.text)));
}
