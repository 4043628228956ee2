import { articleLines, makePdf, type FixtureLine } from "./make-pdf.ts";

/**
 * A generated regulation of `pages` pages, two articles a page, with obligations, a citation and a
 * made-up `marker` word only it contains (search must find it by that word). Distinct markers make
 * distinct files (documents are identified by their SHA-256). ~0.3 s per 100 pages to make.
 */
export async function regulationPdfOfPages(marker: string, pages: number): Promise<Uint8Array> {
  const content: FixtureLine[][] = [];
  for (let p = 0; p < pages; p++) {
    const n = p * 2 + 1;
    content.push([
      ...(p === 0 ? [{ text: `Regulation on the ${marker} register`, bold: true, size: 14 }] : []),
      ...articleLines(n, `Keeping of the ${marker} register, part ${n}`, [
        `1. The keeper shall keep the ${marker} register for five years after the last entry.`,
        "2. The keeper shall notify the competent authority of any loss within 72 hours.",
        `3. Records referred to in Article ${Math.max(1, n - 1)} shall be kept in a durable medium.`,
      ]),
      ...articleLines(n + 1, `Access to the register, part ${n + 1}`, [
        "1. The competent authority may request access to the register at any time.",
        "2. Access shall be granted within ten working days of the request.",
      ]),
    ]);
  }
  return makePdf(content, { title: `Regulation on the ${marker} register` });
}
