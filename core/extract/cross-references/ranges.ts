// Ranges of values ("Articles 12 to 15", "Chapters II to IV", "points (a) to (d)") expanded
// into the values between their endpoints.

/** Ranges larger than this keep only their endpoints: "Articles 1 to 99" is not 99 edges. */
export const MAX_RANGE = 40;

const ROMAN_VALUES: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };

function romanToInt(s: string): number | null {
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const cur = ROMAN_VALUES[s[i] ?? ""];
    const next = ROMAN_VALUES[s[i + 1] ?? ""];
    if (cur === undefined) return null;
    total += next !== undefined && next > cur ? -cur : cur;
  }
  return total;
}

function intToRoman(n: number): string {
  const table: Array<[number, string]> = [
    [100, "C"],
    [90, "XC"],
    [50, "L"],
    [40, "XL"],
    [10, "X"],
    [9, "IX"],
    [5, "V"],
    [4, "IV"],
    [1, "I"],
  ];
  let out = "";
  let rest = n;
  for (const [v, sym] of table) {
    while (rest >= v) {
      out += sym;
      rest -= v;
    }
  }
  return out;
}

/** Values strictly between `from` and `to`, or null when the range cannot or should not be expanded. */
export function interior(from: string, to: string): string[] | null {
  if (/^\d+$/.test(from) && /^\d+$/.test(to)) {
    const a = Number(from);
    const b = Number(to);
    if (b <= a || b - a > MAX_RANGE) return null;
    return Array.from({ length: b - a - 1 }, (_, i) => String(a + i + 1));
  }
  const dotted = /^(.*\.)(\d+)$/;
  const fa = dotted.exec(from);
  const fb = dotted.exec(to);
  if (fa && fb && fa[1] === fb[1]) {
    const a = Number(fa[2]);
    const b = Number(fb[2]);
    if (b <= a || b - a > MAX_RANGE) return null;
    return Array.from({ length: b - a - 1 }, (_, i) => `${fa[1] ?? ""}${a + i + 1}`);
  }
  const ra = /^[IVXLC]+$/.test(from) ? romanToInt(from) : null;
  const rb = /^[IVXLC]+$/.test(to) ? romanToInt(to) : null;
  if (ra !== null && rb !== null) {
    if (rb <= ra || rb - ra > MAX_RANGE) return null;
    return Array.from({ length: rb - ra - 1 }, (_, i) => intToRoman(ra + i + 1));
  }
  const pa = /^\(([a-z])\)$/.exec(from);
  const pb = /^\(([a-z])\)$/.exec(to);
  if (pa && pb) {
    const a = (pa[1] ?? "a").charCodeAt(0);
    const b = (pb[1] ?? "a").charCodeAt(0);
    if (b <= a || b - a > 26) return null;
    return Array.from({ length: b - a - 1 }, (_, i) => `(${String.fromCharCode(a + i + 1)})`);
  }
  return null;
}
