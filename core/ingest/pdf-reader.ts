import path from "node:path";
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { PDFDocumentLoadingTask, PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { ClauseGraphError } from "../errors.ts";
import { throwIfCancelled } from "./cancel.ts";
import { detectGutters, orderLines } from "./column-layout.ts";
import { buildVocabulary, dehyphenate } from "./dehyphenate.ts";
import { chooseTitle } from "./document-title.ts";
import { splitFootnotes } from "./footnotes.ts";
import { guessLanguage } from "./language-guess.ts";
import type { LayoutLine } from "./layout-types.ts";
import { toTextLine } from "./layout-types.ts";
import { MAX_PAGES } from "./limits.ts";
import { DEFAULT_PARSE_LIMITS } from "./parse-limits.ts";
import type { ParseLimits } from "./parse-limits.ts";
import { buildLines, makeLine } from "./line-builder.ts";
import { damagedPageError, mapOpenError } from "./pdf-errors.ts";
import type { PdfjsTextStyle } from "./pdf-page-items.ts";
import { toPageItems } from "./pdf-page-items.ts";
import { pdfjsDataDirs } from "./pdfjs-setup.ts";
import { printedPageLabels } from "./page-labels.ts";
import { removeRepeatedMarginText, removeRunningHeaders } from "./running-headers.ts";
import { formatCount, tooComplex } from "./too-complex.ts";
import type { ParseOptions, ParsedPage } from "./types.ts";

// PDF → pages of lines in reading order. Two passes: pages are read one at a time (each released
// right after), then the document-level steps that need every page run on the compact lines:
// running headers (repetition across pages), body font size, columns, footnotes, de-hyphenation.

export interface PdfReadResult {
  title: string;
  language: string;
  pageCount: number;
  pages: ParsedPage[];
  warnings: string[];
}

/** A complete PDF ends with %%EOF; a cut-off download or copy does not. */
const EOF_WINDOW = 2048;
/** Pages with fewer non-space characters than this count as having no text layer. */
const TEXTLESS_PAGE_CHARS = 10;
const BOLD_FONT = /bold|black|heavy|semibold|demibold|extrabold|ultrabold|demi\b/i;
const IMAGE_OPS = [
  "paintImageXObject",
  "paintImageXObjectRepeat",
  "paintInlineImageXObject",
  "paintInlineImageXObjectGroup",
  "paintImageMaskXObject",
  "paintImageMaskXObjectGroup",
  "paintImageMaskXObjectRepeat",
  "paintSolidColorImageMask",
];

interface RawPage {
  number: number;
  width: number;
  height: number;
  lines: LayoutLine[];
  /** Rotated/vertical text, appended after the body. */
  extra: LayoutLine[];
  chars: number;
  paintsImages: boolean;
}

function assertComplete(bytes: Uint8Array, file: string): void {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(-EOF_WINDOW);
  if (!tail.includes("%%EOF", 0, "latin1")) {
    throw new ClauseGraphError(
      "CORRUPT",
      `${path.basename(file)} is truncated or damaged (no end-of-file marker): the file was cut short. Partial documents are not imported; get a complete copy.`,
      { file },
    );
  }
}

/**
 * pdfjs refuses Node Buffers and takes ownership of (detaches) the memory it is given. A Buffer
 * that owns its whole allocation is handed over as a plain view, without a copy of a file that
 * may be hundreds of MB; the caller must not use `bytes` afterwards. Pooled slices are copied.
 */
function handOver(bytes: Uint8Array): Uint8Array {
  const ownsAll = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return ownsAll ? new Uint8Array(bytes.buffer, 0, bytes.byteLength) : new Uint8Array(bytes);
}

function imageOpCodes(): Set<number> {
  const ops: Record<string, unknown> = OPS;
  return new Set(IMAGE_OPS.map((name) => ops[name]).filter((v): v is number => typeof v === "number"));
}

function fontNameOf(page: PDFPageProxy, id: string): string | undefined {
  if (!page.commonObjs.has(id)) return undefined;
  const font: unknown = page.commonObjs.get(id);
  if (typeof font !== "object" || font === null || !("name" in font)) return undefined;
  return typeof font.name === "string" ? font.name : undefined;
}

class PageReader {
  /** Whether each pdfjs font id is bold; ids are per document, so this is filled once per font. */
  private readonly boldFonts = new Map<string, boolean>();
  private readonly imageOps = imageOpCodes();

  constructor(
    private readonly file: string,
    private readonly maxTextItems: number,
  ) {}

  async read(doc: PDFDocumentProxy, number: number): Promise<RawPage> {
    let page: PDFPageProxy;
    try {
      page = await doc.getPage(number);
    } catch (err) {
      throw damagedPageError(err, this.file, number);
    }
    try {
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      // The pre-scan counts text operators; pdf.js may split one into several items (fonts, forms).
      if (content.items.length > this.maxTextItems) {
        throw tooComplex(this.file, { what: `${formatCount(content.items.length)} pieces of text`, limit: `the limit is ${formatCount(this.maxTextItems)} per page`, page: number });
      }
      const styles = content.styles as Record<string, PdfjsTextStyle | undefined>;
      let operators: number[] | undefined;
      // Font names (hence boldness) only reach us once pdfjs builds an operator list with the
      // font: we pay for that only on pages that introduce fonts we have not seen.
      const unseen = Object.keys(styles).filter((id) => !this.boldFonts.has(id));
      if (unseen.length > 0) {
        operators = (await page.getOperatorList()).fnArray;
        for (const id of unseen) this.boldFonts.set(id, BOLD_FONT.test(fontNameOf(page, id) ?? ""));
      }
      const items = toPageItems(content.items, styles, viewport.transform, this.boldFonts);
      let paintsImages = false;
      if (items.chars < TEXTLESS_PAGE_CHARS) {
        operators ??= (await page.getOperatorList()).fnArray;
        paintsImages = operators.some((op) => this.imageOps.has(op));
      }
      return {
        number,
        width: viewport.width,
        height: viewport.height,
        lines: buildLines(items.upright, number),
        extra: items.other.flatMap((item, i) => makeLine([item], number, -1 - i) ?? []),
        chars: items.chars,
        paintsImages,
      };
    } catch (err) {
      throw damagedPageError(err, this.file, number);
    } finally {
      page.cleanup();
    }
  }
}

function dominantFontSize(pages: RawPage[]): number {
  const chars = new Map<number, number>();
  for (const page of pages) {
    for (const line of page.lines) {
      const size = Math.round(line.fontSize * 2) / 2;
      chars.set(size, (chars.get(size) ?? 0) + line.text.length);
    }
  }
  let best = 0;
  let bestChars = -1;
  for (const [size, n] of chars) {
    if (n > bestChars) {
      best = size;
      bestChars = n;
    }
  }
  return best;
}

function pageList(numbers: number[]): string {
  const shown = numbers.slice(0, 10).join(", ");
  return numbers.length > 10 ? `${shown} and ${numbers.length - 10} more` : shown;
}

function checkTextLayer(pages: RawPage[], file: string, warnings: string[]): void {
  const name = path.basename(file);
  const textless = pages.filter((p) => p.chars < TEXTLESS_PAGE_CHARS);
  const scanned = textless.filter((p) => p.paintsImages).map((p) => p.number);
  if (textless.length === pages.length) {
    if (scanned.length > 0) {
      throw new ClauseGraphError(
        "NO_TEXT_LAYER",
        `${name} has no text layer: it is a scanned/image-only PDF and needs OCR before it can be imported.`,
        { file },
      );
    }
    if (pages.every((p) => p.chars === 0)) {
      throw new ClauseGraphError("EMPTY", `${name} contains no text.`, { file });
    }
  } else if (scanned.length > 0) {
    warnings.push(`Page(s) ${pageList(scanned)} are scanned images without text: their content is missing until OCR.`);
  }
}

function layoutPages(raw: RawPage[]): { pages: ParsedPage[]; bodyFontSize: number } {
  const bodyFontSize = dominantFontSize(raw);
  const kept = removeRunningHeaders(raw);
  const extras = removeRepeatedMarginText(raw.map((p) => ({ number: p.number, lines: p.extra })));
  const bodies: LayoutLine[][] = [];
  const notes: LayoutLine[][] = [];
  raw.forEach((page, i) => {
    const lines = kept[i] ?? [];
    const ordered = orderLines(lines, detectGutters(lines, bodyFontSize));
    const split = splitFootnotes(ordered, bodyFontSize, page.height);
    bodies.push([...split.body, ...(extras[i] ?? [])]);
    notes.push(split.footnotes);
  });
  const vocab = buildVocabulary([...bodies.flat(), ...notes.flat()].map((l) => l.text));
  const body = dehyphenate(bodies, vocab);
  const footnotes = dehyphenate(notes, vocab);
  const pages = raw.map((page, i) => ({
    number: page.number,
    width: page.width,
    height: page.height,
    lines: (body[i] ?? []).map(toTextLine),
    footnotes: (footnotes[i] ?? []).map(toTextLine),
  }));
  return { pages, bodyFontSize };
}

async function openDocument(task: PDFDocumentLoadingTask, file: string, passwordGiven: boolean): Promise<PDFDocumentProxy> {
  try {
    return await task.promise;
  } catch (err) {
    throw mapOpenError(err, file, passwordGiven);
  }
}

function stringField(info: unknown, key: string): string | undefined {
  if (typeof info !== "object" || info === null || !(key in info)) return undefined;
  const value: unknown = (info as Record<string, unknown>)[key];
  return typeof value === "string" ? value : undefined;
}

/** Reads a PDF. `bytes` is consumed: pdfjs detaches its memory. */
export async function readPdf(file: string, bytes: Uint8Array, options: ParseOptions = {}, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<PdfReadResult> {
  assertComplete(bytes, file);
  const task = getDocument({
    data: handOver(bytes),
    password: options.password,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    ...pdfjsDataDirs(),
  });
  const onAbort = (): void => void task.destroy();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const doc = await openDocument(task, file, options.password !== undefined && options.password !== "");
    throwIfCancelled(options.signal, file);
    const total = doc.numPages;
    if (total > MAX_PAGES) {
      throw new ClauseGraphError(
        "TOO_LARGE",
        `${path.basename(file)} has ${total} pages; the limit is ${MAX_PAGES}. Split it into smaller files.`,
        { file },
      );
    }
    // Page 0 of N: the parsing child's watchdog then knows the page count (its time budget) and
    // names page 1 if opening it is what takes too long.
    options.onPage?.(0, total);
    const warnings: string[] = [];
    const { info } = await doc.getMetadata().catch(() => ({ info: undefined }));
    if (stringField(info, "EncryptFilterName") !== undefined && (options.password ?? "") === "") {
      warnings.push("Owner-password protected (permissions only): opened without a password.");
    }
    const reader = new PageReader(file, limits.textItemsPerPage);
    const raw: RawPage[] = [];
    for (let number = 1; number <= total; number++) {
      throwIfCancelled(options.signal, file);
      raw.push(await reader.read(doc, number));
      options.onPage?.(number, total);
    }
    throwIfCancelled(options.signal, file);
    checkTextLayer(raw, file, warnings);
    const { pages, bodyFontSize } = layoutPages(raw);
    const labels = printedPageLabels(raw, await doc.getPageLabels().catch(() => null));
    pages.forEach((page, i) => {
      const label = labels[i];
      if (label !== null && label !== undefined) page.label = label;
    });
    return {
      title: chooseTitle(stringField(info, "Title"), pages, bodyFontSize, file),
      language: guessLanguage(pages.flatMap((p) => p.lines.map((l) => l.text))),
      pageCount: total,
      pages,
      warnings,
    };
  } catch (err) {
    if (options.signal?.aborted === true) throw new ClauseGraphError("CANCELLED", "Import cancelled.", { file });
    throw err;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    await task.destroy();
  }
}
