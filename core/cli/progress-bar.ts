import type { JobProgress } from "../model/job.ts";
import { rawStream, terminalSafe } from "./terminal-text.ts";

// A one-line progress bar on stderr, redrawn in place; only used on a terminal so piped and --json
// output stay clean.
export interface ProgressBar {
  onProgress(progress: JobProgress): void;
  done(): void;
}

export function createProgressBar(safe: NodeJS.WriteStream, label: (p: JobProgress) => string): ProgressBar {
  // Its \r and erase-line are its own; the label (a file name) is made safe here instead.
  const stream = rawStream(safe);
  const width = 24;
  let drawn = false;
  return {
    onProgress(p) {
      if (p.status !== "running") return;
      const ratio = p.total > 0 ? Math.min(1, p.current / p.total) : 0;
      const filled = Math.round(ratio * width);
      const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
      const text = `${bar} ${String(Math.round(ratio * 100)).padStart(3)}% ${p.step.padEnd(8)} ${terminalSafe(label(p))}`;
      const columns = stream.columns ?? 100;
      stream.write(`\r${text.slice(0, columns - 1).padEnd(Math.min(columns - 1, text.length))}\x1b[K`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write("\r\x1b[K");
      drawn = false;
    },
  };
}
