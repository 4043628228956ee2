import { describe, expect, it } from "vitest";
import { toPageItems } from "../../core/ingest/pdf-page-items.ts";
import { mapSymbolFontGlyphs } from "../../core/ingest/symbol-font-glyphs.ts";

// Symbol and Wingdings bullets come out of pdf.js as Private Use Area code points (the Italian
// tender rules in the corpus have 71 of U+F0B7): mapped to the characters they draw, so a point is
// read as a list item and shown as a bullet, not a box.

describe("Symbol and Wingdings glyphs", () => {
  it("maps the bullets, the dash and the space Word prints in those fonts", () => {
    expect(mapSymbolFontGlyphs("\uF0B7 l'operatività della stessa")).toBe("• l'operatività della stessa");
    expect(mapSymbolFontGlyphs("\uF0A7 item\uF020two \uF02D three \uF0D8 four")).toBe("▪ item two - three • four");
    // Text without them, and other private-use characters, stay as they are.
    expect(mapSymbolFontGlyphs("Art. 3 – Imballi \uE001")).toBe("Art. 3 – Imballi \uE001");
  });

  it("reaches the page's text items, and a Symbol space counts as a space", () => {
    const item = (str: string, x: number) => ({ str, transform: [10, 0, 0, 10, x, 700], width: 5 * str.length, height: 10, fontName: "f1" });
    const page = toPageItems(
      [item("\uF0B7", 72), item("\uF020", 80), item("Le offerte", 90)],
      { f1: { ascent: 0.8, descent: -0.2, vertical: false } },
      [1, 0, 0, -1, 0, 800],
      new Map(),
    );
    expect(page.upright.map((i) => [i.text, i.isSpace])).toEqual([
      ["•", false],
      [" ", true],
      ["Le offerte", false],
    ]);
  });
});
