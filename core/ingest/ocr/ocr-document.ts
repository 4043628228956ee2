import path from "node:path";
import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { ClauseGraphError } from "../../model/errors.ts";
import { throwIfCancelled } from "../cancel.ts";
import { guessLanguage } from "../language-guess.ts";
import { ocrCacheKey, readCachedPage, writeCachedPage } from "./ocr-cache.ts";
import { ocrPageText } from "./ocr-lines.ts";
import type { OcrPageText } from "./ocr-lines.ts";
import type { OcrLanguage } from "../../model/ocr-types.ts";
import { renderPageImage } from "./page-image.ts";
import type { PageImage } from "./page-image.ts";
import { createTesseractPool } from "./tesseract-pool.ts";

// The pages of one PDF that need OCR, read by a pool of Tesseract workers while pdf.js renders the
// next pages in this thread. Language: the user's choice, or guessed from the first page read (in
// English first; pages read again in Italian when its words are Italian) and used for the others.

export interface OcrRunOptions {
  /** Set by the user; otherwise guessed from the first page. */
  language?: OcrLanguage;
  /** Where finished pages are kept (ocr-cache.ts); none when absent. */
  cacheDir?: string;
  /** Tesseract workers (tesseract-pool.ts poolSize). */
  workers: number;
  signal?: AbortSignal;
  file: string;
  /** After each page: pages done of all, and which page. */
  onPage?: (done: number, total: number, page: number) => void;
}

export interface OcrRunResult {
  pages: Map<number, OcrPageText>;
  language: OcrLanguage;
  /** Pages found in the cache, not recognised again. */
  cached: number;
}

const LANGUAGE_OF_GUESS: Record<string, OcrLanguage> = { en: "eng", it: "ita" };

export async function ocrDocumentPages(doc: PDFDocumentProxy, numbers: readonly number[], options: OcrRunOptions): Promise<OcrRunResult> {
  const pool = createTesseractPool(options.workers);
  const pages = new Map<number, OcrPageText>();
  const total = numbers.length;
  let cached = 0;

  const recognize = async (number: number, image: PageImage, language: OcrLanguage): Promise<OcrPageText> => {
    const key = options.cacheDir === undefined ? null : ocrCacheKey(image.pgm, language);
    let lines = key === null || options.cacheDir === undefined ? null : await readCachedPage(options.cacheDir, key);
    if (lines !== null) {
      cached++;
    } else {
      lines = await pool.recognize(image, language);
      // A cache that cannot be written (full disk) costs a resume its head start, not the import.
      if (key !== null && options.cacheDir !== undefined) await writeCachedPage(options.cacheDir, key, language, lines).catch(() => undefined);
    }
    return ocrPageText(lines, image.scale, number);
  };
  const render = async (number: number): Promise<PageImage> => {
    const page = await doc.getPage(number);
    try {
      return await renderPageImage(page);
    } catch (err) {
      // A page the canvas cannot draw (a surface it cannot allocate) is this file's limit, not a fault of the app.
      if (err instanceof ClauseGraphError) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      throw new ClauseGraphError("TOO_COMPLEX", `${path.basename(options.file)}: page ${number} could not be drawn for OCR (${reason}).`, {
        file: options.file,
        cause: err,
      });
    } finally {
      page.cleanup();
    }
  };
  const finish = (number: number, text: OcrPageText): void => {
    pages.set(number, text);
    options.onPage?.(pages.size, total, number);
  };

  try {
    const queue = [...numbers];
    // Every worker starts at once, in the chosen language or in English; the first page to finish
    // decides the language when the user did not. Italian then means reading again the pages
    // still being read in English (at most one per other worker), rather than every English
    // document waiting for its first page alone: on 2 cores that wait cost a third of a 3-page scan.
    let language: OcrLanguage | undefined = options.language;
    const worker = async (): Promise<void> => {
      for (let number = queue.shift(); number !== undefined; number = queue.shift()) {
        throwIfCancelled(options.signal, options.file);
        const using = language ?? "eng";
        const text = await recognize(number, await render(number), using);
        if (language === undefined) {
          language = LANGUAGE_OF_GUESS[guessLanguage(text.lines.map((l) => l.text))] ?? "eng";
        }
        // Read in English before the page that showed Italian finished: again, in Italian.
        if (language !== using) {
          queue.unshift(number);
          continue;
        }
        finish(number, text);
      }
    };
    await Promise.all(Array.from({ length: Math.min(pool.size, Math.max(1, queue.length)) }, worker));
    return { pages, language: language ?? "eng", cached };
  } finally {
    await pool.close();
  }
}
