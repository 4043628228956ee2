import { readFileSync } from "node:fs";

// Resident memory of another process, read from /proc on Linux (~20 µs a read). Elsewhere null:
// the parsing child then reports its own (parse-child.ts), which it cannot do while pdf.js holds
// its thread, so the time budgets back the memory limit up there.

const VM_RSS = /^VmRSS:\s+(\d+)\s+kB/m;

export function processRss(pid: number): number | null {
  try {
    const kb = VM_RSS.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}
