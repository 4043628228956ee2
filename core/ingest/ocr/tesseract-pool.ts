import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { ClauseGraphError } from "../../model/errors.ts";
import type { OcrLanguage } from "../../model/ocr-types.ts";
import type { PageImage } from "./page-image.ts";
import { grayPixels, strokeWidth } from "./stroke-width.ts";

// Tesseract (tesseract.js 7: the C++ engine compiled to WebAssembly, one worker thread each) with
// everything loaded from node_modules: the worker script and the wasm core from the installed
// packages (in Node, tesseract.js requires `tesseract.js-core` itself; no CDN is involved), the
// language data from @tesseract.js-data/<lang>/4.0.0_best_int (the LSTM models as integers:
// accurate, and the size the npm package ships). Never a URL: tesseract.js falls back to a CDN only
// when langPath is unset, and test/e2e/offline-guarantee.test.ts runs an OCR import under a guard
// that counts every connection attempt.
//
// The pool runs in the parsing child (core/ingest/parse-child.ts), so the engine's watchdogs bound
// its memory and time, and killing the child (cancel, breach) ends every worker with it.

/** One recognised word; coordinates in pixels of the page picture, y down. */
export interface OcrWord {
  text: string;
  /** 0–100. */
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Mean horizontal run of ink in the word's box, pixels (stroke-width.ts): bold is thicker. */
  stroke: number;
}

/** One text line as Tesseract found it (within one column block of its own layout analysis). */
export interface OcrLine {
  words: OcrWord[];
  /** The line's baseline, from (x0, y0) to (x1, y1): skewed on a rotated scan. */
  baseline: { x0: number; y0: number; x1: number; y1: number };
  /** Height of the line's text row (Tesseract's x-height + ascenders + descenders), pixels. */
  rowHeight: number;
}

export interface TesseractPool {
  readonly size: number;
  recognize(image: PageImage, language: OcrLanguage): Promise<OcrLine[]>;
  /** Ends every worker thread. */
  close(): Promise<void>;
}

/**
 * Memory of the parsing child reading scans, measured by `npm run bench:ocr` (best_int data, letter
 * pages at 144 dpi, the child's peak with one worker against two): a worker adds well under this,
 * and the margin leaves room for denser pages.
 */
const WORKER_MB = 160;
/** The parsing child with pdf.js, the document and the pictures being read, before its workers. */
const BASE_MB = 400;
const MAX_WORKERS = 4;

/**
 * Workers for `pages` pages: one per core (Tesseract is single-threaded per worker; pdf.js renders
 * in the child's main thread between pages), at most what fits the child's memory limit.
 */
export function poolSize(pages: number, childRssMb: number, cores = os.availableParallelism()): number {
  const byMemory = Math.floor((childRssMb - BASE_MB) / WORKER_MB);
  return Math.max(1, Math.min(MAX_WORKERS, cores, pages, byMemory));
}

// The subset of tesseract.js's API we use (its own typings declare a global namespace).
interface TesseractWorker {
  setParameters(params: Record<string, string>): Promise<unknown>;
  recognize(image: Uint8Array, options: Record<string, never>, output: { text: boolean; blocks: boolean }): Promise<{ data: { blocks: RawBlock[] | null } }>;
  terminate(): Promise<unknown>;
}
interface RawBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface RawBlock {
  paragraphs: Array<{
    lines: Array<{ words: Array<{ text: string; confidence: number; bbox: RawBox }>; baseline: RawBox; rowAttributes?: { rowHeight?: number }; bbox: RawBox }>;
  }>;
}
interface TesseractModule {
  createWorker(langs: string, oem: number, options: Record<string, unknown>): Promise<TesseractWorker>;
  OEM: { LSTM_ONLY: number };
}

const require = createRequire(import.meta.url);

/**
 * In the packaged desktop app these packages are unpacked beside the asar archive
 * (electron-builder.yml asarUnpack): a worker thread's script and the files it reads by path must
 * be taken from there, not from inside the archive.
 */
function unpacked(file: string): string {
  return file.replace(/app\.asar([\\/])/, "app.asar.unpacked$1");
}

/** Where the language data of `language` is installed (the package folder, never a URL). */
export function languageDataPath(language: OcrLanguage): string {
  return unpacked(path.join(path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)), "4.0.0_best_int"));
}

/** Tesseract's fully automatic page segmentation: it finds columns and lines (its default, 6, makes one block of the page). */
const PSM_AUTO = "3";

function toLines(blocks: RawBlock[] | null, image: PageImage): OcrLine[] {
  const picture = grayPixels(image);
  const lines: OcrLine[] = [];
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words
          .filter((w) => w.text.trim() !== "")
          .map((w) => ({
            text: w.text.trim(),
            confidence: w.confidence,
            x0: w.bbox.x0,
            y0: w.bbox.y0,
            x1: w.bbox.x1,
            y1: w.bbox.y1,
            stroke: strokeWidth(picture, w.bbox),
          }));
        if (words.length === 0) continue;
        const rowHeight = line.rowAttributes?.rowHeight ?? 0;
        lines.push({ words, baseline: { ...line.baseline }, rowHeight: rowHeight > 0 ? rowHeight : line.bbox.y1 - line.bbox.y0 });
      }
    }
  }
  return lines;
}

interface Slot {
  worker: TesseractWorker | null;
  language: OcrLanguage | null;
  busy: boolean;
}

export function createTesseractPool(size: number): TesseractPool {
  const tesseract = require("tesseract.js") as TesseractModule;
  const workerPath = unpacked(require.resolve("tesseract.js/src/worker-script/node/index.js"));
  const slots: Slot[] = Array.from({ length: Math.max(1, size) }, () => ({ worker: null, language: null, busy: false }));
  const waiting: Array<(slot: Slot) => void> = [];
  let closed = false;

  const acquire = (): Promise<Slot> => {
    const free = slots.find((s) => !s.busy);
    if (free !== undefined) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (slot: Slot): void => {
    const next = waiting.shift();
    if (next !== undefined) next(slot);
    else slot.busy = false;
  };

  async function ready(slot: Slot, language: OcrLanguage): Promise<TesseractWorker> {
    if (slot.worker !== null && slot.language === language) return slot.worker;
    // Each language's data is in its own package folder, and a worker reads from the folder it
    // was made with (reinitialize kept looking for ita.traineddata in the English package): a
    // worker for another language is a new worker.
    if (slot.worker !== null) {
      await slot.worker.terminate().catch(() => undefined);
      slot.worker = null;
    }
    try {
      slot.worker = await tesseract.createWorker(language, tesseract.OEM.LSTM_ONLY, {
        workerPath,
        langPath: languageDataPath(language),
        // The data is read from the package folder each time: no copy is written anywhere.
        cacheMethod: "none",
        gzip: true,
        errorHandler: () => undefined,
      });
    } catch (err) {
      slot.worker = null;
      slot.language = null;
      throw new ClauseGraphError(
        "INTERNAL",
        `The OCR engine could not start with its ${language} language data (${err instanceof Error ? err.message : String(err)}).`,
        { cause: err },
      );
    }
    slot.language = language;
    return slot.worker;
  }

  return {
    size: slots.length,
    async recognize(image, language) {
      if (closed) throw new ClauseGraphError("INTERNAL", "the OCR engine is closed");
      const slot = await acquire();
      try {
        const worker = await ready(slot, language);
        // The resolution Tesseract would otherwise guess (and print): pixels per inch of the picture.
        await worker.setParameters({ tessedit_pageseg_mode: PSM_AUTO, user_defined_dpi: String(Math.round(72 * image.scale)) });
        const result = await worker.recognize(image.pgm, {}, { text: false, blocks: true });
        return toLines(result.data.blocks, image);
      } finally {
        release(slot);
      }
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s.worker?.terminate().catch(() => undefined)));
      for (const s of slots) s.worker = null;
    },
  };
}
