import path from "node:path";
import type { ParsedPage, TextLine } from "../model/ingest-types.ts";

// The title shown in the library. PDF metadata is often junk ("Microsoft Word - draft3.docx",
// "Untitled", an author's initials), so it is used only when it reads like a title; otherwise the
// biggest print on the first pages; otherwise the file name, which is never empty. A Federal
// Register document's own title comes before both (federalRegisterTitle).

const MAX_TITLE_CHARS = 200;
const BOLD_BOOST = 1.15;
/** A title line is at least this much more prominent than body text. */
const MIN_PROMINENCE = 1.1;
const MIN_TITLE_LETTERS = 10;
const JUNK_TITLE = [
  /^untitled/i,
  /^microsoft (word|excel|powerpoint)/i,
  /^(document|doc|documento|file|title|titolo|senza titolo)\s*\d*$/i,
  /\.(docx?|pdf|rtf|odt|indd|qxd|txt|xlsx?|pptx?)$/i,
  /^[a-z]:\\/i,
  /^\/\S*$/,
];

export function isMeaningfulTitle(raw: string | undefined): raw is string {
  if (raw === undefined) return false;
  const title = raw.trim();
  if (title.length < 4 || title.length > 400) return false;
  if ((title.match(/\p{L}/gu) ?? []).length < 3) return false;
  return !JUNK_TITLE.some((re) => re.test(title));
}

export function fileTitle(file: string): string {
  const base = path.basename(file, path.extname(file)).trim();
  return base.length > 0 ? base : path.basename(file);
}

function clip(title: string): string {
  const t = title.replace(/\s+/g, " ").trim();
  return t.length <= MAX_TITLE_CHARS ? t : `${t.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…`;
}

/** How much a line stands out from body text: size, with bold counting as a step up. */
function prominence(line: TextLine, bodyFontSize: number): number {
  return (line.fontSize / bodyFontSize) * (line.bold ? BOLD_BOOST : 1);
}

function letters(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}

/**
 * The most prominent run of consecutive lines on the first pages, if it clearly stands out
 * from the body. Single words ("REGULATIONS", "I") are section banners, not titles.
 */
export function headingTitle(pages: ParsedPage[], bodyFontSize: number): string | undefined {
  if (!(bodyFontSize > 0)) return undefined;
  const lines = pages.slice(0, 2).flatMap((p) => p.lines);
  const runs: Array<{ text: string; score: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i] as TextLine;
    const score = prominence(first, bodyFontSize);
    if (score < MIN_PROMINENCE) continue;
    const parts = [first.text];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] as TextLine;
      const prev = lines[j - 1] as TextLine;
      const gap = line.box.y - (prev.box.y + prev.box.height);
      if (line.page !== first.page || Math.abs(prominence(line, bodyFontSize) - score) > 0.02) break;
      if (gap > 2 * prev.box.height || gap < -prev.box.height) break;
      parts.push(line.text);
    }
    const text = parts.join(" ");
    // A big bold row of figures ("TOTALE COMPLESSIVO € 756.064,24 …") is a table total, not a title.
    const wordy = letters(text) >= 0.6 * text.replace(/\s+/g, "").length;
    if (text.trim().split(/\s+/).length >= 2 && letters(text) >= MIN_TITLE_LETTERS && wordy) runs.push({ text, score });
    i = j - 1;
  }
  const best = runs.reduce<{ text: string; score: number } | undefined>((a, b) => (a === undefined || b.score > a.score ? b : a), undefined);
  return best === undefined ? undefined : clip(best.text);
}

/** Metadata titles that print nowhere on the first pages are usually a template's or producer's. */
function appearsInText(title: string, pages: ParsedPage[]): boolean {
  const words = title.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  if (words.length === 0) return false;
  const text = pages
    .slice(0, 3)
    .flatMap((p) => p.lines.map((l) => l.text))
    .join(" ")
    .toLowerCase();
  return words.filter((w) => text.includes(w)).length >= 0.6 * words.length;
}

/** A Federal Register document's caption of its issuing agency, under its title. */
const AGENCY_CAPTION = /^AGENCY:/;
/** The lines above a Federal Register title: its docket, RIN, CFR part, agency and department. */
const ABOVE_FR_TITLE = /^(?:RIN\s|\[?Docket\b|.*\]$|\d+\s+CFR\b|DEPARTMENT\b|Federal Register\b)/;
/** How many lines a Federal Register title runs to, at most. */
const MAX_FR_TITLE_LINES = 6;

/**
 * Rule "a Federal Register document is titled by the lines above its AGENCY: caption". Its first
 * page's largest print is the section banner ("Proposed Rules", "Rules and Regulations",
 * "Notices"), the same for every document of the section; the document's own title
 * ("Airworthiness Directives; The Boeing Company Airplanes") is set between its docket and RIN
 * lines and "AGENCY:".
 */
export function federalRegisterTitle(pages: ParsedPage[]): string | undefined {
  const lines = pages[0]?.lines ?? [];
  const agency = lines.findIndex((l) => AGENCY_CAPTION.test(l.text.trim()));
  if (agency < 1) return undefined;
  const title: string[] = [];
  for (let i = agency - 1; i >= 0 && title.length <= MAX_FR_TITLE_LINES; i--) {
    const text = (lines[i] as TextLine).text.trim();
    if (ABOVE_FR_TITLE.test(text)) return title.length > 0 && letters(title.join(" ")) >= MIN_TITLE_LETTERS ? clip(title.join(" ")) : undefined;
    title.unshift(text);
  }
  return undefined;
}

export function chooseTitle(metadataTitle: string | undefined, pages: ParsedPage[], bodyFontSize: number, file: string): string {
  const federalRegister = federalRegisterTitle(pages);
  if (federalRegister !== undefined) return federalRegister;
  const heading = headingTitle(pages, bodyFontSize);
  if (isMeaningfulTitle(metadataTitle) && (heading === undefined || appearsInText(metadataTitle, pages))) {
    return clip(metadataTitle);
  }
  return heading ?? fileTitle(file);
}
