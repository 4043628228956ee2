// Per-file ceilings: beyond these an import would take minutes and hundreds of MB on a 2-core
// laptop, and no real regulation is that big, so we refuse early with a clear message instead.
export const MAX_PDF_BYTES = 300 * 1024 * 1024;
export const MAX_TEXT_BYTES = 50 * 1024 * 1024;
export const MAX_PAGES = 5000;
/**
 * Images over this many pixels are not drawn when a page is rendered for OCR: no scan comes near
 * it (an A3 page at 600 dpi is about 70 million), and drawing one means decoding gigabytes into a
 * surface the canvas library cannot allocate.
 */
export const MAX_IMAGE_PIXELS = 100_000_000;

export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
