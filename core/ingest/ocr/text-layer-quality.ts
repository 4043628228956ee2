// Whether a page's text layer can be trusted, or the page should be read from its picture instead.
// A text layer is garbage when the PDF's fonts map glyphs to nothing usable: U+FFFD, private-use or
// control characters (fonts without a ToUnicode map), which is what pdf.js returns for them. Such
// pages look fine on screen and are unsearchable; OCR reads what is printed.

/** Pages with fewer non-space characters than this have no text layer to speak of. */
export const TEXTLESS_PAGE_CHARS = 10;
/** Share of unusable characters above which a text layer is garbage. */
const GARBAGE_SHARE = 0.3;
/** A page needs this many characters before its share is judged (a lone symbol is not garbage). */
const MIN_JUDGED_CHARS = 40;

const UNUSABLE = /[\uFFFD\p{Co}\p{Cc}\p{Cs}]/u;

/** True when most of the text is characters no reader can use (see above). */
export function isGarbageText(text: string): boolean {
  let total = 0;
  let bad = 0;
  for (const ch of text) {
    if (/\s/.test(ch)) continue;
    total++;
    if (UNUSABLE.test(ch)) bad++;
  }
  return total >= MIN_JUDGED_CHARS && bad > GARBAGE_SHARE * total;
}
