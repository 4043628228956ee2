import { execFileSync } from "node:child_process";
import { open, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { constants, deflateRawSync } from "node:zlib";

// The files that hung or exhausted the importer, generated at run time and small on
// disk. A FlateDecode stream of a repeated unit is written by hand: the unit is deflated once
// after a full flush (no back-references into earlier data), so its compressed block can be
// repeated verbatim; 1.5 GB of inflated content costs ~1.5 MB of file and milliseconds to make.

const MB = 1024 * 1024;

interface PdfObject {
  /** Dictionary entries without the << >>, or a whole non-dictionary object. */
  dict: string;
  stream?: Buffer;
}

/** A classic PDF (xref table, no object streams); object 1 must be the catalog. */
export function buildRawPdf(objects: PdfObject[]): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let offset = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(offset);
    const body =
      obj.stream === undefined
        ? [Buffer.from(`${i + 1} 0 obj\n${obj.dict}\nendobj\n`, "latin1")]
        : [
            Buffer.from(`${i + 1} 0 obj\n<< ${obj.dict} /Length ${obj.stream.length} >>\nstream\n`, "latin1"),
            obj.stream,
            Buffer.from("\nendstream\nendobj\n", "latin1"),
          ];
    for (const b of body) offset += b.length;
    parts.push(...body);
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`, "latin1"));
  return Buffer.concat(parts);
}

/**
 * zlib data inflating to head + unit × times + tail. The Adler-32 trailer is left zero: pdf.js does
 * not check it (nor does the pre-scan, which inflates raw deflate like pdf.js tolerates).
 */
export function repeatedFlate(head: string, unit: string, times: number, tail: string): Buffer {
  // Repeat the unit into ~1 MB blocks so the compressed block is ~1 KB and repeated ~1,000×/GB.
  const perBlock = Math.max(1, Math.min(times, Math.floor(MB / Math.max(1, unit.length))));
  const full = (text: string): Buffer => deflateRawSync(Buffer.from(text, "latin1"), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const block = full(unit.repeat(perBlock));
  const blocks = Math.floor(times / perBlock);
  const rest = times - blocks * perBlock;
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    full(head),
    ...Array.from({ length: blocks }, () => block),
    full(unit.repeat(rest)),
    deflateRawSync(Buffer.from(tail, "latin1"), { level: 9 }),
    Buffer.alloc(4),
  ]);
}

const FONT = "/Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding";
const TEXT = "BT /F1 12 Tf 72 760 Td (Article 1 Scope. This regulation applies to operators.) Tj ET\n";

/** One-page PDF (catalog, pages, page, font, content) plus extra objects; content ref is object 5. */
const FLATE = "/Filter /FlateDecode";

function onePage(content: Buffer, filter: string, catalogExtra = "", extra: PdfObject[] = []): Buffer {
  return buildRawPdf([
    { dict: `<< /Type /Catalog /Pages 2 0 R ${catalogExtra}>>` },
    { dict: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>" },
    { dict: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>" },
    { dict: `<< ${FONT} >>` },
    { dict: filter, stream: content },
    ...extra,
  ]);
}

/** `q` nested `depth` deep around one line of text (the 4.6 KB file: depth 1,000,000). */
export function nestedStatesPdf(depth: number): Buffer {
  return onePage(repeatedFlate("", "q\n", depth, `${TEXT}${"Q\n".repeat(Math.min(depth, 1000))}`), FLATE);
}

/**
 * The same nesting under ASCIIHexDecode, a filter the pre-scan does not decode: only the child's
 * watchdogs can stop it (30,000 deep: pdf.js needs ~40 s).
 */
export function hexNestedStatesPdf(depth: number): Buffer {
  const content = Buffer.from(`${"q\n".repeat(depth)}${TEXT}${"Q\n".repeat(depth)}`, "latin1");
  return onePage(Buffer.from(`${content.toString("hex")}>`, "latin1"), "/Filter /ASCIIHexDecode");
}

/** A content stream inflating to `bytes` (a line of text, then blanks). */
export function contentBombPdf(bytes: number): Buffer {
  return onePage(repeatedFlate(TEXT, " ", Math.max(0, bytes - TEXT.length), "\n"), FLATE);
}

/** XMP metadata inflating to `bytes`; the page itself is ordinary. */
export function metadataBombPdf(bytes: number): Buffer {
  const head = '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">';
  const tail = '</x:xmpmeta><?xpacket end="w"?>';
  const metadata: PdfObject = {
    dict: `/Type /Metadata /Subtype /XML ${FLATE}`,
    stream: repeatedFlate(head, " ", Math.max(0, bytes - head.length - tail.length), tail),
  };
  return onePage(Buffer.from(TEXT, "latin1"), "", "/Metadata 6 0 R ", [metadata]);
}

/** `count` Tj operators drawing the same word in place, in one compressed stream. */
export function textFloodPdf(count: number): Buffer {
  return onePage(repeatedFlate("BT /F1 12 Tf 72 760 Td\n", "(x) Tj\n", count, "ET\n"), FLATE);
}

/** `count` text items, each on its own line (so pdf.js cannot merge them), on one page. */
export function manyTextItemsPdf(count: number): Buffer {
  return onePage(repeatedFlate("BT /F1 1 Tf 10 830 Td\n", "(ab) Tj 0 -0.01 Td\n", count, "ET\n"), FLATE);
}

/** `pages` pages drawing one shared content stream of about `streamBytes` of lines of text. */
export function sharedContentPdf(pages: number, streamBytes: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < streamBytes; i++) {
    const line = `BT /F1 6 Tf ${20 + (i % 7) * 70} ${830 - (i % 130) * 6} Td (Clause ${i} applies to the operator.) Tj ET\n`;
    lines.push(line);
    size += line.length;
  }
  const kids = Array.from({ length: pages }, (_, i) => `${i + 6} 0 R`).join(" ");
  const pageObjects: PdfObject[] = Array.from({ length: pages }, () => ({
    dict: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>",
  }));
  return buildRawPdf([
    { dict: "<< /Type /Catalog /Pages 2 0 R >>" },
    { dict: `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>` },
    { dict: `<< ${FONT} >>` },
    { dict: FLATE, stream: Buffer.concat([Buffer.from([0x78, 0xda]), deflateRawSync(Buffer.from(lines.join(""), "latin1")), Buffer.alloc(4)]) },
    { dict: "null" },
    ...pageObjects,
  ]);
}

/** A plain, valid one-page PDF in the same raw form (a control for the cases above). */
export function plainPdf(): Buffer {
  return onePage(Buffer.from(TEXT, "latin1"), "");
}

/** A `.txt` symlink to /dev/zero. */
export async function devZeroLink(dir: string): Promise<string> {
  const link = path.join(dir, "zeros.txt");
  await symlink("/dev/zero", link);
  return link;
}

/** A FIFO named `.txt`: opening it would block until a writer comes. */
export function fifoTxt(dir: string): string {
  const file = path.join(dir, "pipe.txt");
  execFileSync("mkfifo", [file]);
  return file;
}

/** A sparse text file of `bytes` that takes no disk space. */
export async function sparseTxt(dir: string, bytes: number): Promise<string> {
  const file = path.join(dir, "sparse.txt");
  const handle = await open(file, "w");
  try {
    await handle.write("Article 1 Scope\n");
    await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
  return file;
}

/** Writes `bytes` as `name` in `dir` and returns the path. */
export async function writeFixture(dir: string, name: string, bytes: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}
