import { rm } from "node:fs/promises";
import path from "node:path";
import type { ImportOptions, ImportResult } from "../model/engine-types.ts";
import type { Embedder } from "../model/embedder.ts";
import { toErrorInfo } from "../model/errors.ts";
import type { DerivedGraph } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import { summarizeOcr } from "../model/ocr-types.ts";
import type { JobReporter } from "../jobs/job-reporter.ts";
import { checkFileBeforeReading } from "../ingest/file-checks.ts";
import { createParsePool } from "../ingest/parse-isolated.ts";
import { resolveParseLimits, type ParseLimits } from "../ingest/parse-limits.ts";
import { checkDerived, checkSectioned } from "../ingest/yield-limits.ts";
import { ocrCacheDir, pruneOcrCache } from "../ingest/ocr/ocr-cache.ts";
import { OcrNeededError } from "../ingest/ocr/ocr-needed.ts";
import { readOcrPace, recordOcrPace } from "../ingest/ocr/ocr-pace.ts";
import { sectionDocument } from "../structure/section-document.ts";
import { createEnglishNlp, type EnglishNlp } from "../extract/obligations.ts";
import { registryAliases } from "../names/document-instruments.ts";
import { buildDerivedGraphYielding, type OtherDocument } from "../graph/build-derived-graph.ts";
import { embedAll, embedDerived, sectionEmbeddingText, tripletEmbeddingText } from "../embed/embed-derived.ts";
import type { GraphStore } from "../store/graph-store.ts";
import { keepSourceBytes } from "../store/source-copy.ts";
import { removeSourceRecord, writeSourceRecord, type ImportOrigin } from "../store/source-record.ts";
import { documentIdFromSha, readSourceFile, sourcePath } from "./source-file.ts";

// The import pipeline, one object the engine and the benches share (as LlamaIndex.TS's
// IngestionPipeline): a file is checked, read and hashed once, parsed in the bounded child,
// sectioned, its graph derived, embedded, copied beside the library and stored in one
// transaction. Benches that bring their own sections (ObliQA passages) enter at ingestDocument.
// It owns what those stages load once: the parsing child and the English pipeline.

export type Logger = (message: string) => void;

export interface IngestionPipelineOptions {
  /** The engine's data folder: source copies, their records and the OCR cache live under it. */
  dataDir: string;
  /** Overrides of the limits untrusted files are parsed under (core/ingest/parse-limits.ts). */
  parseLimits?: Partial<ParseLimits>;
  /** The embedder for section and triplet vectors, made on first use; null: no vectors. */
  getEmbedder(): Promise<Embedder | null>;
  /**
   * The English pipeline the graph is derived with: the engine passes the one its questions are
   * read with (each costs load time and memory); without it the pipeline loads its own.
   */
  englishNlp?: () => EnglishNlp;
  /** Between two slices of graph work: the engine lets its searches go first (core/jobs/foreground.ts). */
  yieldToForeground?: () => Promise<void>;
  log?: Logger;
}

/** One file to import: where its progress goes, which library it lands in, and where it came from. */
export interface FileImport {
  options: ImportOptions;
  job: JobReporter;
  /** The library written to: the engine's, or a rebuild's new one. */
  target: GraphStore;
  /** A rebuild re-imports a kept copy under the name, date and aliases it had. */
  origin?: ImportOrigin;
}

/** A document already read and cut into sections, with what its graph may cite. */
export interface SectionedDocument {
  record: DocumentRecord;
  sections: Section[];
}

export interface IngestOptions {
  target: GraphStore;
  /** Documents its citations may resolve into, loaded once the graph stage starts. */
  others: () => Promise<OtherDocument[]>;
  job?: JobReporter;
  signal?: AbortSignal;
  /**
   * Runs after the vectors and before the transaction: the engine lands the source copy here, so a
   * stored document always has its source and a full disk fails before the database is touched.
   */
  beforeStore?: () => Promise<void>;
  /** Time spent per stage, added to (benches print them). */
  timings?: IngestTimings;
}

export interface IngestTimings {
  deriveMs: number;
  embedMs: number;
  storeMs: number;
  /** Section and triplet vectors made. */
  embedded: number;
}

/** A file read, hashed, parsed and cut into sections, waiting for its turn to be stored. */
export interface ReadFile {
  result: ImportResult;
  record: DocumentRecord;
  sections: Section[];
  /** The file's bytes, kept as the library's source copy when it is stored. */
  bytes: Uint8Array;
  /** The file as given (the copy is skipped when it already is the copy). */
  absolute: string;
}

/** What reading a file came to: ready to store, or already settled (skipped, failed, cancelled). */
export type ReadOutcome = { kind: "read"; file: ReadFile } | { kind: "settled"; result: ImportResult };

export interface IngestionPipeline {
  /** Imports one file; never throws: failures and cancellation come back in the result and the job. */
  importFile(file: string, request: FileImport): Promise<ImportResult>;
  /**
   * The first half of importFile, which touches no database row: checked, read and hashed once,
   * parsed in the bounded child, cut into sections. Never throws; a settled outcome has finished its job.
   */
  readFile(file: string, request: FileImport): Promise<ReadOutcome>;
  /** The second half: graph, vectors, source copy and one transaction. Never throws, finishes the job. */
  storeFile(read: ReadFile, request: FileImport): Promise<ImportResult>;
  /** From sections to a stored document: its derived graph, its vectors, one transaction. */
  ingestDocument(document: SectionedDocument, options: IngestOptions): Promise<DerivedGraph>;
  /** Makes the database's vectors those of this embedder; re-embeds what a model change left without. */
  prepareVectors(embedder: Embedder, target: GraphStore): Promise<void>;
  /** Stops the parsing child. */
  close(): void;
}

/** A file's result before anything is known of it. */
export function emptyImportResult(file: string): ImportResult {
  return { file, documentId: null, sha256: null, title: null, pages: 0, sections: 0, status: "error", warnings: [] };
}

function skipped(result: ImportResult, existing: DocumentRecord, job: JobReporter): ImportResult {
  result.status = "skipped";
  result.documentId = existing.id;
  result.sha256 = existing.sha256;
  result.title = existing.title;
  result.pages = existing.pages;
  result.sections = existing.sections;
  result.warnings.push(`already imported as ${existing.id} (${existing.fileName}); nothing changed`);
  job.finish("done");
  return result;
}

/** The imported documents' outlines: citations into them resolve to their sections. */
/**
 * The library's outlines an import resolves citations against. Documents never change once stored,
 * so each one's outline is read once per library and kept (with what the graph derives from it,
 * build-derived-graph.ts): an import into a large library reads only the documents new since.
 */
function createOutlineCache(): (target: GraphStore) => Promise<OtherDocument[]> {
  const byTarget = new WeakMap<GraphStore, Map<string, OtherDocument>>();
  return async (target) => {
    const kept = byTarget.get(target) ?? new Map<string, OtherDocument>();
    byTarget.set(target, kept);
    const ids = (await target.listDocuments()).map((d) => d.id);
    const present = new Set(ids);
    for (const id of kept.keys()) if (!present.has(id)) kept.delete(id);
    const missing = ids.filter((id) => !kept.has(id));
    if (missing.length > 0) for (const outline of await target.getDocumentOutlines(missing)) kept.set(outline.id, outline);
    return ids.flatMap((id) => {
      const outline = kept.get(id);
      return outline === undefined ? [] : [outline];
    });
  };
}

// Long function: a closure over the parse pool and the caches an import reuses; each stage is a call.
export function createIngestionPipeline(options: IngestionPipelineOptions): IngestionPipeline {
  const { dataDir } = options;
  const log: Logger = options.log ?? (() => {});
  // The parsing child kept between imports belongs to this pipeline (and so to its engine) and dies with it.
  const parsePool = createParsePool();
  const limits = resolveParseLimits(options.parseLimits);
  // This machine's OCR pace (settings.json), read once and again only after an OCR import measured it.
  let ocrPace: Promise<number | null> | null = null;
  const currentOcrPace = (): Promise<number | null> => (ocrPace ??= readOcrPace(dataDir).catch(() => null));
  const otherDocuments = createOutlineCache();
  // wink's English pipeline is slow to load: taken at the first English document, kept after.
  let nlp: EnglishNlp | null = null;
  const englishNlp = (): EnglishNlp => (nlp ??= options.englishNlp?.() ?? createEnglishNlp());

  async function prepareVectors(embedder: Embedder, target: GraphStore): Promise<void> {
    await target.useEmbeddingSpace({ modelId: embedder.id, dimensions: embedder.dimensions });
    for (const documentId of await target.documentsMissingEmbeddings()) {
      const started = Date.now();
      const sections = await target.getSections(documentId);
      const triplets = await target.getTriplets(documentId);
      const sectionVectors = await embedAll(
        embedder,
        sections.filter((x) => x.text !== "" || x.heading !== "").map((x) => ({ id: x.id, text: sectionEmbeddingText(x) })),
        () => {},
      );
      const tripletVectors = await embedAll(
        embedder,
        triplets.map((t) => ({ id: t.id, text: tripletEmbeddingText(t) })),
        () => {},
      );
      await target.putEmbeddings(documentId, sectionVectors, tripletVectors);
      log(`re-embedded ${documentId} with ${embedder.id}: ${sectionVectors.size} sections, ${tripletVectors.size} triplets in ${Date.now() - started} ms`);
    }
  }

  async function ingestDocument(document: SectionedDocument, ingest: IngestOptions): Promise<DerivedGraph> {
    const { record, sections } = document;
    const { target, job, signal, timings } = ingest;
    job?.throwIfCancelled();
    job?.update("graph", 0, 1);
    let started = performance.now();
    // Yielding every ~10 ms: deriving a large document's graph in one go held the engine's thread too long.
    const derived = await buildDerivedGraphYielding({ id: record.id, title: record.title, language: record.language }, sections, await ingest.others(), {
      nlp: englishNlp(),
      // A cancel lands between two slices, not after the whole graph.
      afterYield: () => job?.throwIfCancelled(),
      ...(options.yieldToForeground ? { pause: options.yieldToForeground } : {}),
    });
    if (timings) timings.deriveMs += performance.now() - started;
    checkDerived(record.file, derived.triplets.length, limits);
    job?.update("graph", 1, 1);

    job?.throwIfCancelled();
    const embedder = await options.getEmbedder();
    started = performance.now();
    if (embedder) {
      job?.update("embeddings", 0, 1);
      await prepareVectors(embedder, target);
      await embedDerived(embedder, sections, derived, {
        ...(job ? { onProgress: (done: number, total: number) => job.update("embeddings", done, total) } : {}),
        ...(signal ? { signal } : {}),
        ...(options.yieldToForeground ? { pause: options.yieldToForeground } : {}),
      });
      if (timings) timings.embedded += derived.sectionEmbeddings.size + derived.tripletEmbeddings.size;
    }
    if (timings) timings.embedMs += performance.now() - started;

    job?.throwIfCancelled();
    await ingest.beforeStore?.();
    job?.update("storing", 0, sections.length);
    started = performance.now();
    await target.insertDocument(record, sections, derived);
    // Cancelled while it was stored (one transaction, which cannot be interrupted): undone, so
    // a file reported cancelled is never in the library.
    if (signal?.aborted === true) {
      await target.deleteDocument(record.id);
      job?.throwIfCancelled();
    }
    if (timings) timings.storeMs += performance.now() - started;
    job?.update("storing", sections.length, sections.length);
    return derived;
  }

  /** A failure or cancel of either half: the result says why and the job is finished with it. */
  function failed(result: ImportResult, err: unknown, absolute: string, job: JobReporter): ImportResult {
    const info = toErrorInfo(err, absolute);
    result.status = "error";
    result.error = info;
    if (err instanceof OcrNeededError) result.ocrOffer = err.offer;
    job.finish(info.code === "CANCELLED" ? "cancelled" : "failed", err);
    log(`failed ${absolute}: ${info.code} ${info.message}`);
    return result;
  }

  async function readFile(file: string, request: FileImport): Promise<ReadOutcome> {
    const { options: opts, job, target, origin } = request;
    const absolute = path.resolve(file);
    const result = emptyImportResult(origin?.file ?? absolute);
    try {
      job.throwIfCancelled();
      // Nothing is read before the file is known to be a regular file within the size limits;
      // then it is read and hashed once (abortable), so a re-import of a known file is a cheap
      // no-op, and those bytes are parsed in a child process under the parse limits
      // (core/ingest/parse-isolated.ts) and become the source copy: the file is read once.
      await checkFileBeforeReading(absolute);
      const source = await readSourceFile(absolute, opts.signal);
      const known = await target.findDocumentBySha(source.sha256);
      if (known) return { kind: "settled", result: skipped(result, known, job) };

      job.update("reading", 0, 1);
      const pace = await currentOcrPace();
      let ocrStarted: number | null = null;
      const parsed = await parsePool.parse(absolute, {
        limits,
        sha256: source.sha256,
        bytes: source.bytes,
        ...(opts.password !== undefined ? { password: opts.password } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        onPage: (page, total) => job.update("reading", page, total),
        // Scanned pages (core/ingest/ocr/): read with OCR in the same bounded child, each finished
        // page cached under <dataDir>/ocr-cache so a cancelled or killed import resumes from there.
        ocr: {
          mode: opts.ocr ?? "auto",
          cacheDir: ocrCacheDir(dataDir),
          ...(opts.ocrLanguage === undefined ? {} : { language: opts.ocrLanguage }),
          ...(pace === null ? {} : { secondsPerPage: pace }),
        },
        onOcrStart: (pages) => {
          ocrStarted = performance.now();
          job.update("ocr", 0, pages);
        },
        onOcrPage: (done, total) => {
          job.update("ocr", done, total);
          // This machine's pace, for the next "read it with OCR (about N s)?".
          if (done === total && ocrStarted !== null) {
            const seconds = (performance.now() - ocrStarted) / 1000;
            ocrStarted = null;
            void recordOcrPace(dataDir, total, seconds)
              .then(() => {
                ocrPace = null;
              })
              .catch((err: unknown) => log(`OCR pace not recorded: ${toErrorInfo(err).message}`));
          }
        },
        onStats: (stats) =>
          log(
            `read ${path.basename(absolute)} in the parsing child: ${stats.seconds.toFixed(1)} s, child peak RSS ${Math.round(stats.childPeakRss / 1024 / 1024)} MB${stats.reused ? "" : " (new child)"}`,
          ),
      });
      result.sha256 = parsed.sha256;
      result.documentId = documentIdFromSha(parsed.sha256);
      result.title = parsed.title;
      result.pages = parsed.pageCount;
      result.warnings.push(...parsed.warnings);
      const ocr = summarizeOcr(parsed.pages);
      if (ocr !== null) {
        result.ocr = ocr;
        await pruneOcrCache(ocrCacheDir(dataDir)).catch((err: unknown) => log(`OCR cache not trimmed: ${toErrorInfo(err).message}`));
      }

      job.throwIfCancelled();
      job.update("sections", 0, 1);
      const sections = sectionDocument(parsed, result.documentId);
      checkSectioned(absolute, sections, limits);
      job.update("sections", 1, 1);

      const record: DocumentRecord = {
        id: result.documentId,
        sha256: parsed.sha256,
        file: origin?.file ?? absolute,
        fileName: origin?.fileName ?? path.basename(absolute),
        title: parsed.title,
        format: parsed.format,
        language: parsed.language,
        pages: parsed.pageCount,
        bytes: parsed.bytes,
        sections: sections.length,
        importedAt: origin?.importedAt ?? new Date().toISOString(),
        // The instruments it is, by the registry (core/names/); a rebuild carries the user's edits over.
        aliases: registryAliases(parsed.title, sections),
        userAliases: origin?.userAliases ?? [],
        hiddenAliases: origin?.hiddenAliases ?? [],
        ...(ocr === null ? {} : { ocr }),
      };
      return { kind: "read", file: { result, record, sections, bytes: source.bytes, absolute } };
    } catch (err) {
      return { kind: "settled", result: failed(result, err, absolute, job) };
    }
  }

  async function storeFile(read: ReadFile, request: FileImport): Promise<ImportResult> {
    const { options: opts, job, target } = request;
    const { result, record, sections, absolute } = read;
    try {
      job.throwIfCancelled();
      // Checked again at its turn: the same content dropped twice in one batch is read twice
      // (the second read starts while the first is stored) but stored once.
      const existing = await target.findDocumentBySha(record.sha256);
      if (existing) return skipped(result, existing, job);

      const copy = sourcePath(dataDir, record.id, record.fileName);
      const copied = path.resolve(copy) !== absolute;
      /** The copy and its record are this import's: a failed transaction takes them back. */
      let landed = false;
      try {
        await ingestDocument(
          { record, sections },
          {
            target,
            others: () => otherDocuments(target),
            job,
            ...(opts.signal ? { signal: opts.signal } : {}),
            beforeStore: async () => {
              // The copy lands before the database row, so a stored document always has its source.
              // A full or read-only disk fails here, before the database is touched (WRITE_FAILED).
              if (copied) await keepSourceBytes(read.bytes, absolute, copy);
              // Where it came from, beside the copy: a document a damaged library lost is re-imported
              // from the copy under its own name (repairLibrary).
              await writeSourceRecord(dataDir, record);
              landed = true;
            },
          },
        );
      } catch (err) {
        // On a nearly full disk the copy is exactly the space the user needs back.
        if (landed && (await target.getDocument(record.id).catch(() => null)) === null && copied) {
          await rm(copy, { force: true }).catch(() => undefined);
          await removeSourceRecord(dataDir, record.id);
        }
        throw err;
      }
      result.sections = sections.length;
      result.status = "ok";
      job.finish("done");
      log(`imported ${record.fileName}: ${record.pages} pages, ${sections.length} sections`);
      return result;
    } catch (err) {
      return failed(result, err, absolute, job);
    }
  }

  async function importFile(file: string, request: FileImport): Promise<ImportResult> {
    const outcome = await readFile(file, request);
    return outcome.kind === "settled" ? outcome.result : storeFile(outcome.file, request);
  }

  return {
    importFile,
    readFile,
    storeFile,
    ingestDocument,
    prepareVectors,
    close() {
      parsePool.close();
    },
  };
}
