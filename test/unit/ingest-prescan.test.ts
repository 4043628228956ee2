import { describe, expect, it } from "vitest";
import {
  contentBombPdf,
  manyTextItemsPdf,
  metadataBombPdf,
  nestedStatesPdf,
  plainPdf,
  sharedContentPdf,
  textFloodPdf,
} from "../../bench/lib/hostile-pdf-fixtures.ts";
import { regulationPdf } from "../../bench/lib/trust-fixtures.ts";
import { contentStats } from "../../core/ingest/content-stream-stats.ts";
import { DEFAULT_PARSE_LIMITS, fileSeconds, resolveParseLimits } from "../../core/ingest/parse-limits.ts";
import { prescanPdf } from "../../core/ingest/pdf-prescan.ts";

// The pre-scan refuses, before pdf.js sees them, the PDFs that hung or exhausted it —
// each in well under a second here, with a message naming the file, the page and the limit — and
// lets ordinary PDFs through.

const GB = 1024 ** 3;
const NO_CAPS = { operators: Infinity, textOperators: Infinity, nestingDepth: Infinity };
const bytes = (text: string): Uint8Array => Buffer.from(text, "latin1");

function refusal(name: string, pdf: Buffer, limits = DEFAULT_PARSE_LIMITS): { message: string; ms: number } {
  const started = performance.now();
  try {
    prescanPdf(name, pdf, resolveParseLimits(limits));
  } catch (err) {
    expect(err).toMatchObject({ code: "TOO_COMPLEX", file: name });
    return { message: (err as Error).message, ms: performance.now() - started };
  }
  throw new Error(`${name} was not refused`);
}

describe("content stream statistics", () => {
  it("counts operators, text operators and nesting, skipping strings, names, comments and inline images", () => {
    const stats = contentStats(
      bytes(
        "q 1 0 0 1 0 0 cm BT /F1 12 Tf (a (nested) \\) q q q) Tj [(x) 10 (y)] TJ (z) ' ET % q q q q\nQ BI /W 2 /H 1 ID \x00q\x01Q EI Q q [[<< /A [1] >>]] Q",
      ),
      NO_CAPS,
    );
    // q cm BT Tf Tj TJ ' ET Q BI ID(→ EI) Q q Q
    expect(stats).toMatchObject({ operators: 14, textOperators: 3, maxStateDepth: 1, endStateDepth: 0, maxObjectDepth: 4 });
  });

  it("stops as soon as a cap is passed", () => {
    const deep = contentStats(bytes("q ".repeat(100_000)), { ...NO_CAPS, nestingDepth: 256 });
    expect(deep.maxStateDepth).toBe(257);
    expect(deep.operators).toBe(257);
  });

  it("reads a million nested q in linear time (pdf.js: > 330 s)", () => {
    const started = performance.now();
    const stats = contentStats(bytes("q\n".repeat(1_000_000)), NO_CAPS);
    expect(stats.maxStateDepth).toBe(1_000_000);
    // A bound for a quadratic blow-up, not a speed goal (bench:robustness measures speed): loose for a busy machine.
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});

describe("PDF pre-scan", () => {
  it("lets ordinary PDFs through", async () => {
    expect(prescanPdf("plain.pdf", plainPdf(), resolveParseLimits()).pages).toBe(1);
    const summary = prescanPdf("regulation.pdf", Buffer.from(await regulationPdf()), resolveParseLimits());
    expect(summary.pages).toBe(4);
    expect(summary.operators).toBeGreaterThan(10);
    expect(prescanPdf("nested-200.pdf", nestedStatesPdf(200), resolveParseLimits()).pages).toBe(1);
  });

  it("refuses q nested 1,000,000 deep (the issue's 4.6 KB file) on page 1", () => {
    const pdf = nestedStatesPdf(1_000_000);
    expect(pdf.length).toBeLessThan(10 * 1024);
    const { message, ms } = refusal("nested-q.pdf", pdf);
    expect(message).toMatch(/^nested-q\.pdf is too complex to read safely: graphics states \(q\) nested more than 256 deep on page 1; the limit is 256/);
    expect(ms).toBeLessThan(60_000);
  });

  it("refuses a content stream and XMP metadata inflating to 1.5 GB after inflating 128 MB", () => {
    const content = contentBombPdf(1.5 * GB);
    expect(content.length).toBeLessThan(2 * 1024 * 1024);
    expect(refusal("bomb.pdf", content).message).toMatch(/a compressed stream inflates to more than 128\.0 MB on page 1; the limit is 128\.0 MB per stream/);
    expect(refusal("xmp.pdf", metadataBombPdf(1.5 * GB)).message).toMatch(/inflates to more than 128\.0 MB in object 6/);
  });

  it("counts inflated bytes per file too", () => {
    const limits = { ...DEFAULT_PARSE_LIMITS, inflatedBytesPerStream: 64 * 1024 * 1024, inflatedBytesPerFile: 1024 * 1024 };
    expect(refusal("bomb.pdf", contentBombPdf(2 * 1024 * 1024), limits).message).toMatch(
      /inflate to more than 1\.0 MB together on page 1; the limit is 1\.0 MB per file/,
    );
  });

  it("refuses 230 million Tj operators (2.3 MB file) and 5 million text items on one page", () => {
    expect(refusal("tj.pdf", textFloodPdf(230_000_000)).message).toMatch(/inflates to more than 128\.0 MB on page 1/);
    expect(refusal("items.pdf", manyTextItemsPdf(5_000_000)).message).toMatch(/more than 200,000 pieces of text on page 1; the limit is 200,000 per page/);
    const limits = { ...DEFAULT_PARSE_LIMITS, operatorsPerPage: 1000 };
    expect(refusal("ops.pdf", textFloodPdf(2000), limits).message).toMatch(/more than 1,000 drawing operators on page 1/);
  });

  it("counts a content stream shared by 4,999 pages once per page", () => {
    const pdf = sharedContentPdf(4999, 240 * 1024);
    expect(pdf.length).toBeLessThan(2 * 1024 * 1024);
    const { message, ms } = refusal("shared.pdf", pdf);
    expect(message).toMatch(/its pages draw more than 50,000,000 operators together \(reached on page \d+ of 4999\); the limit is 50,000,000 per file/);
    expect(ms).toBeLessThan(60_000);
    // Alone, the same stream is an ordinary page.
    expect(prescanPdf("shared-1.pdf", sharedContentPdf(1, 240 * 1024), resolveParseLimits()).pages).toBe(1);
  });
});

describe("parse limits", () => {
  it("take overrides, ignore nonsense, and scale the file budget with pages up to a ceiling", () => {
    expect(resolveParseLimits({ pageSeconds: 2, nestingDepth: -1, childRssMb: Number.NaN })).toMatchObject({
      pageSeconds: 2,
      nestingDepth: 256,
      childRssMb: 1536,
    });
    expect(fileSeconds(DEFAULT_PARSE_LIMITS, undefined)).toBe(120);
    expect(fileSeconds(DEFAULT_PARSE_LIMITS, 100)).toBe(170);
    expect(fileSeconds(DEFAULT_PARSE_LIMITS, 5000)).toBe(1200);
    // Pages read with OCR add their own budget, outside the cap.
    expect(fileSeconds(DEFAULT_PARSE_LIMITS, 5000, 10)).toBe(1500);
  });
});
