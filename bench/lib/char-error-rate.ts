// Character error rate: the edit distance (insertions, deletions, substitutions) between what OCR
// read and the ground truth, over the ground truth's length. Both are compared with their runs of
// whitespace made one space: line breaks and column gaps are layout, not characters read.

export function normalizeForCer(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Levenshtein distance in O(|a|·|b|) time and O(|b|) memory (two 12,000-character texts: ~1 s). */
export function editDistance(a: string, b: string): number {
  let prev = new Uint32Array(b.length + 1);
  let cur = new Uint32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitute = (prev[j - 1] ?? 0) + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      cur[j] = Math.min(substitute, (prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] ?? 0;
}

export function charErrorRate(read: string, truth: string): number {
  const a = normalizeForCer(read);
  const b = normalizeForCer(truth);
  return b.length === 0 ? (a.length === 0 ? 0 : 1) : editDistance(a, b) / b.length;
}

/**
 * The character error rate independent of reading order, by line: every line of the ground truth
 * is paired with the read line it differs least from (greedily, best pairs first; each line pairs
 * once), unpaired lines count whole (missed or invented text), and the sum of edits is divided by
 * the ground truth's characters. Both texts break lines where the page does, so this measures what
 * was read, not in which order columns and blocks were visited: the corpus's ground truth is
 * pdftotext's output, which visits the HIPAA page's column blocks in an order of its own (the
 * first lines of column 2 after the first block of column 1), where ClauseGraph reads column by
 * column. A simplified form of the flexible character accuracy of Clausner, Pletschacher and
 * Antonacopoulos (Pattern Recognition Letters, 2020).
 */
export function lineMatchedCharErrorRate(read: string, truth: string): number {
  const lines = (text: string): string[] =>
    text
      .split(/\n/)
      .map(normalizeForCer)
      .filter((l) => l.length > 0);
  const a = lines(read);
  const b = lines(truth);
  const total = b.reduce((n, l) => n + l.length, 0);
  if (total === 0) return a.length === 0 ? 0 : 1;
  const pairs: Array<{ i: number; j: number; cost: number; share: number }> = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? "";
    for (let j = 0; j < b.length; j++) {
      const y = b[j] ?? "";
      // A pair whose lengths differ by more than the shorter line cannot be the same line.
      if (Math.abs(x.length - y.length) > Math.min(x.length, y.length)) continue;
      const cost = editDistance(x, y);
      if (cost < Math.max(x.length, y.length)) pairs.push({ i, j, cost, share: cost / Math.max(x.length, y.length) });
    }
  }
  pairs.sort((p, q) => p.share - q.share || p.cost - q.cost);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  let edits = 0;
  for (const p of pairs) {
    if (usedA.has(p.i) || usedB.has(p.j)) continue;
    usedA.add(p.i);
    usedB.add(p.j);
    edits += p.cost;
  }
  a.forEach((l, i) => {
    if (!usedA.has(i)) edits += l.length;
  });
  b.forEach((l, j) => {
    if (!usedB.has(j)) edits += l.length;
  });
  return edits / total;
}
