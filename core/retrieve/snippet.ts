import { WORD } from "../text/index.ts";

// A result's text is a window of the section around the densest cluster of query terms, so the
// reader sees why it matched without opening the section.

function terms(query: string): Set<string> {
  const out = new Set<string>();
  for (const m of query.toLowerCase().matchAll(WORD)) {
    if (m[0].length >= 3) out.add(m[0]);
  }
  return out;
}

/** Matches a term by shared prefix, so "notify" highlights "notification" (porter-like, cheap). */
function matchesAny(word: string, queryTerms: Set<string>): boolean {
  const w = word.toLowerCase();
  for (const t of queryTerms) {
    const stem = t.slice(0, Math.max(4, Math.min(t.length, 6)));
    if (w.startsWith(stem) || t.startsWith(w.slice(0, Math.max(4, w.length)))) return true;
  }
  return false;
}

export function makeSnippet(text: string, query: string, maxChars = 320): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= maxChars) return flat;
  const queryTerms = terms(query);
  const hits: number[] = [];
  if (queryTerms.size > 0) {
    for (const m of flat.matchAll(WORD)) {
      if (m.index !== undefined && matchesAny(m[0], queryTerms)) hits.push(m.index);
    }
  }
  let bestStart = 0;
  if (hits.length > 0) {
    // Slide a window over the hit positions and keep the one covering the most hits.
    let best = 0;
    let j = 0;
    for (let i = 0; i < hits.length; i++) {
      const from = hits[i] ?? 0;
      while (j < hits.length && (hits[j] ?? 0) < from + maxChars) j++;
      if (j - i > best) {
        best = j - i;
        bestStart = Math.max(0, from - Math.floor(maxChars / 5));
      }
    }
  }
  let start = bestStart;
  if (start > 0) {
    const space = flat.indexOf(" ", start);
    start = space >= 0 && space - start < 20 ? space + 1 : start;
  }
  let end = Math.min(flat.length, start + maxChars);
  if (end < flat.length) {
    const space = flat.lastIndexOf(" ", end);
    end = space > start ? space : end;
  }
  return `${start > 0 ? "… " : ""}${flat.slice(start, end)}${end < flat.length ? " …" : ""}`;
}
