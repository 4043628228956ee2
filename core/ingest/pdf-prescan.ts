import { constants as bufferConstants } from "node:buffer";
import { constants, inflateRawSync } from "node:zlib";
import type { ContentStats } from "./content-stream-stats.ts";
import { contentStats } from "./content-stream-stats.ts";
import type { ParseLimits } from "./parse-limits.ts";
import { pageContents } from "./pdf-page-contents.ts";
import { addObjectStream, indexRawObjects } from "./pdf-raw-objects.ts";
import type { RawObject } from "./pdf-raw-objects.ts";
import { formatCount, tooComplex } from "./too-complex.ts";
import { formatMegabytes, MAX_PAGES } from "./limits.ts";

// Before pdf.js sees a PDF, the parsing child checks it against the limits that pdf.js cannot
// enforce itself: every FlateDecode stream is inflated with a byte cap (per stream and per file),
// and every content stream is tokenized for operators, text items and nesting, per page and per
// file. pdf.js holds a whole inflated stream and grows its buffer by doubling: a 1.6 MB file
// inflating to 1.5 GB took it to more than twice that in RSS; here the same file is refused after
// inflating 128 MB once. Streams under other filters (LZW, ASCII85 chains, encryption) are not
// inflated here: the child's memory and time watchdogs (parse-isolated.ts) remain for them.

export interface PrescanSummary {
  pages: number | null;
  streams: number;
  inflatedBytes: number;
  operators: number;
}

const FLATE = /\/Filter\s*(?:\[\s*)?\/(?:FlateDecode|Fl)\b/;
const ANY_FILTER = /\/Filter\b/;
const NOT_CONTENT = /\/(?:Type\s*\/(?:XRef|ObjStm|Metadata|EmbeddedFile|XObject)|Subtype|Length1|Length2|Length3|FunctionType|Width|N)\b/;

/** Whether the inflate went past maxOutputLength. */
function isTooLarge(err: unknown): boolean {
  return typeof err === "object" && err !== null && "code" in err && err.code === "ERR_BUFFER_TOO_LARGE";
}

class Prescan {
  private inflated = 0;
  readonly summary: PrescanSummary = { pages: null, streams: 0, inflatedBytes: 0, operators: 0 };

  constructor(
    private readonly file: string,
    private readonly bytes: Buffer,
    private readonly limits: ParseLimits,
  ) {}

  /** The stream's decoded bytes: Flate inflated under the caps, unfiltered as is, others null. */
  data(obj: RawObject, page: number | undefined): Buffer | null {
    if (obj.stream === undefined) return null;
    const raw = this.bytes.subarray(obj.stream.start, obj.stream.end);
    if (!FLATE.test(obj.text)) return ANY_FILTER.test(obj.text) ? null : raw;
    this.summary.streams++;
    // The zlib header is skipped and raw deflate used: pdf.js does not check the Adler-32 either,
    // and a stream cut short still yields what it holds (Z_SYNC_FLUSH), as it does for pdf.js.
    const headerLength = ((raw[1] ?? 0) & 0x20) === 0 ? 2 : 6;
    const perStream = this.limits.inflatedBytesPerStream;
    const left = this.limits.inflatedBytesPerFile - this.inflated;
    const cap = Math.max(0, Math.min(perStream, left, bufferConstants.MAX_LENGTH - 1));
    let out: Buffer;
    try {
      out = inflateRawSync(raw.subarray(headerLength), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: cap + 1 });
    } catch (err) {
      if (!isTooLarge(err)) return null;
      const where = page === undefined ? { where: `in object ${obj.num}` } : { page };
      if (perStream <= left) {
        throw tooComplex(this.file, {
          what: `a compressed stream inflates to more than ${formatMegabytes(perStream)}`,
          limit: `the limit is ${formatMegabytes(perStream)} per stream`,
          ...where,
        });
      }
      throw tooComplex(this.file, {
        what: `its compressed streams inflate to more than ${formatMegabytes(this.limits.inflatedBytesPerFile)} together`,
        limit: `the limit is ${formatMegabytes(this.limits.inflatedBytesPerFile)} per file`,
        ...where,
      });
    }
    this.inflated += out.length;
    this.summary.inflatedBytes = this.inflated;
    return out;
  }

  /** Counts one content stream, refusing it at once if it alone breaks a page limit. */
  content(obj: RawObject, page: number | undefined): ContentStats | null {
    const data = this.data(obj, page);
    if (data === null) return null;
    const caps = { operators: this.limits.operatorsPerPage, textOperators: this.limits.textItemsPerPage, nestingDepth: this.limits.nestingDepth };
    const stats = contentStats(data, caps);
    this.check(stats, page === undefined ? { where: `in object ${obj.num}` } : { page });
    return stats;
  }

  check(stats: ContentStats, where: { page: number } | { where: string }): void {
    const { limits, file } = this;
    const depth = Math.max(stats.maxStateDepth, stats.maxObjectDepth);
    if (depth > limits.nestingDepth) {
      const what = stats.maxStateDepth >= stats.maxObjectDepth ? "graphics states (q) nested" : "arrays or dictionaries nested";
      throw tooComplex(file, {
        what: `${what} more than ${formatCount(limits.nestingDepth)} deep`,
        limit: `the limit is ${formatCount(limits.nestingDepth)}`,
        ...where,
      });
    }
    if (stats.textOperators > limits.textItemsPerPage) {
      throw tooComplex(file, {
        what: `more than ${formatCount(limits.textItemsPerPage)} pieces of text`,
        limit: `the limit is ${formatCount(limits.textItemsPerPage)} per page`,
        ...where,
      });
    }
    if (stats.operators > limits.operatorsPerPage) {
      throw tooComplex(file, {
        what: `more than ${formatCount(limits.operatorsPerPage)} drawing operators`,
        limit: `the limit is ${formatCount(limits.operatorsPerPage)} per page`,
        ...where,
      });
    }
  }
}

function combine(parts: ContentStats[]): ContentStats {
  const total: ContentStats = { operators: 0, textOperators: 0, maxStateDepth: 0, endStateDepth: 0, maxObjectDepth: 0 };
  for (const s of parts) {
    total.operators += s.operators;
    total.textOperators += s.textOperators;
    total.maxStateDepth = Math.max(total.maxStateDepth, total.endStateDepth + s.maxStateDepth);
    total.endStateDepth += s.endStateDepth;
    total.maxObjectDepth = Math.max(total.maxObjectDepth, s.maxObjectDepth);
  }
  return total;
}

/**
 * Throws TOO_COMPLEX (naming the file, the page when known, and the limit) when the PDF breaks a
 * parse limit that can be seen without pdf.js; otherwise says what it saw.
 */
export function prescanPdf(file: string, bytes: Buffer, limits: ParseLimits): PrescanSummary {
  const pdf = indexRawObjects(bytes);
  const scan = new Prescan(file, bytes, limits);
  for (const obj of [...pdf.objects.values()]) {
    if (obj.stream === undefined || !/\/Type\s*\/ObjStm\b/.test(obj.text)) continue;
    const decoded = scan.data(obj, undefined);
    if (decoded !== null) addObjectStream(pdf, obj.text, decoded);
  }
  const pages = pageContents(pdf, MAX_PAGES);
  scan.summary.pages = pages?.length ?? null;
  const firstPage = new Map<number, number>();
  pages?.forEach((streams, i) => streams.forEach((num) => firstPage.has(num) || firstPage.set(num, i + 1)));

  // Every stream once, in file order: content streams and forms are counted, the rest (fonts,
  // images, metadata) only inflated under the byte caps.
  const stats = new Map<number, ContentStats>();
  for (const obj of pdf.objects.values()) {
    if (obj.stream === undefined || /\/Type\s*\/ObjStm\b/.test(obj.text)) continue;
    const page = firstPage.get(obj.num);
    const isContent = page !== undefined || /\/Subtype\s*\/Form\b/.test(obj.text) || (pages === null && !NOT_CONTENT.test(obj.text));
    if (!isContent) {
      scan.data(obj, undefined);
      continue;
    }
    const counted = scan.content(obj, page);
    if (counted !== null) stats.set(obj.num, counted);
  }

  // Per page and per file: a stream shared by many pages is drawn, and counted, on each.
  let operators = 0;
  pages?.forEach((streams, i) => {
    const page = combine(streams.flatMap((num) => stats.get(num) ?? []));
    scan.check(page, { page: i + 1 });
    operators += page.operators;
    if (operators > limits.operatorsPerFile) {
      throw tooComplex(file, {
        what: `its pages draw more than ${formatCount(limits.operatorsPerFile)} operators together (reached on page ${i + 1} of ${pages.length})`,
        limit: `the limit is ${formatCount(limits.operatorsPerFile)} per file`,
      });
    }
  });
  scan.summary.operators = operators;
  return scan.summary;
}
