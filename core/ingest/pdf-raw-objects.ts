// A PDF's objects found by scanning its bytes, without pdf.js and without trusting the xref table:
// just enough for the pre-scan (pdf-prescan.ts) to see every stream before pdf.js inflates it and
// to walk the page tree. One linear pass: each keyword search resumes where the previous one
// stopped, so a file of millions of fake "obj" headers costs one read, not one read per header.

export interface RawObject {
  num: number;
  /** The object's text before `stream` / `endobj` (latin1), at most MAX_OBJECT_CHARS. */
  text: string;
  /** Where its stream data lies in the file, for a stream object. */
  stream?: { start: number; end: number };
}

export interface RawPdf {
  objects: Map<number, RawObject>;
  /** The catalog's object number, from the last trailer or cross-reference stream naming one. */
  root: number | null;
}

/** Page-tree nodes and pages are small; a longer object is cut (its keys come first in practice). */
const MAX_OBJECT_CHARS = 1024 * 1024;
const TRAILER_WINDOW = 4096;
const ROOT_REF = /\/Root\s+(\d+)\s+\d+\s+R/g;

/** indexOf that remembers its last answer: queries come in increasing `from` order. */
function forwardFinder(bytes: Buffer, needle: string): (from: number) => number {
  let found = -2; // -2: not searched yet, -1: no more occurrences
  return (from) => {
    if (found === -1 || found >= from) return found;
    found = bytes.indexOf(needle, from, "latin1");
    return found;
  };
}

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x39;
}

function isSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00;
}

/** The object number of an "N G obj" header ending at `at` (the "o"), or null. */
function headerNumber(bytes: Buffer, at: number): number | null {
  let i = at - 1;
  if (!isSpace(bytes[i])) return null;
  while (isSpace(bytes[i])) i--;
  if (!isDigit(bytes[i])) return null;
  while (isDigit(bytes[i])) i--;
  if (!isSpace(bytes[i])) return null;
  while (isSpace(bytes[i])) i--;
  const end = i + 1;
  while (isDigit(bytes[i])) i--;
  if (end === i + 1 || end - i > 11) return null;
  return Number(bytes.toString("latin1", i + 1, end));
}

function text(bytes: Buffer, start: number, end: number): string {
  return bytes.toString("latin1", start, Math.min(end, start + MAX_OBJECT_CHARS));
}

/** Where the stream data ends: by a direct /Length when it lands on `endstream`, else the keyword. */
function streamEnd(bytes: Buffer, dict: string, start: number, findEndstream: (from: number) => number): number {
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict)?.[1];
  if (length !== undefined) {
    const end = start + Number(length);
    const after = bytes.indexOf("endstream", end, "latin1");
    if (end <= bytes.length && after >= 0 && after - end <= 4) return end;
  }
  const keyword = findEndstream(start);
  return keyword < 0 ? bytes.length : keyword;
}

function lastRoot(texts: string[]): number | null {
  let root: number | null = null;
  for (const t of texts) for (const m of t.matchAll(ROOT_REF)) root = Number(m[1]);
  return root;
}

export function indexRawObjects(bytes: Buffer): RawPdf {
  const objects = new Map<number, RawObject>();
  const findObj = forwardFinder(bytes, "obj");
  const findEndobj = forwardFinder(bytes, "endobj");
  const findStream = forwardFinder(bytes, "stream");
  const findEndstream = forwardFinder(bytes, "endstream");
  const rootTexts: string[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const at = findObj(pos);
    if (at < 0) break;
    pos = at + 3;
    const num = headerNumber(bytes, at);
    if (num === null) continue;
    const bodyStart = at + 3;
    const endobj = findEndobj(bodyStart);
    let keyword = findStream(bodyStart);
    while (keyword >= 0 && bytes.toString("latin1", keyword - 3, keyword) === "end") keyword = findStream(keyword + 6);
    if (keyword >= 0 && (endobj < 0 || keyword < endobj)) {
      const dict = text(bytes, bodyStart, keyword);
      let start = keyword + 6;
      if (bytes[start] === 0x0d) start++;
      if (bytes[start] === 0x0a) start++;
      const end = streamEnd(bytes, dict, start, findEndstream);
      objects.set(num, { num, text: dict, stream: { start, end } });
      if (/\/Type\s*\/XRef\b/.test(dict)) rootTexts.push(dict);
      pos = Math.max(pos, end);
    } else {
      const end = endobj < 0 ? bytes.length : endobj;
      objects.set(num, { num, text: text(bytes, bodyStart, end) });
      pos = Math.max(pos, end + 6);
    }
  }
  for (let at = bytes.indexOf("trailer", 0, "latin1"); at >= 0; at = bytes.indexOf("trailer", at + 7, "latin1")) {
    rootTexts.push(bytes.toString("latin1", at, at + TRAILER_WINDOW));
  }
  return { objects, root: lastRoot(rootTexts) };
}

/** Adds the objects packed in a decoded object stream (/Type /ObjStm) that the file does not define itself. */
export function addObjectStream(pdf: RawPdf, dict: string, decoded: Buffer): void {
  const count = Number(/\/N\s+(\d+)/.exec(dict)?.[1] ?? 0);
  const first = Number(/\/First\s+(\d+)/.exec(dict)?.[1] ?? 0);
  const header = decoded.toString("latin1", 0, Math.min(first, decoded.length)).trim().split(/\s+/).map(Number);
  for (let i = 0; i < count && 2 * i + 1 < header.length; i++) {
    const num = header[2 * i] ?? NaN;
    const offset = first + (header[2 * i + 1] ?? NaN);
    const next = 2 * i + 3 < header.length ? first + (header[2 * i + 3] ?? NaN) : decoded.length;
    if (!Number.isInteger(num) || !Number.isFinite(offset) || pdf.objects.has(num)) continue;
    pdf.objects.set(num, { num, text: text(decoded, offset, Number.isFinite(next) ? next : decoded.length) });
  }
  if (pdf.root === null) pdf.root = lastRoot([dict]);
}
