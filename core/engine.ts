import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type {
  DeleteResult,
  Engine,
  EngineStats,
  ImportOptions,
  ImportResult,
  SearchOptions,
  SearchResult,
} from "./engine-types.ts";
import { ClauseGraphError, toErrorInfo } from "./errors.ts";
import { parseDocument } from "./ingest/parse-document.ts";
import { buildDerivedGraph, type OtherDocument } from "./graph/build-derived-graph.ts";
import { createJobReporter, type JobReporter } from "./jobs/job-reporter.ts";
import { makeSnippet } from "./retrieve/snippet.ts";
import type { DocumentRecord, GraphStore } from "./store/graph-store.ts";
import { createKuzuStore } from "./store/kuzu-store.ts";
import { sectionDocument } from "./structure/section-document.ts";
import type { Section } from "./structure/types.ts";

export type Logger = (message: string) => void;

export interface EngineOptions {
  /** Everything the engine persists lives under this directory. */
  dataDir: string;
  /** Defaults to the Kuzu store at `<dataDir>/graph.kuzu`; tests may pass their own. */
  store?: GraphStore;
  log?: Logger;
}

/** The Kuzu database file inside a data dir: one place so CLI, host and tests agree. */
export function databasePath(dataDir: string): string {
  return path.join(dataDir, "graph.kuzu");
}

/** Short, typeable and stable: the same file always gets the same id. */
export function documentIdFromSha(sha256: string): string {
  return sha256.slice(0, 16);
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
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

function emptyResult(file: string): ImportResult {
  return { file, documentId: null, sha256: null, title: null, pages: 0, sections: 0, status: "error", warnings: [] };
}

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const dataDir = path.resolve(options.dataDir);
  const log: Logger = options.log ?? (() => {});
  await mkdir(dataDir, { recursive: true });
  const store = options.store ?? createKuzuStore({ dbPath: databasePath(dataDir), log });
  await store.open();
  let closed = false;

  // Kuzu allows one write transaction at a time; imports from several callers (UI + CLI in the
  // web host) are serialized here instead of failing on a busy database.
  let writeQueue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(work: () => Promise<T>): Promise<T> => {
    const next = writeQueue.then(work, work);
    writeQueue = next.catch(() => undefined);
    return next;
  };

  const ensureOpen = (): void => {
    if (closed) throw new ClauseGraphError("INTERNAL", "the engine is closed");
  };

  /** Imported documents with their sections: citations into them resolve to their sections. */
  async function otherDocuments(): Promise<OtherDocument[]> {
    const docs = await store.listDocuments();
    return Promise.all(docs.map(async (d) => ({ id: d.id, title: d.title, sections: await store.getSections(d.id) })));
  }

  async function importOne(file: string, opts: ImportOptions): Promise<ImportResult> {
    const absolute = path.resolve(file);
    const result = emptyResult(absolute);
    const job = createJobReporter({
      subject: absolute,
      ...(opts.onProgress ? { listener: opts.onProgress } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    try {
      job.throwIfCancelled();
      // Hash before parsing so a re-import of a known file is a cheap no-op; an unreadable file
      // falls through to the parser, which reports it with a typed error.
      const sha = await sha256OfFile(absolute).catch(() => null);
      const known = sha === null ? null : await store.findDocumentBySha(sha);
      if (known) return skipped(result, known, job);

      job.update("reading", 0, 1);
      const parsed = await parseDocument(absolute, {
        ...(opts.password !== undefined ? { password: opts.password } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        onPage: (page, total) => job.update("reading", page, total),
      });
      result.sha256 = parsed.sha256;
      result.documentId = documentIdFromSha(parsed.sha256);
      result.title = parsed.title;
      result.pages = parsed.pageCount;
      result.warnings.push(...parsed.warnings);

      const existing = await store.findDocumentBySha(parsed.sha256);
      if (existing) return skipped(result, existing, job);

      job.throwIfCancelled();
      job.update("sections", 0, 1);
      const sections = sectionDocument(parsed, result.documentId);
      job.update("sections", 1, 1);

      job.throwIfCancelled();
      job.update("graph", 0, 1);
      const derived = buildDerivedGraph(
        { id: result.documentId, title: parsed.title, language: parsed.language },
        sections,
        await otherDocuments(),
      );
      job.update("graph", 1, 1);

      const record: DocumentRecord = {
        id: result.documentId,
        sha256: parsed.sha256,
        file: absolute,
        fileName: path.basename(absolute),
        title: parsed.title,
        format: parsed.format,
        language: parsed.language,
        pages: parsed.pageCount,
        bytes: parsed.bytes,
        sections: sections.length,
        importedAt: new Date().toISOString(),
      };
      job.throwIfCancelled();
      job.update("storing", 0, sections.length);
      await store.insertDocument(record, sections, derived);
      job.update("storing", sections.length, sections.length);
      result.sections = sections.length;
      result.status = "ok";
      job.finish("done");
      log(`imported ${record.fileName}: ${record.pages} pages, ${sections.length} sections`);
      return result;
    } catch (err) {
      const info = toErrorInfo(err, absolute);
      result.status = "error";
      result.error = info;
      job.finish(info.code === "CANCELLED" ? "cancelled" : "failed", err);
      log(`failed ${absolute}: ${info.code} ${info.message}`);
      return result;
    }
  }

  function toSearchResult(section: Section, document: DocumentRecord, score: number, query: string): SearchResult {
    return {
      sectionId: section.id,
      documentId: document.id,
      file: document.file,
      label: section.label,
      heading: section.heading,
      path: section.path,
      pageStart: section.pageStart,
      pageEnd: section.pageEnd,
      score,
      text: makeSnippet(section.text || section.heading, query),
    };
  }

  async function resolveDocument(idOrFile: string): Promise<DocumentRecord | null> {
    const byId = await store.getDocument(idOrFile);
    if (byId) return byId;
    const absolute = path.resolve(idOrFile);
    const docs = await store.listDocuments();
    return (
      docs.find((d) => d.file === absolute) ??
      docs.find((d) => d.fileName === idOrFile) ??
      (idOrFile.length >= 6 ? docs.find((d) => d.id.startsWith(idOrFile) || d.sha256.startsWith(idOrFile)) : undefined) ??
      null
    );
  }

  return {
    dataDir,
    async importFiles(files, opts = {}) {
      ensureOpen();
      const results: ImportResult[] = [];
      // One file at a time: pdf.js and Kuzu's writer are the bottlenecks and both are single-threaded here.
      for (const file of files) {
        results.push(await serialize(() => importOne(file, opts)));
      }
      return results;
    },
    async search(query, opts: SearchOptions = {}) {
      ensureOpen();
      const k = Math.max(1, Math.min(100, Math.floor(opts.k ?? 10)));
      const hits = await store.searchSections(query, k);
      return hits.map((h) => toSearchResult(h.section, h.document, h.score, query));
    },
    async listDocuments() {
      ensureOpen();
      return store.listDocuments();
    },
    async getSection(id) {
      ensureOpen();
      return store.getSection(id);
    },
    async getSections(documentId) {
      ensureOpen();
      return store.getSections(documentId);
    },
    async deleteDocument(idOrFile): Promise<DeleteResult> {
      ensureOpen();
      return serialize(async () => {
        const doc = await resolveDocument(idOrFile);
        if (!doc) return { deleted: false, documentId: null, file: null };
        const deleted = await store.deleteDocument(doc.id);
        return { deleted, documentId: doc.id, file: doc.file };
      });
    },
    async stats(): Promise<EngineStats> {
      ensureOpen();
      return store.stats();
    },
    async close() {
      if (closed) return;
      closed = true;
      await writeQueue.catch(() => undefined);
      await store.close();
    },
  };
}
