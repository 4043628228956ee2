import { OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

// How much of a page its largest image covers, from pdf.js's operator list: the image is the unit
// square under the current transformation matrix, tracked through save/restore/transform and
// form XObjects. A scanned page is one picture covering the page, often with a little real text
// on top (a Bates number, a "received" stamp, a signature field): such a page still needs OCR.

type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: readonly number[]): Matrix {
  const [a, b, c, d, e, f] = m;
  const [a2 = 1, b2 = 0, c2 = 0, d2 = 1, e2 = 0, f2 = 0] = n;
  return [a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f];
}

/** Area of the bounding box of the unit square under m. */
function unitSquareArea(m: Matrix): number {
  const [a, b, c, d, e, f] = m;
  const xs = [e, a + e, c + e, a + c + e];
  const ys = [f, b + f, d + f, b + d + f];
  return (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
}

const IMAGE_OPS = new Set<number>([
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintImageMaskXObject,
  OPS.paintImageXObjectRepeat,
  OPS.paintImageMaskXObjectRepeat,
  OPS.paintInlineImageXObjectGroup,
  OPS.paintImageMaskXObjectGroup,
  OPS.paintSolidColorImageMask,
]);

/** The share (0–1, capped) of the page area the largest image covers; 0 without images. */
export function largestImageShare(fnArray: readonly number[], argsArray: readonly unknown[], pageArea: number): number {
  let ctm: Matrix = IDENTITY;
  const stack: Matrix[] = [];
  let largest = 0;
  for (let i = 0; i < fnArray.length; i++) {
    const op = fnArray[i];
    const args = argsArray[i];
    if (op === OPS.save) {
      stack.push(ctm);
    } else if (op === OPS.restore) {
      ctm = stack.pop() ?? IDENTITY;
    } else if (op === OPS.transform && Array.isArray(args)) {
      ctm = multiply(ctm, args as number[]);
    } else if (op === OPS.paintFormXObjectBegin && Array.isArray(args)) {
      stack.push(ctm);
      const matrix: unknown = args[0];
      if (Array.isArray(matrix) && matrix.length === 6) ctm = multiply(ctm, matrix as number[]);
    } else if (op === OPS.paintFormXObjectEnd) {
      ctm = stack.pop() ?? IDENTITY;
    } else if (op !== undefined && IMAGE_OPS.has(op)) {
      largest = Math.max(largest, unitSquareArea(ctm));
    }
  }
  return pageArea > 0 ? Math.min(1, largest / pageArea) : 0;
}
