import { PDFDocument, StandardFonts } from "pdf-lib";

export interface FixtureLine {
  text: string;
  size?: number;
  bold?: boolean;
}

/**
 * A real PDF with one entry per page, each page a list of lines set top-down in Helvetica: enough
 * structure (headings in bold, body in regular) for ingest and sectioning to work on.
 */
export async function makePdf(pages: FixtureLine[][], options: { title?: string; footers?: ReadonlyArray<string | null> } = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  if (options.title) pdf.setTitle(options.title);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const [index, lines] of pages.entries()) {
    const page = pdf.addPage([595, 842]);
    // A printed page number in the footer band ("12"), where the document has one.
    const footer = options.footers?.[index];
    if (footer !== undefined && footer !== null) page.drawText(footer, { x: 290, y: 30, size: 9, font: regular });
    let y = 780;
    for (const line of lines) {
      const size = line.size ?? 10;
      page.drawText(line.text, { x: 60, y, size, font: line.bold ? bold : regular });
      y -= size * 1.6;
    }
  }
  return pdf.save();
}

/** An EU-style article as printed: bold "Article N", bold heading, then body lines. */
export function articleLines(n: number, heading: string, body: string[]): FixtureLine[] {
  return [{ text: `Article ${n}`, bold: true, size: 11 }, { text: heading, bold: true, size: 11 }, ...body.map((text) => ({ text }))];
}
