// Bounded caches that forget their oldest entries, never all of them at once: a cache emptied
// when full made every lookup right after it a miss, and at a large library's size that happened
// every few dozen searches, each time a run of slow ones.

/** Share of the capacity forgotten at once, so that making room is rare (amortised O(1)). */
const FORGOTTEN_SHARE = 0.1;

/**
 * Makes room in a map (kept in insertion order) for `incoming` more entries under `capacity`: its
 * oldest entries go, at least a tenth of the capacity at a time.
 */
export function makeRoom<K, V>(map: Map<K, V>, capacity: number, incoming = 1): void {
  if (map.size + incoming <= capacity) return;
  let drop = map.size + incoming - capacity + Math.ceil(Math.max(1, capacity) * FORGOTTEN_SHARE);
  for (const key of map.keys()) {
    if (drop-- <= 0) break;
    map.delete(key);
  }
}
