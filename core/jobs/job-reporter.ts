import { randomUUID } from "node:crypto";
import { ClauseGraphError, toErrorInfo } from "../model/errors.ts";
import type { JobProgress, JobStatus, ProgressListener } from "../model/job.ts";

export interface JobReporter {
  readonly jobId: string;
  /** Reports progress; intermediate updates are throttled, step changes always go out. */
  update(step: string, current: number, total: number): void;
  /** Final event; later calls are ignored so every job is finalized exactly once. */
  finish(status: Extract<JobStatus, "done" | "failed" | "cancelled">, error?: unknown): void;
  /** Throws CANCELLED when the job's signal is aborted, so long loops can bail out between units. */
  throwIfCancelled(): void;
}

export interface JobReporterOptions {
  /** The caller's id for this job (so it can match progress and cancel before the first event); default a random UUID. */
  jobId?: string;
  listener?: ProgressListener;
  subject?: string;
  signal?: AbortSignal;
  /** Minimum gap between two intermediate updates of one job. */
  throttleMs?: number;
  now?: () => number;
}

export function createJobReporter(options: JobReporterOptions = {}): JobReporter {
  const jobId = options.jobId ?? randomUUID();
  const throttleMs = options.throttleMs ?? 100;
  const now = options.now ?? Date.now;
  let lastSent = Number.NEGATIVE_INFINITY;
  let lastStep = "";
  let finished = false;
  let current = 0;
  let total = 0;

  const emit = (progress: Omit<JobProgress, "jobId" | "subject">): void => {
    if (!options.listener) return;
    const event: JobProgress = { jobId, ...progress };
    if (options.subject !== undefined) event.subject = options.subject;
    try {
      options.listener(event);
    } catch {
      // A broken listener (e.g. a closed window) must never break the job it observes.
    }
  };

  emit({ status: "queued", step: "queued", current: 0, total: 0 });

  return {
    jobId,
    update(step, cur, tot) {
      if (finished) return;
      current = cur;
      total = tot;
      const t = now();
      const isBoundary = step !== lastStep || cur === tot;
      if (!isBoundary && t - lastSent < throttleMs) return;
      lastSent = t;
      lastStep = step;
      emit({ status: "running", step, current: cur, total: tot });
    },
    finish(status, error) {
      if (finished) return;
      finished = true;
      const final: Omit<JobProgress, "jobId" | "subject"> = { status, step: status, current, total };
      if (error !== undefined) final.error = toErrorInfo(error, options.subject);
      emit(final);
    },
    throwIfCancelled() {
      if (options.signal?.aborted) {
        throw new ClauseGraphError("CANCELLED", "cancelled by the user", options.subject === undefined ? {} : { file: options.subject });
      }
    },
  };
}
