// Kuzu 0.11.3 (Node binding) types each field of a list-of-structs parameter from its first
// element: in `UNWIND $rows AS r CREATE (… {score: r.score})`, a first row whose score is 1 (a
// whole number in JavaScript) types the field INT64, and the fractional scores after it are
// stored into the DOUBLE column as their raw bits (0.0606 became 4588894201433191400); a first
// row of 0.5 followed by 1 stored 1 as 5e-324 (test/integration/store-comparisons.test.ts shows both).
// Scores of exactly 1 or 0 are ordinary in a crosswalk. So DOUBLE values in UNWIND rows travel as
// text and are cast in the statement: `CAST(r.score AS DOUBLE)`.

/** A double for an UNWIND row: its shortest exact text, cast back with CAST(… AS DOUBLE). */
export function doubleParam(value: number): string {
  return Number.isFinite(value) ? String(value) : "0";
}
