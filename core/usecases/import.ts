import path from "node:path";
import type { ImportOptions, ImportResult } from "../model/engine-types.ts";
import { ClauseGraphError, toErrorInfo } from "../model/errors.ts";
import type { JobReporter } from "../jobs/job-reporter.ts";
import { emptyImportResult } from "../pipeline/ingestion-pipeline.ts";
import { importJob, type EngineContext } from "./context.ts";

/**
 * Imports files into the library, stored one at a time in the order given (Kuzu has one writer),
 * each read in the parsing child while the one before it is stored. Every file is queued now with
 * its job ("queued" event), so a file cancelled while it waits settles at once and is never read.
 */
export function importFiles(ctx: EngineContext, files: readonly string[], opts: ImportOptions = {}): Promise<ImportResult[]> {
  const jobIdOf = (index: number): string | undefined =>
    opts.jobId === undefined ? undefined : files.length === 1 ? opts.jobId : `${opts.jobId}-${index + 1}`;
  return Promise.all(
    files.map((file, index) => {
      const job = importJob(file, opts, jobIdOf(index));
      const request = { options: opts, job, target: ctx.store };
      const read = ctx.readAhead.schedule(() => ctx.pipeline.readFile(file, request));
      return ctx.writes.runUnlessCancelled(
        opts.signal,
        () =>
          ctx.store.batchWrites(async () => {
            let result: ImportResult;
            try {
              const outcome = await read.result;
              result = outcome.kind === "settled" ? outcome.result : await ctx.pipeline.storeFile(outcome.file, request);
            } finally {
              read.release();
            }
            if (result.status === "ok") ctx.searchIndex.markStale();
            // The last file of a batch rebuilds the index: it is searchable as soon as its result is back.
            await ctx.searchIndex.refreshWhenDrained();
            return result;
          }),
        () => cancelledBeforeStart(file, job),
      );
    }),
  );
}

/** A file cancelled while it waited for its turn: nothing of it was read. */
function cancelledBeforeStart(file: string, job: JobReporter): ImportResult {
  const result = emptyImportResult(path.resolve(file));
  const err = new ClauseGraphError("CANCELLED", "Import cancelled before it started.", { file: path.resolve(file) });
  result.error = toErrorInfo(err, path.resolve(file));
  job.finish("cancelled", err);
  return result;
}
