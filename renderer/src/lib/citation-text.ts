import type { DocumentRecord } from "../../../core/contract/contract.ts";

// Auditors cite the way lawyers write: "DORA Art. 19(4), p. 42". These helpers turn the engine's
// full titles and labels into that compact form for chips and the graph.

const LABEL_ABBREVIATIONS: [RegExp, string][] = [
  [/^Article\b/i, "Art."],
  [/^Articles\b/i, "Arts."],
  [/^Recital\b/i, "Rec."],
  [/^Paragraph\b/i, "Para."],
  [/^Section\b/i, "Sec."],
  [/^Subsection\b/i, "Subsec."],
  [/^Chapter\b/i, "Ch."],
  [/^Appendix\b/i, "App."],
];

export function shortLabel(label: string): string {
  for (const [pattern, short] of LABEL_ABBREVIATIONS) if (pattern.test(label)) return label.replace(pattern, short);
  return label;
}

// Words that never make a useful short title on their own.
const FILLER = new Set(["the", "a", "an", "of", "on", "and", "for", "to", "in", "regulation", "directive"]);

/**
 * A document's short name: an acronym the title already gives ("… (DORA)"), else a short file
 * name ("gdpr.pdf" → "GDPR"), else the first words of the title.
 */
export function shortTitle(doc: Pick<DocumentRecord, "title" | "fileName"> | undefined, fallback = "Document"): string {
  if (doc === undefined) return fallback;
  const acronym = /\(([A-Z][A-Z0-9-]{1,9})\)/.exec(doc.title);
  if (acronym?.[1] !== undefined) return acronym[1];
  const stem = doc.fileName.replace(/\.[^.]+$/, "");
  if (/^[A-Za-z][A-Za-z0-9]{1,7}$/.test(stem)) return stem.toUpperCase();
  const title = doc.title.trim() === "" ? stem : doc.title.trim();
  const words = title.split(/\s+/).filter((w) => !FILLER.has(w.toLowerCase()));
  const short = (words.length > 0 ? words : title.split(/\s+/)).slice(0, 3).join(" ");
  return short.length > 28 ? `${short.slice(0, 27)}…` : short;
}

export function pagesText(start: number, end: number): string {
  return start === end || end < start ? `p. ${start}` : `pp. ${start}–${end}`;
}

/** "DORA Art. 19(4), p. 42" */
export function citationText(docTitle: string, label: string, pageStart: number, pageEnd: number): string {
  return `${docTitle} ${shortLabel(label)}, ${pagesText(pageStart, pageEnd)}`;
}
