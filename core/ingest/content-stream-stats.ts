// Counts what pdf.js would have to do with a content stream, without pdf.js: operators,
// text-showing operators (each one becomes at least one text item), and the deepest q/Q and
// array/dictionary nesting. A byte-level tokenizer, linear in the stream, that stops as soon as a
// cap is passed: it reads a stream of a million nested `q` in milliseconds where pdf.js needs
// minutes (its cost grows with the square of the depth).

export interface ContentStats {
  operators: number;
  /** Tj, TJ, ' and ". */
  textOperators: number;
  /** Deepest q nesting reached, counted from 0 at the start of the stream. */
  maxStateDepth: number;
  /** q minus Q at the end of the stream: a page's streams run one after the other. */
  endStateDepth: number;
  /** Deepest array/dictionary nesting. */
  maxObjectDepth: number;
}

export interface ContentCaps {
  operators: number;
  textOperators: number;
  nestingDepth: number;
}

/** Byte classes: 0 regular, 1 whitespace, 2 delimiter (a table: Set lookups halved the speed). */
const CLASS = new Uint8Array(256);
for (const b of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[b] = 1;
for (const b of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) CLASS[b] = 2;
const CH = {
  q: 0x71,
  Q: 0x51,
  paren: 0x28,
  close: 0x29,
  backslash: 0x5c,
  lt: 0x3c,
  gt: 0x3e,
  lbracket: 0x5b,
  rbracket: 0x5d,
  lbrace: 0x7b,
  rbrace: 0x7d,
  slash: 0x2f,
  percent: 0x25,
};

function isRegular(byte: number): boolean {
  return CLASS[byte] === 0;
}

function isWhitespace(byte: number): boolean {
  return CLASS[byte] === 1;
}

function isNumberStart(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || byte === 0x2b || byte === 0x2d || byte === 0x2e;
}

/** End of a literal string starting at `start` (the "("), balanced parentheses and escapes. */
function skipLiteralString(bytes: Uint8Array, start: number): number {
  let depth = 0;
  for (let i = start; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === CH.backslash) i++;
    else if (b === CH.paren) depth++;
    else if (b === CH.close && --depth === 0) return i + 1;
  }
  return bytes.length;
}

/** After `ID`: inline image data runs to whitespace + EI + whitespace (or the end). */
function skipInlineImage(bytes: Uint8Array, start: number): number {
  for (let i = start + 1; i + 2 < bytes.length; i++) {
    if (bytes[i] === 0x45 && bytes[i + 1] === 0x49 && isWhitespace(bytes[i - 1] ?? 0) && !isRegular(bytes[i + 2] ?? 0x20)) return i + 2;
  }
  return bytes.length;
}

function isTextOperator(bytes: Uint8Array, start: number, end: number): boolean {
  const len = end - start;
  const a = bytes[start];
  if (len === 1) return a === 0x27 || a === 0x22;
  return len === 2 && a === 0x54 && (bytes[start + 1] === 0x6a || bytes[start + 1] === 0x4a);
}

/** Scans `bytes` as a content stream; stops early (with the counts so far) once a cap is passed. */
export function contentStats(bytes: Uint8Array, caps: ContentCaps): ContentStats {
  const stats: ContentStats = { operators: 0, textOperators: 0, maxStateDepth: 0, endStateDepth: 0, maxObjectDepth: 0 };
  let state = 0;
  let objects = 0;
  const over = (): boolean =>
    stats.operators > caps.operators ||
    stats.textOperators > caps.textOperators ||
    stats.maxStateDepth > caps.nestingDepth ||
    stats.maxObjectDepth > caps.nestingDepth;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    if (isWhitespace(b)) {
      i++;
    } else if (b === CH.percent) {
      while (i < bytes.length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
    } else if (b === CH.paren) {
      i = skipLiteralString(bytes, i);
    } else if (b === CH.lt && bytes[i + 1] !== CH.lt) {
      const end = bytes.indexOf(CH.gt, i);
      i = end < 0 ? bytes.length : end + 1;
    } else if (b === CH.lt || b === CH.lbracket || b === CH.lbrace) {
      objects++;
      if (objects > stats.maxObjectDepth) stats.maxObjectDepth = objects;
      i += b === CH.lt ? 2 : 1;
    } else if (b === CH.gt || b === CH.rbracket || b === CH.rbrace || b === CH.close) {
      if (b !== CH.close) objects = Math.max(0, objects - 1);
      i += b === CH.gt && bytes[i + 1] === CH.gt ? 2 : 1;
    } else if (b === CH.slash || isNumberStart(b)) {
      i++;
      while (i < bytes.length && isRegular(bytes[i] ?? 0)) i++;
    } else {
      const start = i;
      while (i < bytes.length && isRegular(bytes[i] ?? 0)) i++;
      const len = i - start;
      const word = len <= 5 ? String.fromCharCode(...bytes.subarray(start, i)) : "";
      if (word === "true" || word === "false" || word === "null") continue;
      stats.operators++;
      if (len === 1 && b === CH.q) {
        state++;
        if (state > stats.maxStateDepth) stats.maxStateDepth = state;
      } else if (len === 1 && b === CH.Q) {
        state = Math.max(0, state - 1);
      } else if (word === "ID") {
        i = skipInlineImage(bytes, i);
      } else if (isTextOperator(bytes, start, i)) {
        stats.textOperators++;
      }
      if (over()) break;
    }
  }
  stats.endStateDepth = state;
  return stats;
}
