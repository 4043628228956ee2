import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";

// One wording for every parse-limit breach, whichever guard found it (the pre-scan in the child,
// the child's own checks, or the parent's memory and time watchdogs): the file, where, and the limit.

export interface Breach {
  /** What went over, in words: "graphics states nested 1,000,000 deep". */
  what: string;
  /** The limit, in words: "the limit is 256". */
  limit: string;
  /** 1-based page, when known. */
  page?: number;
  /** Where else, when the page is not known: "in object 12", "while opening it". */
  where?: string;
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

export function tooComplex(file: string, breach: Breach): ClauseGraphError {
  const where = breach.page !== undefined ? ` on page ${breach.page}` : breach.where !== undefined ? ` ${breach.where}` : "";
  return new ClauseGraphError(
    "TOO_COMPLEX",
    `${path.basename(file)} is too complex to read safely: ${breach.what}${where}; ${breach.limit}. Nothing was imported.`,
    { file },
  );
}
