import { scanPages } from "../../bench/lib/scanned-pdf.ts";
import { makePdf, type FixtureLine } from "./make-pdf.ts";

// Scanned pages made at test time: each page is set in Helvetica by pdf-lib (make-pdf.ts), and the
// pages marked `scan` become pictures of themselves (bench/lib/scanned-pdf.ts). The text-layer
// twin of every page is returned too: its line boxes are where the words are printed on the scan
// (same page size, the picture fills the page), so a test can check that OCR's boxes land on the
// right words.

export interface ScannedFixturePage {
  lines: FixtureLine[];
  /** A picture of the page without a text layer. */
  scan?: boolean;
  /** Degrees the scanned picture is turned by (a sheet fed askew). */
  skew?: number;
  /** Pixels per point of the scan (default 2, 144 dpi). */
  scale?: number;
}

/** The PDF with its scanned pages, and the same pages with a text layer. */
export async function scannedPdf(pages: ScannedFixturePage[], options: { title?: string } = {}): Promise<{ pdf: Uint8Array; textTwin: Uint8Array }> {
  const textTwin = await makePdf(
    pages.map((p) => p.lines),
    options.title === undefined ? {} : { title: options.title },
  );
  const pdf = await scanPages(textTwin, (index) =>
    pages[index]?.scan === true ? { skew: pages[index]?.skew ?? 0, ...(pages[index]?.scale === undefined ? {} : { scale: pages[index]?.scale }) } : null,
  );
  return { pdf, textTwin };
}
