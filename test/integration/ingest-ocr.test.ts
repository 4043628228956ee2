import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } from "pdf-lib";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { ClauseGraphError } from "../../core/model/errors.ts";
import type { JobProgress } from "../../core/model/job.ts";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import { OcrNeededError } from "../../core/ingest/ocr/ocr-needed.ts";
import { isGarbageText } from "../../core/ingest/ocr/text-layer-quality.ts";
import { pruneOcrCache, readCachedPage, writeCachedPage } from "../../core/ingest/ocr/ocr-cache.ts";
import type { Box } from "../../core/model/ingest-types.ts";
import { highlightBoxes } from "../../core/model/highlight-geometry.ts";
import { orderLinesInBands } from "../../core/ingest/column-layout.ts";
import type { LayoutLine } from "../../core/ingest/layout-types.ts";
import { assignRows, makeLine } from "../../core/ingest/line-builder.ts";
import { rejectionCode } from "../helpers/expect-code.ts";
import { articleLines } from "../helpers/make-pdf.ts";
import { scannedPdf } from "../helpers/scanned-pdf.ts";

// Scanned pages read with OCR (core/ingest/ocr/), per page, offline. Fixtures are made
// here (test/helpers/scanned-pdf.ts: pages set in Helvetica, the scanned ones rendered to a PNG at
// 144 dpi and put back as a picture); few pages are OCR'd, each in 3–5 s on two cores.

const SENTENCE = "1. The operator shall report every major incident to the competent authority within 24 hours.";

/** Vertical overlap of two boxes over the smaller height, and whether they meet horizontally. */
function overlap(a: Box, b: Box): number {
  const shared = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  const horizontal = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  return horizontal <= 0 ? 0 : Math.max(0, shared) / Math.min(a.height, b.height);
}

describe("OCR of scanned pages", () => {
  let dir: string;
  let engine: Engine;
  let mixed: string;
  let twin: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-ocr-"));
    // Page 2 is a scan, fed 0.5° askew; pages 1 and 3 have a text layer.
    const built = await scannedPdf(
      [
        {
          lines: [
            { text: "REGULATION ON INCIDENT REPORTING", bold: true, size: 14 },
            ...articleLines(1, "Subject matter", [
              "1. This Regulation lays down rules on the reporting of incidents by operators.",
              "2. It applies to operators of essential services.",
            ]),
          ],
        },
        {
          scan: true,
          skew: 0.5,
          lines: articleLines(2, "Reporting of major incidents", [
            SENTENCE,
            "2. The report shall describe the incident, its causes and the measures taken to contain it.",
            "3. The competent authority may request additional information at any time after the report.",
            "4. Operators shall keep a register of every incident for five years after it was closed.",
          ]),
        },
        {
          lines: articleLines(3, "Penalties", [
            "1. Member States shall lay down rules on penalties applicable to infringements.",
            "2. The penalties shall be effective, proportionate and dissuasive.",
          ]),
        },
      ],
      { title: "Incident Reporting Regulation" },
    );
    mixed = path.join(dir, "mixed.pdf");
    twin = path.join(dir, "twin.pdf");
    await writeFile(mixed, built.pdf);
    await writeFile(twin, built.textTwin);
    engine = await createEngine({ dataDir: path.join(dir, "data"), embedder: null, llm: null });
  });

  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("imports a PDF with one scanned page among text pages: sections, search and the highlight work on the scan", async () => {
    const events: JobProgress[] = [];
    const [result] = await engine.importFiles([mixed], { onProgress: (p) => events.push(p) });
    expect(result?.status, JSON.stringify(result?.error)).toBe("ok");
    // Only the scanned page was read with OCR, and surely.
    expect(result?.ocr?.pages).toEqual([2]);
    expect(result?.ocr?.language).toBe("eng");
    expect(result?.ocr?.meanConfidence).toBeGreaterThan(85);
    expect(result?.ocr?.lowConfidencePages).toEqual([]);
    // Per-page OCR progress in the one job shape.
    expect(events.some((e) => e.step === "ocr" && e.current === 1 && e.total === 1)).toBe(true);
    const [listed] = await engine.listDocuments();
    expect(listed?.ocr?.pages).toEqual([2]);

    const sections = await engine.getSections(result?.documentId ?? "");
    expect(sections.map((s) => s.label)).toEqual(expect.arrayContaining(["Article 1", "Article 2", "Article 3"]));
    const scanned = sections.find((s) => s.label === "Article 2");
    expect(scanned?.heading).toBe("Reporting of major incidents");
    expect([scanned?.pageStart, scanned?.pageEnd]).toEqual([2, 2]);
    // The scanned page's confidence travels with its spans (citations say "OCR, low confidence" by it); text pages carry none.
    expect(scanned?.spans.every((s) => (s.ocr ?? 0) > 85)).toBe(true);
    expect(sections.find((s) => s.label === "Article 3")?.spans.every((s) => s.ocr === undefined)).toBe(true);

    const found = await engine.search("report every major incident to the competent authority", { k: 3 });
    expect(found.results[0]?.label).toBe("Article 2");

    // The highlight of the sentence lies on the words as printed: the text-layer twin of the page says where.
    const text = scanned?.text ?? "";
    const start = text.indexOf("The operator shall report every major incident");
    expect(start).toBeGreaterThanOrEqual(0);
    const boxes = highlightBoxes(
      scanned?.spans ?? [],
      start,
      start + "The operator shall report every major incident to the competent authority within 24 hours.".length,
    );
    const printed = (await parseDocument(twin)).pages[1]?.lines.find((l) => l.text === SENTENCE);
    expect(printed).toBeDefined();
    expect(boxes.length).toBeGreaterThan(0);
    for (const b of boxes) {
      expect(b.page).toBe(2);
      expect(overlap(b.box, printed?.box ?? b.box)).toBeGreaterThan(0.6);
    }
    // It covers the sentence from its first word to its last (the number "1." before it excluded).
    const left = Math.min(...boxes.map((b) => b.box.x));
    const right = Math.max(...boxes.map((b) => b.box.x + b.box.width));
    const printedBox = printed?.box ?? { x: 0, y: 0, width: 0, height: 0 };
    expect(left).toBeGreaterThan(printedBox.x);
    expect(left).toBeLessThan(printedBox.x + 0.1 * printedBox.width);
    expect(Math.abs(right - (printedBox.x + printedBox.width))).toBeLessThan(0.03 * printedBox.width);

    // The finished page is in the OCR cache, owner-only.
    const cache = await readdir(path.join(dir, "data", "ocr-cache"));
    expect(cache.filter((f) => f.endsWith(".json"))).toHaveLength(1);
  });

  it("keeps NO_TEXT_LAYER for --ocr never, offers OCR for ask, and refuses a picture without text", async () => {
    const only = await scannedPdf([{ scan: true, lines: articleLines(9, "Record keeping", ["1. Records shall be kept for ten years."]) }]);
    const scan = path.join(dir, "scan.pdf");
    await writeFile(scan, only.pdf);
    expect(await rejectionCode(parseDocument(scan, { ocr: { mode: "never" } }))).toBe("NO_TEXT_LAYER");
    const asked = await parseDocument(scan, { ocr: { mode: "ask" } }).catch((err: unknown) => err);
    expect(asked).toBeInstanceOf(OcrNeededError);
    const offer = (asked as OcrNeededError).offer;
    expect(offer).toMatchObject({ pages: 1, totalPages: 1 });
    expect(offer.estimatedSeconds).toBeGreaterThan(0);
    expect((asked as OcrNeededError).message).toMatch(/scan\.pdf is scanned .* about \d+ s/);
    // Through the engine, the offer comes with the result.
    const [viaEngine] = await engine.importFiles([scan], { ocr: "ask" });
    expect(viaEngine?.error?.code).toBe("NEEDS_OCR");
    expect(viaEngine?.ocrOffer?.pages).toBe(1);
    expect(await engine.listDocuments()).toHaveLength(1);

    // A picture with no text in it (a grey frame): OCR finds nothing, and the file is NO_TEXT_LAYER.
    const blank = await PDFDocument.create();
    const frame = await scannedPdf([{ scan: true, lines: [{ text: "_".repeat(60) }] }]);
    const [picture] = await blank.copyPages(await PDFDocument.load(frame.pdf), [0]);
    if (picture !== undefined) blank.addPage(picture);
    const noText = path.join(dir, "no-text.pdf");
    await writeFile(noText, await blank.save());
    const err = await parseDocument(noText, { ocr: { mode: "auto" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClauseGraphError);
    expect((err as ClauseGraphError).code).toBe("NO_TEXT_LAYER");
    expect((err as ClauseGraphError).message).toMatch(/OCR found no recognisable text/);
  });

  it("does not draw an image no scan could be (60000 × 60000): a typed error, not a crash", async () => {
    // 1 bit per pixel, run-length encoded: 450 MB of pixels in 7 MB of runs of 128 zero bytes.
    const rowBytes = 60000 / 8;
    const runs = (60000 * rowBytes) / 128;
    const data = new Uint8Array(runs * 2 + 1);
    for (let i = 0; i < runs; i++) data[2 * i] = 129;
    data[runs * 2] = 128;
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([600, 800]);
    const image = pdf.context.register(
      pdf.context.stream(data, {
        Type: "XObject",
        Subtype: "Image",
        Width: 60000,
        Height: 60000,
        BitsPerComponent: 1,
        ColorSpace: "DeviceGray",
        Filter: "RunLengthDecode",
      }),
    );
    const name = page.node.newXObject("Im", image);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(600, 0, 0, 800, 0, 0), drawObject(name), popGraphicsState());
    const huge = path.join(dir, "huge-image.pdf");
    await writeFile(huge, await pdf.save());
    const err = await parseDocument(huge, { ocr: { mode: "auto" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClauseGraphError);
    // The image is left out (drawing it failed with "Create skia surface failed", an INTERNAL
    // error, after seconds of decoding): the page has nothing left to read.
    expect((err as ClauseGraphError).code, (err as ClauseGraphError).message).toBe("EMPTY");
    expect((err as ClauseGraphError).message).toMatch(/^huge-image\.pdf /);
    expect((err as ClauseGraphError).file).toBe(huge);
  });

  it("guesses Italian from the first scanned page and reads it with the Italian data", async () => {
    const built = await scannedPdf([
      {
        scan: true,
        lines: [
          { text: "Art. 4 - Responsabilità del gestore", bold: true, size: 11 },
          { text: "1. Il gestore è responsabile della sicurezza della rete e delle informazioni." },
          { text: "2. La notifica degli incidenti è trasmessa all'autorità competente entro il termine." },
          { text: "3. Le misure adottate sono proporzionate al rischio per la continuità del servizio." },
        ],
      },
    ]);
    const file = path.join(dir, "italiano.pdf");
    await writeFile(file, built.pdf);
    const doc = await parseDocument(file, { ocr: { mode: "auto" } });
    expect(doc.pages[0]?.ocr?.language).toBe("ita");
    expect(doc.language).toBe("it");
    const text = doc.pages.flatMap((p) => p.lines.map((l) => l.text)).join("\n");
    expect(text).toContain("Il gestore è responsabile della sicurezza");
    expect(text).toContain("Responsabilità");
  });

  it("reads a two-column block between full-width lines column by column, every line once", () => {
    const line = (text: string, x: number, y: number, width: number): LayoutLine => {
      const made = makeLine([{ text, x, baseline: y + 8, width, fontSize: 10, ascent: 0.8, descent: 0.2, bold: false, isSpace: false }], 1, 0);
      if (made === undefined) throw new Error("no line");
      return made;
    };
    const full = (n: number, y: number): LayoutLine => line(`Full-width line ${n} of the leaflet, running across the page.`, 60, y, 480);
    const lines = [full(1, 60), full(2, 74), full(3, 88)];
    for (let i = 0; i < 12; i++) {
      lines.push(line(`Left column line ${i + 1} of prose.`, 60, 110 + i * 14, 220));
      lines.push(line(`Right column line ${i + 1} of prose.`, 320, 110 + i * 14, 220));
    }
    lines.push(line("A heading below the columns", 60, 290, 150), full(4, 304), full(5, 318));
    const ordered = orderLinesInBands(assignRows(lines), 10).map((l) => l.text);
    expect(ordered).toHaveLength(lines.length);
    expect(new Set(ordered).size).toBe(lines.length);
    const at = (text: string): number => ordered.indexOf(text);
    expect(at("Left column line 12 of prose.")).toBeLessThan(at("Right column line 1 of prose."));
    expect(at("Full-width line 3 of the leaflet, running across the page.")).toBeLessThan(at("Left column line 1 of prose."));
    expect(at("Right column line 12 of prose.")).toBeLessThan(at("A heading below the columns"));
    expect(at("A heading below the columns")).toBeLessThan(at("Full-width line 4 of the leaflet, running across the page."));
  });

  it("keeps the OCR cache bounded, oldest pages first, and ignores a torn entry", async () => {
    const cache = path.join(dir, "cache-test");
    await mkdir(cache, { recursive: true });
    const line = {
      words: [{ text: "word", confidence: 90, stroke: 2, x0: 0, y0: 0, x1: 10, y1: 10 }],
      baseline: { x0: 0, y0: 9, x1: 10, y1: 9 },
      rowHeight: 10,
    };
    for (const [i, key] of ["a", "b", "c"].entries()) {
      await writeCachedPage(cache, key, "eng", [line]);
      const when = new Date(Date.now() - (3 - i) * 60_000);
      await utimes(path.join(cache, `${key}.json`), when, when);
    }
    expect(await readCachedPage(cache, "b")).toEqual([line]);
    await writeFile(path.join(cache, "torn.json"), '{"version":');
    expect(await readCachedPage(cache, "torn")).toBeNull();
    const stale = path.join(cache, "d.json.123.tmp");
    await writeFile(stale, "half");
    await utimes(stale, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const size = (await readdir(cache)).length;
    expect(size).toBe(5);
    // Room for about two entries: the oldest goes, and the dead writer's temporary file.
    await pruneOcrCache(cache, 2 * JSON.stringify({ version: "x".repeat(60), language: "eng", lines: [line] }).length);
    const left = await readdir(cache);
    expect(left).not.toContain("a.json");
    expect(left).not.toContain("d.json.123.tmp");
    expect(left).toContain("c.json");
  });

  it("tells a garbage text layer from a real one", () => {
    expect(isGarbageText("\uFFFD".repeat(30) + " Article 1 scope")).toBe(true);
    expect(isGarbageText("\uE001\uE002\uE003 ".repeat(20))).toBe(true);
    expect(isGarbageText("Article 1 — Scope. This Regulation applies to operators of essential services in the Union.")).toBe(false);
    expect(isGarbageText("\uFFFD")).toBe(false);
  });
});
