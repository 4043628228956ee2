import { readdirSync, readFileSync } from "node:fs";
import { processRss } from "../../core/ingest/process-rss.ts";

// Peak memory of the engine (this process) and of its parsing children while something runs:
// sampled every intervalMs from process.memoryUsage and, for the children, /proc (Linux).

export interface RssPeaks {
  engine: number;
  /** 0 where /proc is missing. */
  children: number;
}

export interface RssSampler {
  stop(): RssPeaks;
}

/** Pids of this process's parsing children (core/ingest/parse-child.ts); [] where /proc is missing. */
export function parseChildPids(): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return entries.map(Number).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("parse-child");
    } catch {
      return false; // ended between the listing and the read
    }
  });
}

function childrenRss(): number {
  return parseChildPids().reduce((sum, pid) => sum + (processRss(pid) ?? 0), 0);
}

export function sampleRss(intervalMs = 100): RssSampler {
  const peaks: RssPeaks = { engine: process.memoryUsage.rss(), children: 0 };
  const sample = (): void => {
    peaks.engine = Math.max(peaks.engine, process.memoryUsage.rss());
    peaks.children = Math.max(peaks.children, childrenRss());
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}

/** SIGKILLs this process's parsing children, as the system's out-of-memory killer would. */
export function killParseChildren(): void {
  for (const pid of parseChildPids()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
