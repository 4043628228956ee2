// Numbering order is the strongest evidence that a line is a heading and not a cross-reference,
// a numbered list item or a table-of-contents entry: real headings continue the document's
// numbering, the others jump back or sideways.

export type SequenceRule = "next" | "increasing" | "successor";

function compare(a: readonly number[], b: readonly number[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * True when decimal number `next` continues an outline whose last entry was `prev`: a first child
 * (3.2 → 3.2.1), a next sibling at any depth (3.2.1 → 3.2.2, 3.2.1 → 3.3, 3.2.1 → 4), where the
 * new entry's deeper components start at 1 (2.3.4 → 3.1 is allowed: chapter headings are often
 * printed as words, "CHAPTER THREE", not as "3").
 */
export function continuesOutline(prev: readonly number[] | undefined, next: readonly number[]): boolean {
  if (prev === undefined) return (next[0] ?? 0) <= 3 && next.slice(1).every((n) => n <= 1);
  let i = 0;
  while (i < prev.length && i < next.length && prev[i] === next[i]) i++;
  if (i === next.length) return false;
  if (i === prev.length) return next.length === i + 1 && (next[i] ?? 0) <= 1;
  const step = (next[i] ?? 0) - (prev[i] ?? 0);
  // A skipped number is tolerated at the top level only, where a lost heading costs most.
  const okStep = step === 1 || (i === 0 && step === 2);
  return okStep && next.slice(i + 1).every((n) => n <= 1);
}

export function followsSequence(rule: SequenceRule, prev: readonly number[] | undefined, next: readonly number[]): boolean {
  switch (rule) {
    case "next": {
      // A few lost numbers (a label the parser dropped) must not end the whole run.
      const step = (next[0] ?? 0) - (prev?.[0] ?? 0);
      return step >= 1 && step <= 5;
    }
    case "increasing":
      return prev === undefined || compare(next, prev) > 0;
    case "successor":
      return continuesOutline(prev, next);
  }
}
