import type { PageImage } from "./page-image.ts";

// Bold on a scan. Tesseract's LSTM engine reports no font attributes, yet regulations mark their
// headings in bold ("§ 164.308 Administrative safeguards." — the CFR detector requires the style,
// so a citation list like "§ 164.308, § 164.310" in running text is not taken for a heading). Bold
// type has thicker strokes: the mean length of the horizontal runs of ink inside a word's box.
// Measured on the corpus's HIPAA scan (144 dpi): the bold § headings' strokes are clearly thicker
// than any body word's. Ink is told from paper by Otsu's threshold of the page's histogram (the scan is
// grey, noisy JPEG).

export interface GrayPicture {
  pixels: Uint8Array;
  width: number;
  height: number;
  /** Pixels at or below this are ink. */
  threshold: number;
}

/** Otsu's threshold: the grey level that best separates the histogram's two classes. */
function otsu(pixels: Uint8Array): number {
  const histogram = new Float64Array(256);
  for (const p of pixels) histogram[p] = (histogram[p] ?? 0) + 1;
  const total = pixels.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * (histogram[i] ?? 0);
  let sumBackground = 0;
  let weightBackground = 0;
  let best = 0;
  let threshold = 127;
  for (let t = 0; t < 256; t++) {
    weightBackground += histogram[t] ?? 0;
    if (weightBackground === 0) continue;
    const weightForeground = total - weightBackground;
    if (weightForeground === 0) break;
    sumBackground += t * (histogram[t] ?? 0);
    const meanBackground = sumBackground / weightBackground;
    const meanForeground = (sum - sumBackground) / weightForeground;
    const between = weightBackground * weightForeground * (meanBackground - meanForeground) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** The picture's pixels behind its PGM header, with its ink threshold. */
export function grayPixels(image: PageImage): GrayPicture {
  const pixels = image.pgm.subarray(image.pgm.length - image.width * image.height);
  return { pixels, width: image.width, height: image.height, threshold: otsu(pixels) };
}

/** Mean horizontal ink run inside the box (0 when it holds no ink). */
export function strokeWidth(picture: GrayPicture, box: { x0: number; y0: number; x1: number; y1: number }): number {
  const x0 = Math.max(0, Math.floor(box.x0));
  const x1 = Math.min(picture.width, Math.ceil(box.x1));
  const y0 = Math.max(0, Math.floor(box.y0));
  const y1 = Math.min(picture.height, Math.ceil(box.y1));
  let ink = 0;
  let runs = 0;
  for (let y = y0; y < y1; y++) {
    let inRun = false;
    const row = y * picture.width;
    for (let x = x0; x < x1; x++) {
      const dark = (picture.pixels[row + x] ?? 255) <= picture.threshold;
      if (dark) {
        ink++;
        if (!inRun) runs++;
      }
      inRun = dark;
    }
  }
  return runs === 0 ? 0 : Math.round((ink / runs) * 100) / 100;
}
