// Sentence boundaries for chunking: a full stop, question or exclamation mark followed by a
// space and something that starts a sentence, except after abbreviations legal texts are full of
// ("Art. 5", "e.g. the", "No. 1093/2010", "U.S.C. 1320d").

const ABBREVIATIONS = new Set([
  "art",
  "artt",
  "par",
  "para",
  "paras",
  "no",
  "nos",
  "n",
  "nn",
  "p",
  "pp",
  "pag",
  "sec",
  "secs",
  "reg",
  "regs",
  "e.g",
  "i.e",
  "cf",
  "etc",
  "vs",
  "dr",
  "mr",
  "mrs",
  "ms",
  "st",
  "co",
  "inc",
  "ltd",
  "u.s",
  "u.s.c",
  "c.f.r",
  "fig",
  "figs",
  "vol",
  "ed",
  "eds",
  "approx",
  "lett",
  "cod",
  "d.lgs",
  "d.l",
  "l",
  "dpr",
  "s.p.a",
  "ss",
  "cfr",
]);

function endsWithAbbreviation(before: string): boolean {
  const m = /([\p{L}.]+)\.$/u.exec(before);
  if (m === null) return false;
  const word = (m[1] ?? "").toLowerCase();
  // Single capital initials ("R. METSOLA") and known abbreviations do not end sentences.
  return ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word);
}

/** Splits text into sentences; concatenating the result with single spaces restores the text. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  const re = /[.!?]["'’”)]?\s+(?=["'‘“(]?[\p{Lu}\d])/gu;
  let last = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const endOfMark = m.index + m[0].trimEnd().length;
    const before = text.slice(last, endOfMark);
    if (/[.]["'’”)]?$/.test(before) && endsWithAbbreviation(before.replace(/["'’”)]$/, ""))) continue;
    out.push(before.trim());
    last = m.index + m[0].length;
  }
  const tail = text.slice(last).trim();
  if (tail.length > 0) out.push(tail);
  return out;
}

export function endsSentence(text: string): boolean {
  return /[.!?:;]["'’”)]?$/.test(text.trim());
}
