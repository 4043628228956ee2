import { createRequire } from "node:module";
import { PDFDocument } from "pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

// Scans made at test time from a PDF with a text layer: the pages chosen are rendered by pdf.js
// onto an @napi-rs/canvas at 144 dpi (optionally turned a little, as a sheet fed askew), encoded as
// PNG and put back as a page holding only that picture, the same size as the original. Used by the
// OCR tests (test/helpers/scanned-pdf.ts) and the offline probe's OCR import.

interface Canvas {
  getContext(kind: "2d"): {
    fillStyle: string;
    fillRect(x: number, y: number, w: number, h: number): void;
    translate(x: number, y: number): void;
    rotate(a: number): void;
    drawImage(image: unknown, x: number, y: number): void;
  };
  encode(format: "png"): Promise<Buffer>;
}
interface CanvasModule {
  createCanvas(width: number, height: number): Canvas;
}

/** 144 dpi, a common office scan. */
const SCALE = 2;

async function renderPage(pdfBytes: Uint8Array, number: number, skew: number, scale = SCALE): Promise<Buffer> {
  const canvas = createRequire(import.meta.url)("@napi-rs/canvas") as CanvasModule;
  const doc = await getDocument({ data: pdfBytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(number);
    const viewport = page.getViewport({ scale });
    const width = Math.ceil(viewport.width);
    const height = Math.ceil(viewport.height);
    const flat = canvas.createCanvas(width, height);
    const context = flat.getContext("2d");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, height);
    type RenderParams = Parameters<typeof page.render>[0];
    await page.render({ canvasContext: context as unknown as RenderParams["canvasContext"], canvas: flat as unknown as RenderParams["canvas"], viewport })
      .promise;
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

/**
 * `textPdf` with the pages `scan` picks replaced by pictures of themselves, turned by `skew`
 * degrees, at `scale` pixels per point (default 2; 0.7 is a 50 dpi fax, which OCR reads unsure).
 */
export async function scanPages(textPdf: Uint8Array, scan: (index: number) => { skew: number; scale?: number } | null): Promise<Uint8Array> {
  const source = await PDFDocument.load(textPdf);
  const out = await PDFDocument.create();
  for (let index = 0; index < source.getPageCount(); index++) {
    const { width, height } = source.getPage(index).getSize();
    const picture = scan(index);
    if (picture !== null) {
      const png = await out.embedPng(await renderPage(textPdf, index + 1, picture.skew, picture.scale));
      out.addPage([width, height]).drawImage(png, { x: 0, y: 0, width, height });
    } else {
      const [copied] = await out.copyPages(source, [index]);
      if (copied !== undefined) out.addPage(copied);
    }
  }
  return out.save();
}
