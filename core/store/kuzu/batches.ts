/** `items` in slices of at most `size`: one UNWIND statement each (KuzuStoreOptions.batchSize). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
