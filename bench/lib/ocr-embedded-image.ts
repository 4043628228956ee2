import { OPS } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { grayPgm } from "../../core/ingest/ocr/page-image.ts";
import type { PageImage } from "../../core/ingest/ocr/page-image.ts";

// The alternative to rendering that bench:ocr measures (core/ingest/ocr/page-image.ts says why the
// engine renders): the page's largest embedded picture, decoded by pdf.js and taken as it is. Its
// scale to page space assumes the picture fills the page upright, as on the corpus's scans; the
// engine could not assume that.

interface DecodedImage {
  width: number;
  height: number;
  data?: Uint8Array | Uint8ClampedArray;
}

function isDecoded(value: unknown): value is DecodedImage {
  return typeof value === "object" && value !== null && "width" in value && "height" in value;
}

export async function embeddedPageImage(page: PDFPageProxy): Promise<PageImage | null> {
  const ops = await page.getOperatorList();
  let id: string | undefined;
  let area = 0;
  ops.fnArray.forEach((op, i) => {
    const args: unknown = ops.argsArray[i];
    if (op !== OPS.paintImageXObject || !Array.isArray(args)) return;
    const [name, width, height] = args as [unknown, unknown, unknown];
    if (typeof name === "string" && typeof width === "number" && typeof height === "number" && width * height > area) {
      id = name;
      area = width * height;
    }
  });
  if (id === undefined) return null;
  const image: unknown = await new Promise((resolve) => page.objs.get(id as string, resolve));
  if (!isDecoded(image) || image.data === undefined) return null;
  const pixels = image.width * image.height;
  const channels = image.data.length / pixels;
  if (![1, 3, 4].includes(channels)) return null;
  const viewport = page.getViewport({ scale: 1 });
  return { pgm: grayPgm(image.data, image.width, image.height, channels), width: image.width, height: image.height, scale: image.width / viewport.width };
}
