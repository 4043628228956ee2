import type { ErrorInfo } from "./errors.ts";

// One progress shape for every long piece of work (import, extraction, embedding), so the CLI's
// progress bar and the UI's rows read the same events.
export type JobStatus = "queued" | "running" | "done" | "failed" | "cancelled";

export interface JobProgress {
  jobId: string;
  status: JobStatus;
  /** What is being done now, e.g. "reading", "sections", "storing". */
  step: string;
  current: number;
  total: number;
  /** What the job is about, e.g. the file name. */
  subject?: string;
  error?: ErrorInfo;
}

export type ProgressListener = (progress: JobProgress) => void;
