import { readFileSync } from "node:fs";

// Processes seen from /proc (Linux): the tests that kill an engine check that its parsing child
// (pdf.js, Tesseract's workers) does not outlive it.

/** Pids of `parent`'s children running the parser (core/ingest/parse-child.ts). */
export function parseChildrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const line of readFileSync(`/proc/${parent}/task/${parent}/children`, "latin1").trim().split(/\s+/).filter(Boolean)) {
    const pid = Number(line);
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("parse-child")) pids.push(pid);
    } catch {
      // already gone
    }
  }
  return pids;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
