import type { JobProgress } from "../model/job.ts";
import type { WireEvent } from "./contract.ts";

// The jobs a dispatcher's requests are running, each job id mapped to the request that can abort
// it: jobs.cancel looks ids up here, and a host shutting down aborts them all. Shared by every
// feature's handlers (imports, extraction, repair, comparisons, ask), so one id space serves all.

export interface JobTracker {
  /**
   * Runs long work whose progress events are forwarded and whose every job id (the caller's own,
   * registered before the work starts so a file still waiting can be cancelled, and each id the
   * engine's events name) cancels the whole run.
   */
  runTracked<T>(callerJobId: string | undefined, work: (signal: AbortSignal, onProgress: (progress: JobProgress) => void) => Promise<T>): Promise<T>;
  /** Registers `controller` under `jobId` while `work` runs (an answer that streams tokens). */
  runWithId<T>(jobId: string | undefined, controller: AbortController, work: () => Promise<T>): Promise<T>;
  /** Aborts the request running `jobId`; false when no such job runs. */
  cancel(jobId: string): boolean;
  cancelAll(): void;
}

export function createJobTracker(emit: (event: WireEvent) => void): JobTracker {
  const jobs = new Map<string, AbortController>();
  return {
    async runTracked(callerJobId, work) {
      const controller = new AbortController();
      const seen = new Set<string>(callerJobId === undefined ? [] : [callerJobId]);
      if (callerJobId !== undefined) jobs.set(callerJobId, controller);
      const onProgress = (progress: JobProgress): void => {
        if (!seen.has(progress.jobId)) {
          seen.add(progress.jobId);
          jobs.set(progress.jobId, controller);
        }
        emit({ event: "job.progress", payload: progress });
      };
      try {
        return await work(controller.signal, onProgress);
      } finally {
        for (const jobId of seen) jobs.delete(jobId);
      }
    },
    async runWithId(jobId, controller, work) {
      if (jobId !== undefined) jobs.set(jobId, controller);
      try {
        return await work();
      } finally {
        if (jobId !== undefined) jobs.delete(jobId);
      }
    },
    cancel(jobId) {
      const controller = jobs.get(jobId);
      if (controller === undefined) return false;
      controller.abort();
      return true;
    },
    cancelAll() {
      for (const controller of jobs.values()) controller.abort();
    },
  };
}
