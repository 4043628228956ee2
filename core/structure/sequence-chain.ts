import type { SequenceRule } from "./sequence-guard.ts";
import { followsSequence } from "./sequence-guard.ts";

// Checking each candidate only against the previous accepted one lets a single impostor (a
// wrapped contents entry "§ 164.512 …", a stray "Article 99") block every real heading after it.
// Instead we keep the longest chain of candidates that respects the numbering rule: impostors
// break a chain, real headings extend it.

export interface Ordered {
  order: readonly number[];
}

/** Indices (into `items`, ascending) of the longest chain obeying `rule`. */
export function longestChain(items: readonly Ordered[], rule: SequenceRule): number[] {
  const n = items.length;
  const best = new Array<number>(n).fill(0);
  const prev = new Array<number>(n).fill(-1);
  let top = -1;
  for (let j = 0; j < n; j++) {
    const item = items[j];
    if (item === undefined) continue;
    if (followsSequence(rule, undefined, item.order)) best[j] = 1;
    for (let i = j - 1; i >= 0; i--) {
      const before = items[i];
      const score = best[i] ?? 0;
      if (before === undefined || score === 0 || score + 1 <= (best[j] ?? 0)) continue;
      if (followsSequence(rule, before.order, item.order)) {
        best[j] = score + 1;
        prev[j] = i;
      }
    }
    if ((best[j] ?? 0) > 0 && (top < 0 || (best[j] ?? 0) > (best[top] ?? 0))) top = j;
  }
  const chain: number[] = [];
  for (let k = top; k >= 0; k = prev[k] ?? -1) chain.push(k);
  return chain.reverse();
}
