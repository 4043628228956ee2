import type { AnswerLogWriter, Conversations, LanguageResources } from "../answer/index.ts";
import path from "node:path";
import type { ImportOptions } from "../model/engine-types.ts";
import { toErrorInfo } from "../model/errors.ts";
import type { Embedder } from "../model/embedder.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import type { LibraryNames } from "../model/question-analysis-types.ts";
import type { StageSwitches } from "../model/retrieval-types.ts";
import type { Foreground } from "../jobs/foreground.ts";
import { createJobReporter, type JobReporter } from "../jobs/job-reporter.ts";
import type { ReadAhead } from "../jobs/read-ahead.ts";
import type { WriteQueue } from "../jobs/write-queue.ts";
import type { ModelSelection } from "../llm/model-selection.ts";
import type { IngestionPipeline } from "../pipeline/ingestion-pipeline.ts";
import type { RetrievalCaches } from "../retrieve/retrieval-caches.ts";
import type { GraphStore } from "../store/graph-store.ts";
import type { ReadCacheControls } from "../store/read-cache.ts";

export type Logger = (message: string) => void;

/**
 * What every use case of one engine shares: the library, the stages built once per engine, and
 * the queues that order its work. createEngine builds it; the use cases only read it.
 */
export interface EngineContext {
  readonly dataDir: string;
  /** The library, behind its read cache. */
  readonly store: GraphStore & ReadCacheControls;
  /** Whether the caller gave the store (tests); such a library cannot be rebuilt from its copies. */
  readonly callerStore: boolean;
  readonly log: Logger;
  /** The documents' names questions and searches are scoped by, read once per state of the library (not to be changed). */
  libraryNames(): Promise<LibraryNames>;
  /** The languages the library's documents are written in, read once per state of the library. */
  libraryLanguages(): Promise<ReadonlySet<string>>;
  /** The text embedder, made on first use; null when there is none (BM25 and the graph only). */
  getEmbedder(): Promise<Embedder | null>;
  readonly retrievalCaches: RetrievalCaches;
  readonly languageResources: LanguageResources;
  /** Searches and questions go before an import's graph work (jobs/foreground.ts). */
  readonly foreground: Foreground;
  readonly pipeline: IngestionPipeline;
  readonly models: ModelSelection;
  readonly answerLog: AnswerLogWriter;
  readonly conversations: Conversations;
  /** Kuzu has one writer: every write of the engine takes its turn here. */
  readonly writes: WriteQueue;
  /** Imports read ahead of their store (jobs/read-ahead.ts). */
  readonly readAhead: ReadAhead;
  readonly searchIndex: SearchIndexFreshness;
  /** A write task in its turn; searches meanwhile keep to the last full-text index. */
  serialize<T>(work: () => Promise<T>): Promise<T>;
  isClosed(): boolean;
}

/** The full-text index is rebuilt once the write queue drains after writes that changed documents. */
export interface SearchIndexFreshness {
  /** The library's documents changed since the index was last built. */
  markStale(): void;
  /**
   * When the caller's task is the last one queued: rebuilds the index if it is stale, and queues
   * a compaction of the library for when the caller's task is done (it compacts only a file that
   * deletes and re-imports grew far past its rows).
   */
  refreshWhenDrained(): Promise<void>;
}

/**
 * Rebuilt once the queue drains after writes that changed the documents, so a batch pays for one
 * rebuild, not one per file; searches meanwhile are answered by the last index built.
 */
export function searchIndexFreshness(store: GraphStore, writes: WriteQueue, log: Logger): SearchIndexFreshness {
  let stale = false;
  return {
    markStale: () => void (stale = true),
    async refreshWhenDrained() {
      if (writes.pending !== 1) return;
      if (stale) {
        stale = false;
        await store.refreshSearchIndex().catch((err: unknown) => log(`index refresh failed: ${toErrorInfo(err).message}`));
      }
      // Queued, not awaited: the import or delete that drained the queue is not held up by it. A
      // failed compaction leaves the library as it was: it only costs memory and disk.
      void writes.run(() => store.compactIfGrown()).catch((err: unknown) => log(`library not compacted: ${toErrorInfo(err).message}`));
    },
  };
}

/** Every retrieval stage on: what questions and searches use unless a bench turns one off. */
export const ALL_STAGES: StageSwitches = { bm25: true, sectionVectors: true, tripletVectors: true, graphExpansion: true, rescore: true };

/** The Kuzu database file inside a data dir: one place so CLI, host and tests agree. */
export function databasePath(dataDir: string): string {
  return path.join(dataDir, "graph.kuzu");
}

/** A document by id, by its file's path or name, or by a prefix of its id or hash (six characters at least). */
export async function resolveDocument(ctx: EngineContext, idOrFile: string): Promise<DocumentRecord | null> {
  const byId = await ctx.store.getDocument(idOrFile);
  if (byId) return byId;
  const absolute = path.resolve(idOrFile);
  const docs = await ctx.store.listDocuments();
  return (
    docs.find((d) => d.file === absolute) ??
    docs.find((d) => d.fileName === idOrFile) ??
    (idOrFile.length >= 6 ? docs.find((d) => d.id.startsWith(idOrFile) || d.sha256.startsWith(idOrFile)) : undefined) ??
    null
  );
}

/** A file's import job; its "queued" event goes out now. */
export function importJob(file: string, opts: ImportOptions, jobId: string | undefined): JobReporter {
  return createJobReporter({
    subject: path.resolve(file),
    ...(jobId === undefined ? {} : { jobId }),
    ...(opts.onProgress ? { listener: opts.onProgress } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}
