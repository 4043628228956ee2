import { isPageNumber, maskedKey } from "./running-headers.ts";

// Text exported from a printed document (e.g. a Gazzetta Ufficiale supplement) keeps each page's
// header or footer as a line of its own: "— 16 —Supplemento ordinario n. 12/L alla GAZZETTA
// UFFICIALE …". Left in, it cuts sentences and pollutes search; it also marks where the printed
// page ended, the best page break such a text has. Without coordinates, what tells furniture from
// repeated body lines ("Articolo 12.", "(a)") is rhythm: furniture carries a changing number and
// comes back once per printed page, at a nearly constant distance, while headings and list markers
// come back at whatever distance the content dictates.

/** Fewer repeats than this cannot show a rhythm: a short list of "(k)" items can look regular. */
const MIN_REPEATS = 8;
/** Share of the gaps between repeats that must be close to the typical (median) gap. */
const MIN_REGULAR_SHARE = 0.8;
/** "Close to the median gap": printed pages end early at chapter ends and around tables. */
const GAP_LOW = 0.5;
const GAP_HIGH = 1.5;
/** Furniture comes once per printed page, and a printed page holds more text than this. */
const MIN_PAGE_CHARS = 1000;
/** Share of consecutive repeats whose number must go up by one when the line is only a number. */
const MIN_COUNTER_SHARE = 0.8;
/** Longer lines are prose even when they repeat. */
const MAX_FURNITURE_CHARS = 160;

interface Occurrence {
  index: number;
  /** Character offset of the line in the text, to measure gaps. */
  offset: number;
  text: string;
}

function isRegular(list: Occurrence[]): boolean {
  const gaps = list.slice(1).map((o, i) => o.offset - (list[i]?.offset ?? 0));
  const sorted = [...gaps].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  if (median < MIN_PAGE_CHARS) return false;
  const regular = gaps.filter((g) => g >= GAP_LOW * median && g <= GAP_HIGH * median).length;
  return regular >= MIN_REGULAR_SHARE * gaps.length;
}

/** A bare number ("— 16 —", "12") is a page number only when it counts up from one repeat to the next. */
function countsUp(list: Occurrence[]): boolean {
  const numbers = list.map((o) => Number.parseInt(o.text.replace(/\D+/g, " ").trim().split(" ").at(-1) ?? "", 10));
  let steps = 0;
  for (let i = 1; i < numbers.length; i++) if ((numbers[i] ?? NaN) - (numbers[i - 1] ?? NaN) === 1) steps++;
  return steps >= MIN_COUNTER_SHARE * (numbers.length - 1);
}

/** "Articolo 12.", "Section 4": one word and a number is how headings are labelled, not pages. */
function isLabel(text: string): boolean {
  return /^\p{L}+\.?\s*\d+[.:)]?$/u.test(text) && !isPageNumber(text);
}

/** Indexes of the lines that are a printed page's running header or footer. */
export function findTextFurniture(lines: readonly string[]): Set<number> {
  const byKey = new Map<string, Occurrence[]>();
  let offset = 0;
  lines.forEach((text, index) => {
    const trimmed = text.trim();
    if (/\d/.test(trimmed) && trimmed.length <= MAX_FURNITURE_CHARS) {
      const key = maskedKey(trimmed);
      const list = byKey.get(key) ?? [];
      list.push({ index, offset, text: trimmed });
      byKey.set(key, list);
    }
    offset += text.length + 1;
  });
  const furniture = new Set<number>();
  for (const list of byKey.values()) {
    if (list.length < MIN_REPEATS || list.some((o) => isLabel(o.text)) || !isRegular(list)) continue;
    if (!/\p{L}/u.test(list.map((o) => o.text.replace(/\b[ivxlc]{1,7}\b/gi, "")).join("")) && !countsUp(list)) continue;
    for (const o of list) furniture.add(o.index);
  }
  return furniture;
}
