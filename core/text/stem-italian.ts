// The light Italian stemmer questions and sections in Italian are matched with.

/**
 * Italian suffixes, longest first, stripped once: nominalisations ("indicazione" → "indic", as
 * "indica"), participles and gerunds ("decorrenti", "decorre" → "decorr"; "durata", "dura" →
 * "dur"), infinitives, adverbs. The English stripper left "prestazione" and "prestazioni", or
 * "indica" and "indicazione", apart, and Italian questions missed the sentences that answer them.
 */
const ITALIAN_SUFFIXES = [
  "azioni",
  "azione",
  "izioni",
  "izione",
  "zioni",
  "zione",
  "amenti",
  "amento",
  "imenti",
  "imento",
  "mente",
  "ando",
  "endo",
  "enti",
  "ente",
  "anti",
  "ante",
  "ità",
  "ato",
  "ata",
  "ati",
  "ate",
  "ito",
  "ita",
  "iti",
  "ite",
  "uto",
  "uta",
  "uti",
  "ute",
  "are",
  "ere",
  "ire",
];

/** A light Italian stemmer (after Savoy's): one suffix, else the final vowel, keeping at least three letters. */
export function stemItalian(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 4 || /^\d/.test(w)) return w;
  for (const suffix of ITALIAN_SUFFIXES) if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  return /[aeiouàèéìòù]$/.test(w) ? w.slice(0, -1) : w;
}
