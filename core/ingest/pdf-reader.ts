import path from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { PDFDocumentLoadingTask, PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { ClauseGraphError } from "../model/errors.ts";
import { throwIfCancelled } from "./cancel.ts";
import { detectGutters, orderLines, orderLinesInBands } from "./column-layout.ts";
import { buildVocabulary, dehyphenate } from "./dehyphenate.ts";
import { chooseTitle } from "./document-title.ts";
import { splitFootnotes } from "./footnotes.ts";
import { guessLanguage } from "./language-guess.ts";
import type { LayoutLine } from "./layout-types.ts";
import { toTextLine } from "./layout-types.ts";
import { MAX_IMAGE_PIXELS, MAX_PAGES } from "./limits.ts";
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
import type { ParseOptions, ParsedPage } from "../model/ingest-types.ts";
import { largestImageShare } from "./ocr/image-coverage.ts";
import { estimateOcrSeconds, OcrNeededError } from "./ocr/ocr-needed.ts";
import { ocrDocumentPages } from "./ocr/ocr-document.ts";
import type { OcrPageFacts } from "../model/ocr-types.ts";
import { poolSize } from "./ocr/tesseract-pool.ts";
import { isGarbageText, TEXTLESS_PAGE_CHARS } from "./ocr/text-layer-quality.ts";

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
/**
 * A page with less text than this is checked for a page-size picture (a scan with a stamp or a
 * Bates number on it): finding out costs pdf.js an operator list, so text pages skip it.
 */
const SPARSE_TEXT_CHARS = 200;
/** A picture covering this share of the page makes a sparse-text page a scan. */
const SCAN_IMAGE_SHARE = 0.5;
const BOLD_FONT = /bold|black|heavy|semibold|demibold|extrabold|ultrabold|demi\b/i;

interface RawPage {
  number: number;
  width: number;
  height: number;
  lines: LayoutLine[];
  /** Rotated/vertical text, appended after the body. */
  extra: LayoutLine[];
  chars: number;
  paintsImages: boolean;
  /** Share of the page its largest picture covers (0 when not looked at: text pages). */
  imageShare: number;
  /** The text layer is unusable characters (text-layer-quality.ts). */
  garbage: boolean;
  /** Set when the page was read with OCR. */
  ocr?: OcrPageFacts;
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

function fontNameOf(page: PDFPageProxy, id: string): string | undefined {
  if (!page.commonObjs.has(id)) return undefined;
  const font: unknown = page.commonObjs.get(id);
  if (typeof font !== "object" || font === null || !("name" in font)) return undefined;
  return typeof font.name === "string" ? font.name : undefined;
}

class PageReader {
  /** Whether each pdfjs font id is bold; ids are per document, so this is filled once per font. */
  private readonly boldFonts = new Map<string, boolean>();

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
        throw tooComplex(this.file, {
          what: `${formatCount(content.items.length)} pieces of text`,
          limit: `the limit is ${formatCount(this.maxTextItems)} per page`,
          page: number,
        });
      }
      const styles = content.styles as Record<string, PdfjsTextStyle | undefined>;
      let operators: { fnArray: number[]; argsArray: unknown[] } | undefined;
      // Font names (hence boldness) only reach us once pdfjs builds an operator list with the
      // font: we pay for that only on pages that introduce fonts we have not seen.
      const unseen = Object.keys(styles).filter((id) => !this.boldFonts.has(id));
      if (unseen.length > 0) {
        operators = await page.getOperatorList();
        for (const id of unseen) this.boldFonts.set(id, BOLD_FONT.test(fontNameOf(page, id) ?? ""));
      }
      const items = toPageItems(content.items, styles, viewport.transform, this.boldFonts);
      let imageShare = 0;
      if (items.chars < SPARSE_TEXT_CHARS) {
        operators ??= await page.getOperatorList();
        imageShare = largestImageShare(operators.fnArray, operators.argsArray, viewport.width * viewport.height);
      }
      const lines = buildLines(items.upright, number);
      return {
        number,
        width: viewport.width,
        height: viewport.height,
        lines,
        extra: items.other.flatMap((item, i) => makeLine([item], number, -1 - i) ?? []),
        chars: items.chars,
        // A picture too small to see (a 1-pixel spacer) makes no page a scan.
        paintsImages: imageShare > 0.01,
        imageShare,
        garbage: isGarbageText(lines.map((l) => l.text).join(" ")),
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

function checkTextLayer(pages: RawPage[], file: string, warnings: string[], ocrDone: boolean): void {
  const name = path.basename(file);
  const textless = pages.filter((p) => p.chars < TEXTLESS_PAGE_CHARS);
  const scanned = textless.filter((p) => p.paintsImages).map((p) => p.number);
  if (textless.length === pages.length) {
    if (scanned.length > 0) {
      throw new ClauseGraphError(
        "NO_TEXT_LAYER",
        ocrDone
          ? `${name} has no text layer, and OCR found no recognisable text on its scanned page${scanned.length === 1 ? "" : "s"}.`
          : `${name} has no text layer: it is a scanned/image-only PDF and needs OCR before it can be imported (it was not read with OCR: --ocr never).`,
        { file },
      );
    }
    if (pages.every((p) => p.chars === 0)) {
      throw new ClauseGraphError("EMPTY", `${name} contains no text.`, { file });
    }
  } else if (scanned.length > 0) {
    warnings.push(
      ocrDone
        ? `Page(s) ${pageList(scanned)} are scanned images in which OCR found no recognisable text.`
        : `Page(s) ${pageList(scanned)} are scanned images without text: their content is missing (not read with OCR).`,
    );
  }
}

/** Pages to read with OCR in this mode: scans (or garbage text layers) in auto/ask, all in always. */
function pagesForOcr(pages: RawPage[], mode: NonNullable<ParseOptions["ocr"]>["mode"]): number[] {
  if (mode === "never") return [];
  if (mode === "always") return pages.map((p) => p.number);
  return pages.filter((p) => p.garbage || (p.paintsImages && (p.chars < TEXTLESS_PAGE_CHARS || p.imageShare >= SCAN_IMAGE_SHARE))).map((p) => p.number);
}

/**
 * Reads the pages that need it with OCR (core/ingest/ocr/), in place: their lines become the OCR
 * lines, in PDF space like any text page's. Mode "ask" stops here with NEEDS_OCR and an offer.
 */
async function readScannedPages(
  doc: PDFDocumentProxy,
  raw: RawPage[],
  file: string,
  options: ParseOptions,
  limits: ParseLimits,
  warnings: string[],
): Promise<boolean> {
  const ocr = options.ocr ?? { mode: "never" };
  const wanted = pagesForOcr(raw, ocr.mode);
  if (wanted.length === 0) return false;
  const workers = ocr.workers ?? poolSize(wanted.length, limits.childRssMb);
  if (ocr.mode === "ask") {
    throw new OcrNeededError(file, {
      pages: wanted.length,
      totalPages: raw.length,
      estimatedSeconds: estimateOcrSeconds(wanted.length, workers, ocr.secondsPerPage),
    });
  }
  options.onOcrStart?.(wanted.length);
  const run = await ocrDocumentPages(doc, wanted, {
    workers,
    file,
    ...(ocr.language === undefined ? {} : { language: ocr.language }),
    ...(ocr.cacheDir === undefined ? {} : { cacheDir: ocr.cacheDir }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onPage: (done, total) => options.onOcrPage?.(done, total),
  });
  let recognised = 0;
  for (const page of raw) {
    const text = run.pages.get(page.number);
    if (text === undefined) continue;
    page.lines = text.lines;
    page.extra = [];
    page.chars = text.lines.reduce((n, l) => n + l.text.replace(/\s/g, "").length, 0);
    // A picture without text (a photograph, a blank scan) is no OCR'd page to check: the warning
    // below names it, and it is not flagged as read at low confidence.
    if (text.lines.length === 0) continue;
    page.ocr = { confidence: text.confidence, language: run.language };
    recognised++;
  }
  // Which pages were read and how surely travels as ParsedPage.ocr (the import's OCR summary).
  if (recognised > 0 && run.cached > 0)
    warnings.push(`${run.cached} page(s) read with OCR by an earlier, interrupted or repeated import were taken from the OCR cache.`);
  return true;
}

function layoutPages(raw: RawPage[]): { pages: ParsedPage[]; bodyFontSize: number } {
  const bodyFontSize = dominantFontSize(raw);
  const kept = removeRunningHeaders(raw);
  const extras = removeRepeatedMarginText(raw.map((p) => ({ number: p.number, lines: p.extra })));
  const bodies: LayoutLine[][] = [];
  const notes: LayoutLine[][] = [];
  raw.forEach((page, i) => {
    const lines = kept[i] ?? [];
    // A scan's columns are found band by band (column-layout.ts orderLinesInBands).
    const ordered = page.ocr === undefined ? orderLines(lines, detectGutters(lines, bodyFontSize)) : orderLinesInBands(lines, bodyFontSize);
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
    ...(page.ocr === undefined ? {} : { ocr: page.ocr }),
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
    maxImageSize: MAX_IMAGE_PIXELS,
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
      throw new ClauseGraphError("TOO_LARGE", `${path.basename(file)} has ${total} pages; the limit is ${MAX_PAGES}. Split it into smaller files.`, { file });
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
    const ocrDone = await readScannedPages(doc, raw, file, options, limits, warnings);
    throwIfCancelled(options.signal, file);
    checkTextLayer(raw, file, warnings, ocrDone);
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
