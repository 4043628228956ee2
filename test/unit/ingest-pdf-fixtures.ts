import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { PDFDocument, StandardFonts } from "pdf-lib";

// Small PDFs written with pdf-lib from text we control, so layout tests need no shared corpus.
// Coordinates are given top-left (like the ParsedDocument boxes) and flipped for PDF space.

export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;

export interface FixtureText {
  text: string;
  x: number;
  /** Baseline, measured from the top of the page. */
  y: number;
  size?: number;
  bold?: boolean;
}

export interface FixtureOptions {
  title?: string;
  /** Draw a grey image on these pages (1-based), e.g. to imitate a scan. */
  imagePages?: number[];
}

export class FixtureDir {
  readonly dir = mkdtempSync(path.join(tmpdir(), "cg-ingest-"));

  file(name: string, content: Uint8Array | string): string {
    const file = path.join(this.dir, name);
    writeFileSync(file, content);
    return file;
  }

  async pdf(name: string, pages: FixtureText[][], options: FixtureOptions = {}): Promise<string> {
    return this.file(name, await buildPdf(pages, options));
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A valid 8×8 grey PNG, built by hand so no image file is needed. */
export function tinyPng(): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer): number => {
    let c = 0xffffffff;
    for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(8, 0);
  ihdr.writeUInt32BE(8, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc(8 * 9, 0x80);
  for (let r = 0; r < 8; r++) rows[r * 9] = 0; // filter byte per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export async function buildPdf(pages: FixtureText[][], options: FixtureOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  if (options.title !== undefined) doc.setTitle(options.title);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const image = options.imagePages === undefined ? undefined : await doc.embedPng(tinyPng());
  pages.forEach((texts, i) => {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    if (image !== undefined && options.imagePages?.includes(i + 1) === true) {
      page.drawImage(image, { x: 50, y: 50, width: 500, height: 700 });
    }
    for (const t of texts) {
      page.drawText(t.text, { x: t.x, y: PAGE_HEIGHT - t.y, size: t.size ?? 10, font: t.bold === true ? bold : regular });
    }
  });
  return doc.save();
}

/** Lines of prose at a fixed leading, one fixture text each. */
export function column(lines: string[], x: number, top: number, size = 10, leading = 14): FixtureText[] {
  return lines.map((text, i) => ({ text, x, y: top + i * leading, size }));
}
