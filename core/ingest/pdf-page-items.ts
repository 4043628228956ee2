import { mapSymbolFontGlyphs } from "./symbol-font-glyphs.ts";
import type { PositionedItem } from "./layout-types.ts";

// pdfjs text items → items in top-left page coordinates. The viewport transform takes care of
// the crop box offset and page rotation, so later stages only ever see upright page space.

export interface PdfjsTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

export interface PdfjsTextStyle {
  ascent: number;
  descent: number;
  vertical: boolean;
}

export interface PageItems {
  upright: PositionedItem[];
  /** Rotated or vertical text: kept, but outside the line/column analysis. */
  other: PositionedItem[];
  /** Non-whitespace characters on the page, to tell scanned pages apart. */
  chars: number;
}

const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = 0.2;

export function isTextItem(item: unknown): item is PdfjsTextItem {
  return typeof item === "object" && item !== null && "str" in item && typeof item.str === "string" && "transform" in item && Array.isArray(item.transform);
}

/** Multiplies two 2-D affine matrices [a b c d e f]. */
function multiply(m: number[], n: number[]): number[] {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = m;
  const [a2 = 0, b2 = 0, c2 = 0, d2 = 0, e2 = 0, f2 = 0] = n;
  return [a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f];
}

function fraction(value: number | undefined, fallback: number): number {
  const v = Math.abs(value ?? NaN);
  return Number.isFinite(v) && v > 0.05 && v <= 1.2 ? v : fallback;
}

export function toPageItems(
  items: unknown[],
  styles: Record<string, PdfjsTextStyle | undefined>,
  viewportTransform: number[],
  boldFonts: ReadonlyMap<string, boolean>,
): PageItems {
  const upright: PositionedItem[] = [];
  const other: PositionedItem[] = [];
  let chars = 0;
  for (const raw of items) {
    if (!isTextItem(raw) || raw.str.length === 0) continue;
    const text = mapSymbolFontGlyphs(raw.str);
    const isSpace = text.trim().length === 0;
    chars += text.replace(/\s/g, "").length;
    const m = multiply(viewportTransform, raw.transform);
    const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = m;
    const fontSize = Math.hypot(c, d) || Math.hypot(a, b) || raw.height;
    if (!(fontSize > 0)) continue;
    const style = styles[raw.fontName];
    const item: PositionedItem = {
      text,
      x,
      baseline: y,
      width: Math.max(0, raw.width),
      fontSize,
      ascent: fraction(style?.ascent, DEFAULT_ASCENT),
      descent: fraction(style?.descent, DEFAULT_DESCENT),
      bold: boldFonts.get(raw.fontName) ?? false,
      isSpace,
    };
    const uprightText = style?.vertical !== true && a > 0 && Math.abs(b) <= 0.05 * a && Math.abs(c) <= 0.05 * Math.abs(d);
    if (uprightText) upright.push(item);
    else if (!isSpace) other.push(item);
  }
  return { upright, other, chars };
}
