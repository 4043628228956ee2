import { describe, expect, it } from "vitest";
import { kthLargest } from "../../core/store/kuzu/vector-mirror.ts";

// The exact vector search's cut-off: the k-th best score, as sorting every score would give it.

function bySort(values: Float32Array, k: number): number {
  return Float32Array.from(values).sort()[Math.max(0, values.length - k)] ?? Number.NEGATIVE_INFINITY;
}

describe("kthLargest", () => {
  it("equals the k-th value of a sorted copy, ties and short lists included", () => {
    let seed = 7;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (const n of [1, 2, 5, 100, 1_000, 20_000]) {
      const values = Float32Array.from({ length: n }, () => Math.round(next() * 50) / 50);
      for (const k of [1, 3, 50, 150, n, n + 10]) expect(kthLargest(values, k)).toBe(bySort(values, k));
    }
  });

  it("has nothing to pick in an empty list", () => {
    expect(kthLargest(new Float32Array(0), 5)).toBe(Number.NEGATIVE_INFINITY);
  });
});
