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

export function isPageNumber(text: string): boolean {
  const t = text.trim();
  return PAGE_NUMBER.some((re) => re.test(t));
}

type Band = "top" | "bottom" | "margin";

interface Candidate {
  page: number;
  line: LayoutLine;
  centre: number;
  band: Band;
}

/** Lines in the outer rows of the top and bottom bands of a page, with the band they are in. */
function bandLines(page: PageLines): Array<{ line: LayoutLine; band: Band }> {
  const rows = [...new Set(page.lines.map((l) => l.row))].sort((a, b) => a - b);
  const rowTop = new Map<number, number>();
  const rowBottom = new Map<number, number>();
  for (const line of page.lines) {
    rowTop.set(line.row, Math.min(rowTop.get(line.row) ?? Infinity, line.box.y));
    rowBottom.set(line.row, Math.max(rowBottom.get(line.row) ?? -Infinity, line.box.y + line.box.height));
  }
  const topRows = rows.slice(0, MAX_BAND_ROWS).filter((r) => (rowBottom.get(r) ?? Infinity) <= BAND * page.height);
  const bottomRows = rows.slice(-MAX_BAND_ROWS).filter((r) => (rowTop.get(r) ?? -Infinity) >= (1 - BAND) * page.height);
  const top = new Set(topRows);
  const bottom = new Set(bottomRows);
  return page.lines.flatMap((line): Array<{ line: LayoutLine; band: Band }> =>
    top.has(line.row) ? [{ line, band: "top" }] : bottom.has(line.row) ? [{ line, band: "bottom" }] : [],
  );
}

/**
 * Keys found on at least `needed` pages near one common height (odd/even pages share it), with the
 * bands where they repeat: a heading that shares a footer's words ("CHAPTER THREE" atop a chapter,
 * the same words in every footer of it) is in the other band and stays.
 */
function repeatedKeys(
  candidates: Candidate[],
  keyOf: (text: string) => string,
  needed: number,
  accept: (list: Candidate[]) => boolean = () => true,
): Map<string, Set<Band>> {
  const byKey = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = keyOf(c.line.text);
    const list = byKey.get(key) ?? [];
    list.push(c);
    byKey.set(key, list);
  }
  const repeated = new Map<string, Set<Band>>();
  for (const [key, list] of byKey) {
    if (key.length === 0 || new Set(list.map((c) => c.page)).size < needed) continue;
    const bands = new Set<Band>();
    for (const c of list) {
      if (bands.has(c.band)) continue;
      const near = list.filter((o) => o.band === c.band && Math.abs(o.centre - c.centre) <= Y_TOLERANCE);
      if (new Set(near.map((o) => o.page)).size >= needed && accept(near)) bands.add(c.band);
    }
    if (bands.size > 0) repeated.set(key, bands);
  }
  return repeated;
}

/**
 * A masked repeat made only of numbers and punctuation ("(10)", "12.") is page furniture only when
 * its number follows the page number (a page counter); otherwise it is a recital or paragraph
 * number that happens to open many pages at the same spot, and it is content.
 */
function tracksPageNumbers(list: Candidate[]): boolean {
  if (/\p{L}/u.test(list[0]?.line.text ?? "")) return true;
  const offsets = new Map<number, number>();
  for (const c of list) {
    const n = Number.parseInt(c.line.text.replace(/\D+/g, " ").trim().split(" ").at(-1) ?? "", 10);
    if (!Number.isFinite(n)) continue;
    offsets.set(n - c.page, (offsets.get(n - c.page) ?? 0) + 1);
  }
  const best = Math.max(0, ...offsets.values());
  return best >= 0.8 * list.length;
}

function repeatedTest(candidates: Candidate[], pageCount: number): (text: string, band: Band) => boolean {
  if (pageCount < MIN_REPEATS) return () => false;
  const exact = repeatedKeys(candidates, exactKey, Math.max(MIN_REPEATS, Math.ceil(MIN_EXACT_SHARE * pageCount)));
  const short = candidates.filter((c) => c.line.text.length <= MASKED_MAX_CHARS);
  const masked = repeatedKeys(short, maskedKey, Math.max(MIN_REPEATS, Math.ceil(MIN_MASKED_SHARE * pageCount)), tracksPageNumbers);
  return (text, band) => exact.get(exactKey(text))?.has(band) === true || (text.length <= MASKED_MAX_CHARS && masked.get(maskedKey(text))?.has(band) === true);
}

/** Removes running headers, footers and page numbers; returns the pages' remaining lines. */
export function removeRunningHeaders(pages: PageLines[]): LayoutLine[][] {
  const candidatesByPage = pages.map((page) =>
    bandLines(page).map(({ line, band }) => ({ page: page.number, line, band, centre: line.box.y + line.box.height / 2 })),
  );
  const isRepeated = repeatedTest(candidatesByPage.flat(), pages.length);
  return pages.map((page, i) => {
    const candidates = candidatesByPage[i] ?? [];
    const drop = new Set<LayoutLine>();
    const headerRows = new Set<number>();
    for (const c of candidates) {
      if (isRepeated(c.line.text, c.band) || isPageNumber(c.line.text)) {
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
    page.lines.map((line) => ({ page: page.number, line, band: "margin" as const, centre: line.box.y + line.box.height / 2 })),
  );
  const isRepeated = repeatedTest(candidates, pages.length);
  return pages.map((page) => page.lines.filter((l) => !isRepeated(l.text, "margin")));
}
