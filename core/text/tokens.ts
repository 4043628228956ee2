// Words as every text tool reads them: letters and digits, lower-cased, in order.

/** A run of letters or digits. */
export const WORD = /[\p{L}\p{N}]+/gu;

/** The text as a regular expression matching it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Lower-cased words of a text, in order. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) out.push(m[0]);
  return out;
}
