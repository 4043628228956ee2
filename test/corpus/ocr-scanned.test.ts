import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { readOcrPace } from "../../core/ingest/ocr/ocr-pace.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { ocrCacheDir, ocrCacheKey, readCachedPage } from "../../core/ingest/ocr/ocr-cache.ts";
import { renderPageImage } from "../../core/ingest/ocr/page-image.ts";
import type { Box } from "../../core/model/ingest-types.ts";
import { highlightBoxes } from "../../core/model/highlight-geometry.ts";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";

// OCR on the corpus's scans (../shared/corpus/bad_inputs): the HIPAA extract (3 pages, 150 dpi,
// turned 0.6°, noisy JPEG) imports with its sections § 164.306 and § 164.308 and their pages, a
// sentence of § 164.308 finds it, and the viewer's highlight of that sentence lies on the words
// OCR read there (their boxes, from the import's own OCR cache); the two-column brochure is read
// column by column. The character error rate is printed by `npm run bench:ocr`, not asserted here.

const HIPAA = corpusPath("bad_inputs/scanned_image_only_hipaa_164-306_164-308_DERIVED.pdf");
const BROCHURE = corpusPath("bad_inputs/scanned_image_only_two_column_brochure.pdf");
const SENTENCE = "Conduct an accurate and thorough assessment of the potential risks and vulnerabilities";

function overlaps(a: Box, b: Box): boolean {
  const x = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const y = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return x > 0 && y > 0.5 * Math.min(a.height, b.height);
}

describeCorpus("OCR of the corpus's scans", () => {
  let dir: string;
  let engine: Engine;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-ocr-corpus-"));
    engine = await createEngine({ dataDir: path.join(dir, "data"), embedder: null, llm: null });
  });
  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("the scanned HIPAA extract: sections with pages, search, and a highlight on the words OCR read", { timeout: 180_000 }, async () => {
    const [result] = await engine.importFiles([HIPAA]);
    expect(result?.status, JSON.stringify(result?.error)).toBe("ok");
    expect(result?.ocr?.pages).toEqual([1, 2, 3]);
    expect(result?.ocr?.meanConfidence).toBeGreaterThan(90);
    expect(result?.ocr?.lowConfidencePages).toEqual([]);
    // This machine's pace is measured for the next OCR prompt's estimate.
    await expect.poll(() => readOcrPace(path.join(dir, "data"))).toBeGreaterThan(0);

    const sections = await engine.getSections(result?.documentId ?? "");
    const s306 = sections.find((s) => s.label === "§ 164.306");
    const s308 = sections.find((s) => s.label === "§ 164.308");
    expect(s306?.heading).toBe("Security standards: General rules.");
    expect([s306?.pageStart, s306?.pageEnd]).toEqual([1, 2]);
    expect(s308?.heading).toBe("Administrative safeguards.");
    expect([s308?.pageStart, s308?.pageEnd]).toEqual([2, 3]);

    const found = await engine.search(`${SENTENCE} to the confidentiality, integrity, and availability of electronic protected health information`, { k: 3 });
    expect(found.results[0]?.label).toBe("§ 164.308");

    // The sentence's highlight, as the viewer draws it …
    const text = s308?.text ?? "";
    const start = text.indexOf(SENTENCE);
    expect(start).toBeGreaterThan(0);
    const boxes = highlightBoxes(s308?.spans ?? [], start, start + SENTENCE.length);
    expect(boxes.length).toBeGreaterThanOrEqual(2);
    const page = boxes[0]?.page ?? 0;
    expect(boxes.every((b) => b.page === page)).toBe(true);

    // … and the boxes of those words as OCR read them (the page's entry in the import's OCR cache).
    const doc = await getDocument({ data: new Uint8Array(await readFile(HIPAA)), isEvalSupported: false, verbosity: 0 }).promise;
    const image = await renderPageImage(await doc.getPage(page));
    await doc.destroy();
    const lines = await readCachedPage(ocrCacheDir(path.join(dir, "data")), ocrCacheKey(image.pgm, "eng"));
    expect(lines).not.toBeNull();
    const words = (lines ?? [])
      .flatMap((l) => l.words)
      .map((w) => ({
        text: w.text,
        box: { x: w.x0 / image.scale, y: w.y0 / image.scale, width: (w.x1 - w.x0) / image.scale, height: (w.y1 - w.y0) / image.scale },
      }));
    const sentenceWords = ["Conduct", "accurate", "thorough", "assessment", "potential", "vulnerabilities"].map((w) =>
      words.find((x) => x.text.replace(/[^A-Za-z]/g, "") === w),
    );
    for (const [i, word] of sentenceWords.entries()) {
      expect(word, `OCR read word ${i}`).toBeDefined();
      expect(
        boxes.some((b) => overlaps(b.box, word?.box ?? { x: 0, y: 0, width: 0, height: 0 })),
        `highlight covers ${word?.text}`,
      ).toBe(true);
    }
    // Every highlighted line holds words of the sentence (it does not stray onto the lines around it).
    const sentence = new Set(SENTENCE.split(" "));
    for (const b of boxes) expect(words.some((w) => sentence.has(w.text) && overlaps(b.box, w.box))).toBe(true);

    // A graph answer's rows over the scan name it as its own document: "HIPAA (scan) § 164.308".
    const duties = await engine.ask("What must a covered entity do under § 164.308?");
    expect(duties.route?.route).toBe("graph");
    const rows = duties.rows ?? [];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.citation.label).toMatch(/^HIPAA \(scan\) § 164\.308/);
      expect(row.cells.find((c) => c.name === "Section")?.value).toMatch(/^HIPAA \(scan\) § 164\.308/);
    }
  });

  it("the two-column brochure is read column by column", { timeout: 120_000 }, async () => {
    const [result] = await engine.importFiles([BROCHURE]);
    expect(result?.status, JSON.stringify(result?.error)).toBe("ok");
    const text = (await engine.getSections(result?.documentId ?? ""))
      .map((s) => `${s.heading}\n${s.text}`)
      .join("\n")
      .replace(/\s+/g, " ");
    const at = (phrase: string): number => {
      const i = text.indexOf(phrase);
      expect(i, phrase).toBeGreaterThanOrEqual(0);
      return i;
    };
    // Left column to its end, then the right column, then the full-width list below both.
    expect(at("then play your MIDI keyboard in time to the Sequencer")).toBeLessThan(at("click track. When the sequence loops back"));
    expect(at("To overdub notes at specific points within a sequence")).toBeLessThan(at("The INSERT/COPY function allows you to move bars"));
    expect(at("The INSERT/COPY function allows you to move bars")).toBeLessThan(at("Creating a Song"));
    expect(at("See your Linn dealer today for a demonstration")).toBeLessThan(at("Additional Features"));
    // Never a left-column line run on into the right column's.
    expect(text).not.toContain("Sequencer’s The INSERT/COPY");
  });
});
