import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";
import { throwIfCancelled } from "./cancel.ts";
import { fileTitle } from "./document-title.ts";
import { guessLanguage } from "./language-guess.ts";
import { MAX_PAGES } from "./limits.ts";
import { findTextFurniture } from "./text-furniture.ts";
import { decodeText, looksBinary } from "./text-decode.ts";
import type { ParseOptions, ParsedPage, SourceFormat, TextLine } from "../model/ingest-types.ts";

// Plain text and Markdown become pseudo-pages so every later stage (sections, spans, citations
// with page numbers) works the same as for PDFs. Boxes are synthetic: line i of a page is at
// y = 12·i, so blank lines show up as vertical gaps, the paragraph signal sectioning uses.

export const TEXT_LINE_HEIGHT = 12;
export const TEXT_FONT_SIZE = 10;
const TEXT_CHAR_WIDTH = 6;
const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
/** Without page breaks, a page is cut at the first line boundary after this many characters. */
export const TEXT_PAGE_CHARS = 3000;
const MAX_FORM_FEED_PAGE_CHARS = 4 * TEXT_PAGE_CHARS;
/** Control characters other than tab, line breaks and form feed: glyph codes of a broken font. */
const CONTROL_NOT_FEED = /[\u0000-\u0008\u000b\u000e-\u001f]/u;
/** Invisible in any viewer, they would only break words for search: shown as spaces. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/gu;
const MARKDOWN_HEADING = /^(#{1,6})\s+\S/;
const MAX_TITLE_LINE = 150;

export interface TextReadResult {
  title: string;
  language: string;
  pages: ParsedPage[];
  warnings: string[];
}

/** Cuts lines into pages at the first line boundary after `TEXT_PAGE_CHARS` characters. */
function chunkLines(lines: string[]): string[][] {
  const pages: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const line of lines) {
    current.push(line);
    chars += line.length + 1;
    if (chars >= TEXT_PAGE_CHARS) {
      pages.push(current);
      current = [];
      chars = 0;
    }
  }
  if (current.length > 0) pages.push(current);
  return pages;
}

/**
 * A form feed is a page break, except inside a line that also holds other control characters:
 * there it is a glyph code of a font whose text did not extract (e.g. "D\f\x03VHUYL]L"), not a page.
 */
function pageBreakFeeds(text: string): string {
  return text.replace(/^.*\f.*$/gmu, (line) => (CONTROL_NOT_FEED.test(line) ? line.replace(/\f/g, " ") : line));
}

/**
 * Page breaks are form feeds (text exported from PDFs) and the printed pages' running headers or
 * footers, which are dropped. A "page" between breaks far longer than a printed page was not one,
 * and is cut like text without any break.
 */
function splitPages(text: string): string[][] {
  const normalized = pageBreakFeeds(text.replace(/\r\n?/g, "\n"));
  const feedPages = normalized.split("\f").map((page) => page.split("\n"));
  const furniture = findTextFurniture(feedPages.flat());
  if (feedPages.length === 1 && furniture.size === 0) return chunkLines(feedPages[0] ?? []);
  const pages: string[][] = [];
  let index = 0;
  for (const lines of feedPages) {
    let current: string[] = [];
    for (const line of lines) {
      if (furniture.has(index++)) {
        pages.push(current);
        current = [];
      } else {
        current.push(line);
      }
    }
    pages.push(current);
  }
  return pages
    .filter((page) => furniture.size === 0 || page.some((l) => l.trim().length > 0))
    .flatMap((page) => (page.reduce((n, l) => n + l.length + 1, 0) > MAX_FORM_FEED_PAGE_CHARS ? chunkLines(page) : [page]));
}

/** Markdown heading level → a font size that ranks like a PDF heading would. */
function headingSize(level: number): number {
  return TEXT_FONT_SIZE + 2 * (7 - level);
}

function toLine(raw: string, page: number, index: number, format: SourceFormat): TextLine | undefined {
  const text = raw.replace(/\t/g, "    ").replace(CONTROL, " ").replace(/\s+$/u, "");
  if (text.trim().length === 0) return undefined;
  const heading = format === "markdown" ? MARKDOWN_HEADING.exec(text) : null;
  const level = heading?.[1]?.length;
  return {
    page,
    text,
    box: { x: 0, y: index * TEXT_LINE_HEIGHT, width: text.length * TEXT_CHAR_WIDTH, height: TEXT_LINE_HEIGHT },
    fontSize: level === undefined ? TEXT_FONT_SIZE : headingSize(level),
    bold: level !== undefined,
    column: 0,
  };
}

function textTitle(pages: ParsedPage[], format: SourceFormat, file: string): string {
  const lines = pages.flatMap((p) => p.lines);
  if (format === "markdown") {
    const heading = lines.find((l) => l.bold);
    if (heading !== undefined)
      return heading.text
        .replace(/^#+\s*/, "")
        .replace(/\s+/g, " ")
        .trim();
  }
  const first = lines[0]?.text.trim();
  if (first !== undefined && first.length <= MAX_TITLE_LINE && (first.match(/\p{L}/gu) ?? []).length >= 3) {
    return first.replace(/^#+\s*/, "").replace(/\s+/g, " ");
  }
  return fileTitle(file);
}

export function readText(file: string, bytes: Uint8Array, format: SourceFormat, options: ParseOptions = {}): TextReadResult {
  if (looksBinary(bytes)) {
    throw new ClauseGraphError("UNSUPPORTED_TYPE", `${path.basename(file)} contains binary data, not text. Supported: .pdf, .txt, .md.`, { file });
  }
  const decoded = decodeText(bytes);
  const rawPages = splitPages(decoded.text.replace(/^\uFEFF/, ""));
  if (rawPages.length > MAX_PAGES) {
    throw new ClauseGraphError("TOO_LARGE", `${path.basename(file)} is too long (${rawPages.length} pages; the limit is ${MAX_PAGES}).`, { file });
  }
  const pages: ParsedPage[] = [];
  rawPages.forEach((raw, i) => {
    throwIfCancelled(options.signal, file);
    const number = i + 1;
    const lines = raw.flatMap((line, index) => toLine(line, number, index, format) ?? []);
    pages.push({
      number,
      width: PAGE_WIDTH,
      height: Math.max(PAGE_HEIGHT, raw.length * TEXT_LINE_HEIGHT),
      lines,
      footnotes: [],
    });
    options.onPage?.(number, rawPages.length);
  });
  // Trailing form feeds make empty last pages; keep page numbering stable but drop them at the end.
  while (pages.length > 1 && pages[pages.length - 1]?.lines.length === 0) pages.pop();
  if (pages.every((p) => p.lines.length === 0)) {
    throw new ClauseGraphError("EMPTY", `${path.basename(file)} contains no text.`, { file });
  }
  return {
    title: textTitle(pages, format, file),
    language: guessLanguage(pages.flatMap((p) => p.lines.map((l) => l.text))),
    pages,
    warnings: decoded.warnings,
  };
}
