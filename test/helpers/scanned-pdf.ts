import { createRequire } from "node:module";
import { PDFDocument } from "pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { makePdf, type FixtureLine } from "./make-pdf.ts";

// Scanned pages made at test time: each page is set in Helvetica by pdf-lib (make-pdf.ts), and the
// pages marked `scan` are then rendered by pdf.js onto an @napi-rs/canvas at 144 dpi, encoded as a
// grey PNG and put back as a page holding only that picture. The text-layer twin of every page is
// returned too: its line boxes are where the words are printed on the scan (same page size, the
// picture fills the page), so a test can check that OCR's boxes land on the right words.

export interface ScannedFixturePage {
  lines: FixtureLine[];
  /** A picture of the page without a text layer. */
  scan?: boolean;
  /** Degrees the scanned picture is turned by (a sheet fed askew). */
  skew?: number;
}

interface Canvas {
  getContext(kind: "2d"): { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void; translate(x: number, y: number): void; rotate(a: number): void; drawImage(image: unknown, x: number, y: number): void };
  encode(format: "png"): Promise<Buffer>;
}
interface CanvasModule {
  createCanvas(width: number, height: number): Canvas;
}

const SCALE = 2;

async function renderPage(pdfBytes: Uint8Array, number: number, skew: number): Promise<Buffer> {
  const canvas = createRequire(import.meta.url)("@napi-rs/canvas") as CanvasModule;
  const doc = await getDocument({ data: pdfBytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(number);
    const viewport = page.getViewport({ scale: SCALE });
    const width = Math.ceil(viewport.width);
    const height = Math.ceil(viewport.height);
    const flat = canvas.createCanvas(width, height);
    const context = flat.getContext("2d");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, height);
    type RenderParams = Parameters<typeof page.render>[0];
    await page.render({ canvasContext: context as unknown as RenderParams["canvasContext"], canvas: flat as unknown as RenderParams["canvas"], viewport }).promise;
    if (skew === 0) return flat.encode("png");
    const turned = canvas.createCanvas(width, height);
    const t = turned.getContext("2d");
    t.fillStyle = "#ffffff";
    t.fillRect(0, 0, width, height);
    t.translate(width / 2, height / 2);
    t.rotate((skew * Math.PI) / 180);
    t.translate(-width / 2, -height / 2);
    t.drawImage(flat, 0, 0);
    return turned.encode("png");
  } finally {
    await doc.destroy();
  }
}

/** The PDF with its scanned pages, and the same pages with a text layer. */
export async function scannedPdf(pages: ScannedFixturePage[], options: { title?: string } = {}): Promise<{ pdf: Uint8Array; textTwin: Uint8Array }> {
  const textTwin = await makePdf(pages.map((p) => p.lines), options.title === undefined ? {} : { title: options.title });
  const source = await PDFDocument.load(textTwin);
  const out = await PDFDocument.create();
  for (const [index, page] of pages.entries()) {
    const { width, height } = source.getPage(index).getSize();
    if (page.scan === true) {
      const png = await out.embedPng(await renderPage(textTwin, index + 1, page.skew ?? 0));
      out.addPage([width, height]).drawImage(png, { x: 0, y: 0, width, height });
    } else {
      const [copied] = await out.copyPages(source, [index]);
      if (copied !== undefined) out.addPage(copied);
    }
  }
  return { pdf: await out.save(), textTwin };
}
