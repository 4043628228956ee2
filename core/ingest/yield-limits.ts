import type { Section } from "../model/section-types.ts";
import type { ParseLimits } from "./parse-limits.ts";
import { formatCount, tooComplex } from "./too-complex.ts";

// A file inside the input limits can still yield more than the engine can take on: a large text
// on one line became thousands of sections and tens of thousands of statements, and storing them took minutes and
// filled the library's buffer pool. What a file yields is checked as soon as it is known, before
// the stage it would overwhelm; a breach is TOO_COMPLEX naming the file and the limit, and nothing
// is stored.

type YieldLimits = Pick<ParseLimits, "documentTextChars" | "documentSections" | "documentTriplets">;

/** After sectioning: the text and the sections the graph, the vectors and the store would take. */
export function checkSectioned(file: string, sections: readonly Section[], limits: YieldLimits): void {
  const chars = sections.reduce((sum, s) => sum + s.text.length, 0);
  if (chars > limits.documentTextChars) {
    throw tooComplex(file, {
      what: `its text runs to ${formatCount(chars)} characters`,
      limit: `a document may hold at most ${formatCount(limits.documentTextChars)}`,
      where: "once read",
    });
  }
  if (sections.length > limits.documentSections) {
    throw tooComplex(file, {
      what: `it divides into ${formatCount(sections.length)} sections`,
      limit: `a document may have at most ${formatCount(limits.documentSections)}`,
      where: "once read",
    });
  }
}

/** After the graph is derived: the statements (triplets) the vectors and the store would take. */
export function checkDerived(file: string, triplets: number, limits: YieldLimits): void {
  if (triplets > limits.documentTriplets) {
    throw tooComplex(file, {
      what: `${formatCount(triplets)} statements were found in it`,
      limit: `a document may yield at most ${formatCount(limits.documentTriplets)}`,
      where: "once read",
    });
  }
}
