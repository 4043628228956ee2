// Word and other producers print list bullets in the Symbol and Wingdings fonts, and pdf.js gives
// their glyphs as Private Use Area code points (U+F000 + the font's byte): the Italian tender
// rules in the corpus carry 71 "\uF0B7" bullets, 13 "\uF02D" dashes, "\uF0A7" squares, an
// "\uF0D8" arrowhead and an "\uF020" space. Left as they were, a point never read as a list item
// (answers quoted "\uF0B7 l'operatività della stessa …" as a lead sentence) and the glyph showed
// as a box. Mapped here to the characters they draw, when pdf.js's text enters the engine.

const GLYPHS: ReadonlyMap<number, string> = new Map([
  [0xf020, " "],
  [0xf02d, "-"], // Symbol's minus, used as a dash bullet
  [0xf06c, "●"], // Wingdings filled circle
  [0xf06e, "▪"], // Wingdings filled square
  [0xf071, "▪"], // Wingdings square
  [0xf076, "•"], // Wingdings diamond cluster
  [0xf0a7, "▪"], // Wingdings small square
  [0xf0a8, "•"], // Symbol/Wingdings bullet variants
  [0xf0b7, "•"], // Symbol bullet
  [0xf0d8, "•"], // Wingdings arrowhead
  [0xf0e0, "•"], // Wingdings arrow
  [0xf0fc, "•"], // Wingdings check mark
]);

const PRIVATE_USE = /[\uF020-\uF0FF]/g;

/** The text with the Symbol/Wingdings bullet, dash and space glyphs pdf.js returns mapped to real characters. */
export function mapSymbolFontGlyphs(text: string): string {
  return text.replace(PRIVATE_USE, (ch) => GLYPHS.get(ch.codePointAt(0) ?? 0) ?? ch);
}
