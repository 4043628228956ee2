// npm run bench:ocr [-- --json] [-- --source render|embedded|both]
// OCR of the corpus's scans (../shared/corpus/bad_inputs): the character error rate of the HIPAA
// extract against its ground truth, per page image source (pages rendered by pdf.js, as the engine
// does, or the embedded picture decoded directly), then real imports through createEngine on this
// machine — seconds per OCR'd page, the parsing child's peak RSS, the sections § 164.306 and
// § 164.308, a search for a sentence of § 164.308, the two-column brochure's reading order, and a
// re-import served by the OCR cache. Figures, not assertions.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { createEngine } from "../core/engine.ts";
import type { JobProgress } from "../core/model/job.ts";
import { detectGutters, orderLines } from "../core/ingest/column-layout.ts";
import { ocrPageText } from "../core/ingest/ocr/ocr-lines.ts";
import { renderPageImage } from "../core/ingest/ocr/page-image.ts";
import type { PageImage } from "../core/ingest/ocr/page-image.ts";
import { createTesseractPool } from "../core/ingest/ocr/tesseract-pool.ts";
import { charErrorRate, lineMatchedCharErrorRate } from "./lib/char-error-rate.ts";
import { embeddedPageImage } from "./lib/ocr-embedded-image.ts";
import { sampleRss } from "./lib/rss-sampler.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    source: { type: "string", default: "both" },
    dir: { type: "string", default: path.resolve(here, "../../shared/corpus/bad_inputs") },
  },
});
const HIPAA = path.join(values.dir, "scanned_image_only_hipaa_164-306_164-308_DERIVED.pdf");
const TRUTH = HIPAA.replace(/\.pdf$/, ".groundtruth.txt");
const BROCHURE = path.join(values.dir, "scanned_image_only_two_column_brochure.pdf");
const GUTENBERG = path.join(values.dir, "scanned_image_only_gutenberg_page.pdf");
/** A sentence of § 164.308(a)(1)(ii)(A) as the regulation prints it. */
const SENTENCE_164_308 =
  "Conduct an accurate and thorough assessment of the potential risks and vulnerabilities to the confidentiality, integrity, and availability of electronic protected health information";

const mb = (bytes: number): number => Math.round(bytes / 1024 / 1024);
const out: Record<string, unknown> = { cores: os.availableParallelism() };
const log = (line: string): void => {
  if (!values.json) console.log(line);
};

try {
  await readFile(TRUTH);
} catch {
  console.log(`[corpus] ${values.dir} not found: bench:ocr SKIPPED`);
  process.exit(0);
}

/** The OCR text of one page in our reading order (columns), furniture included: what OCR read. */
async function pageText(
  image: PageImage,
  number: number,
  pool: ReturnType<typeof createTesseractPool>,
): Promise<{ text: string; seconds: number; confidence: number }> {
  const started = performance.now();
  const lines = await pool.recognize(image, "eng");
  const seconds = (performance.now() - started) / 1000;
  const page = ocrPageText(lines, image.scale, number);
  const body = page.lines.map((l) => l.fontSize).sort((a, b) => a - b)[Math.floor(page.lines.length / 2)] ?? 10;
  const ordered = orderLines(page.lines, detectGutters(page.lines, body));
  return { text: ordered.map((l) => l.text).join("\n"), seconds, confidence: page.confidence };
}

// 1. Character error rate per page source, one worker (the time of one page alone).
const truth = await readFile(TRUTH, "utf8");
const sources = values.source === "both" ? ["render", "embedded"] : [values.source];
for (const source of sources) {
  const doc = await getDocument({ data: new Uint8Array(await readFile(HIPAA)), isEvalSupported: false, verbosity: 0 }).promise;
  const pool = createTesseractPool(1);
  const texts: string[] = [];
  const imageSeconds: number[] = [];
  const ocrSeconds: number[] = [];
  const confidences: number[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const started = performance.now();
      const image = source === "embedded" ? await embeddedPageImage(page) : await renderPageImage(page);
      imageSeconds.push((performance.now() - started) / 1000);
      if (image === null) throw new Error(`page ${n} has no embedded picture`);
      const read = await pageText(image, n, pool);
      texts.push(read.text);
      ocrSeconds.push(read.seconds);
      confidences.push(read.confidence);
      page.cleanup();
    }
  } finally {
    await pool.close();
    await doc.destroy();
  }
  // The headline: what was read, whatever the order of blocks (see lineMatchedCharErrorRate);
  // beside it the plain CER against the ground truth in pdftotext's own block order.
  const cer = lineMatchedCharErrorRate(texts.join("\n"), truth);
  const inOrder = charErrorRate(texts.join("\n"), truth);
  out[source] = { cerPercent: Math.round(cer * 10000) / 100, cerInTruthOrderPercent: Math.round(inOrder * 10000) / 100, imageSeconds, ocrSeconds, confidences };
  log(
    `${source.padEnd(8)} CER ${(cer * 100).toFixed(2)} % (line-matched; ${(inOrder * 100).toFixed(2)} % in the ground truth's block order) · page image ${imageSeconds.map((s) => s.toFixed(2)).join(" / ")} s · OCR ${ocrSeconds.map((s) => s.toFixed(2)).join(" / ")} s · confidence ${confidences.join(" / ")}`,
  );
}

// 2. Imports through the engine (parsing child, pool sized to this machine), fresh library.
const dataDir = await mkdtemp(path.join(os.tmpdir(), "clausegraph-bench-ocr-"));
const engineLog: string[] = [];
const engine = await createEngine({ dataDir, embedder: null, log: (line) => engineLog.push(line) });
try {
  const importTimed = async (
    file: string,
  ): Promise<{ seconds: number; ocrSeconds: number; ocrPages: number; childPeakMb: number; enginePeakMb: number; documentId: string | null }> => {
    let ocrStart = 0;
    let ocrEnd = 0;
    let ocrPages = 0;
    const onProgress = (p: JobProgress): void => {
      if (p.step !== "ocr") return;
      if (p.current === 0) ocrStart = performance.now();
      ocrEnd = performance.now();
      ocrPages = p.total;
    };
    const sampler = sampleRss(100);
    const started = performance.now();
    const [result] = await engine.importFiles([file], { onProgress });
    const peaks = sampler.stop();
    if (result?.status !== "ok") throw new Error(`${path.basename(file)}: ${JSON.stringify(result?.error)}`);
    return {
      seconds: (performance.now() - started) / 1000,
      ocrSeconds: (ocrEnd - ocrStart) / 1000,
      ocrPages,
      childPeakMb: mb(peaks.children),
      enginePeakMb: mb(peaks.engine),
      documentId: result.documentId,
    };
  };
  const hipaa = await importTimed(HIPAA);
  const perPage = hipaa.ocrSeconds / Math.max(1, hipaa.ocrPages);
  out.import = { ...hipaa, secondsPerPage: Math.round(perPage * 100) / 100 };
  log(
    `import   HIPAA scan: ${hipaa.ocrPages} pages OCR'd in ${hipaa.ocrSeconds.toFixed(1)} s = ${perPage.toFixed(2)} s/page on ${os.availableParallelism()} cores (import ${hipaa.seconds.toFixed(1)} s); parsing child peak RSS ${hipaa.childPeakMb} MB, engine ${hipaa.enginePeakMb} MB`,
  );

  const sections = await engine.getSections(hipaa.documentId ?? "");
  const wanted = ["§ 164.306", "§ 164.308"].map((label) => sections.find((s) => s.label === label));
  out.sections = wanted.map((s) => (s === undefined ? null : { label: s.label, pages: `${s.pageStart}-${s.pageEnd}` }));
  log(
    `sections ${wanted.map((s, i) => (s === undefined ? `${["§ 164.306", "§ 164.308"][i]} MISSING` : `${s.label} pp. ${s.pageStart}–${s.pageEnd}`)).join(", ")} (of ${sections.length})`,
  );
  const found = await engine.search(SENTENCE_164_308, { k: 3 });
  out.searchTop = found.results[0]?.label ?? null;
  log(`search   a sentence of § 164.308(a)(1)(ii)(A) → top result ${found.results[0]?.label ?? "none"}`);

  const brochure = await importTimed(BROCHURE);
  const brochureSections = await engine.getSections(brochure.documentId ?? "");
  const opening = brochureSections
    .map((s) => `${s.heading} ${s.text}`)
    .join(" ")
    .replace(/\s+/g, " ")
    .slice(0, 160);
  out.brochure = { ...brochure, opening };
  log(`import   two-column brochure: ${brochure.ocrSeconds.toFixed(1)} s; reads "${opening}…"`);
  const gutenberg = await importTimed(GUTENBERG);
  out.gutenberg = gutenberg;
  log(`import   Gutenberg page: ${gutenberg.ocrSeconds.toFixed(1)} s`);
  const docs = await engine.listDocuments();
  out.confidence = docs.map((d) => ({ file: d.fileName, mean: d.ocr?.meanConfidence, low: d.ocr?.lowConfidencePages }));
  for (const d of docs)
    log(`library  ${d.fileName}: OCR mean confidence ${d.ocr?.meanConfidence ?? "-"}, low-confidence pages [${d.ocr?.lowConfidencePages.join(", ") ?? ""}]`);

  // 3. The same scan again after a delete: every page comes from the OCR cache.
  await engine.deleteDocument(hipaa.documentId ?? "");
  const again = await importTimed(HIPAA);
  out.cachedReimport = { seconds: Math.round(again.seconds * 10) / 10, ocrSeconds: Math.round(again.ocrSeconds * 10) / 10 };
  log(`resume   re-import of the HIPAA scan from the OCR cache: ${again.seconds.toFixed(1)} s (OCR step ${again.ocrSeconds.toFixed(1)} s)`);
} finally {
  await engine.close();
  await rm(dataDir, { recursive: true, force: true });
}
if (values.json) console.log(JSON.stringify(out));
