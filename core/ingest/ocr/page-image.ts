import { createRequire } from "node:module";
import type { PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";

// A page as the grayscale picture Tesseract reads, rendered by pdf.js onto an @napi-rs/canvas
// (0.1.x: the range pdf.js 5.6 declares; 1.1.1 segfaulted in page.render, ../shared/STACK.md).
//
// Rendering rather than decoding the page's embedded image: measured by `npm run bench:ocr` on the
// corpus's scanned HIPAA extract, rendering was a little slower than decoding the image from
// pdf.js's operator list, for practically the same text and confidence, and both are small beside
// Tesseract's own time per page (README, "OCR of scanned pages"). Rendering works for every page —
// strips or tiles of images, JBIG2/CCITT masks, vector glyphs whose text layer is garbage — and
// gives word boxes in page space by one division, while the embedded image needs its placement
// matrix and fails on all of those. The time decoding saves buys nothing worth that.

/** 144 dpi: on the HIPAA scan (150 dpi source) scale 3 was no more accurate, only slower. */
export const RENDER_SCALE = 2;
/** Bounds the picture (and Tesseract's memory) for absurd page sizes: ~A3 at 300 dpi. */
const MAX_PIXELS = 17_000_000;

export interface PageImage {
  /** A binary PGM (P5) picture: Leptonica reads it without a codec, and it costs no encoding. */
  pgm: Uint8Array;
  width: number;
  height: number;
  /** Pixels per PDF point: page coordinates = pixel coordinates / scale. */
  scale: number;
}

interface CanvasModule {
  createCanvas(
    width: number,
    height: number,
  ): {
    width: number;
    height: number;
    getContext(kind: "2d"): {
      fillStyle: string;
      fillRect(x: number, y: number, w: number, h: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
    };
  };
}

let canvasModule: CanvasModule | null = null;
function canvas(): CanvasModule {
  canvasModule ??= createRequire(import.meta.url)("@napi-rs/canvas") as CanvasModule;
  return canvasModule;
}

/** The scale for a page of this size: RENDER_SCALE, less when the picture would pass MAX_PIXELS. */
export function renderScale(width: number, height: number, wanted = RENDER_SCALE): number {
  const area = Math.max(1, width * height);
  return Math.min(wanted, Math.sqrt(MAX_PIXELS / area));
}

/** Luma of RGBA pixels (ITU-R BT.601 weights, integer arithmetic), behind a PGM header. */
export function grayPgm(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number, channels = 4): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const out = new Uint8Array(header.length + width * height);
  out.set(header, 0);
  const base = header.length;
  for (let i = 0, p = 0; i < width * height; i++, p += channels) {
    const r = rgba[p] ?? 255;
    const g = channels >= 3 ? (rgba[p + 1] ?? 255) : r;
    const b = channels >= 3 ? (rgba[p + 2] ?? 255) : r;
    out[base + i] = (r * 299 + g * 587 + b * 114 + 500) / 1000;
  }
  return out;
}

/** Renders the page (white background) and returns it as a grayscale picture. */
export async function renderPageImage(page: PDFPageProxy, wanted = RENDER_SCALE): Promise<PageImage> {
  const base = page.getViewport({ scale: 1 });
  const scale = renderScale(base.width, base.height, wanted);
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  const surface = canvas().createCanvas(width, height);
  const context = surface.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, width, height);
  // pdf.js types the context as the DOM's; @napi-rs/canvas implements the same 2-D API.
  type RenderParams = Parameters<PDFPageProxy["render"]>[0];
  await page.render({ canvasContext: context as unknown as RenderParams["canvasContext"], canvas: surface as unknown as RenderParams["canvas"], viewport })
    .promise;
  const rgba = context.getImageData(0, 0, width, height).data;
  return { pgm: grayPgm(rgba, width, height), width, height, scale };
}
