import { mkdirSync, openSync, closeSync, ftruncateSync } from "node:fs";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { ClauseGraphError } from "../../core/model/errors.ts";
import { MAX_PAGES } from "../../core/ingest/limits.ts";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import { buildPdf, column, FixtureDir } from "./ingest-pdf-fixtures.ts";

const fixtures = new FixtureDir();
afterAll(() => fixtures.remove());

async function failure(file: string, password?: string): Promise<ClauseGraphError> {
  try {
    await parseDocument(file, password === undefined ? {} : { password });
  } catch (err) {
    expect(err).toBeInstanceOf(ClauseGraphError);
    const e = err as ClauseGraphError;
    // Every failure names the file it is about, exactly as given.
    expect(e.file).toBe(file);
    return e;
  }
  throw new Error(`expected ${file} to be rejected`);
}

/** A minimal ZIP archive holding one stored file: what a .docx looks like from outside. */
function zipBytes(): Uint8Array {
  const name = Buffer.from("word/document.xml");
  const data = deflateRawSync(Buffer.from("<w:document/>"));
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(8, 8);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name, data]);
}

function randomBytes(n: number): Uint8Array {
  let seed = 42;
  return Uint8Array.from({ length: n }, () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed & 0xff;
  });
}

describe("parseDocument: files it must refuse", () => {
  it("refuses a 0-byte file as EMPTY", async () => {
    expect((await failure(fixtures.file("empty.pdf", new Uint8Array()))).code).toBe("EMPTY");
    expect((await failure(fixtures.file("empty.txt", ""))).code).toBe("EMPTY");
  });

  it("refuses random bytes named .pdf as CORRUPT", async () => {
    const e = await failure(fixtures.file("random.pdf", randomBytes(4096)));
    expect(e.code).toBe("CORRUPT");
    expect(e.message).toMatch(/not a valid PDF/);
  });

  it("refuses a PDF header without a body as CORRUPT", async () => {
    expect((await failure(fixtures.file("header.pdf", "%PDF-1.4\n%%EOF\n"))).code).toBe("CORRUPT");
  });

  // Decision: a ZIP (e.g. a .docx renamed .pdf) is UNSUPPORTED_TYPE, not CORRUPT: the file is
  // fine, it is just not a format we read, and the message tells the user to export a PDF.
  it("refuses a ZIP named .pdf and a .docx as UNSUPPORTED_TYPE", async () => {
    const zipPdf = await failure(fixtures.file("renamed.pdf", zipBytes()));
    expect(zipPdf.code).toBe("UNSUPPORTED_TYPE");
    expect(zipPdf.message).toMatch(/ZIP/);
    expect((await failure(fixtures.file("contract.docx", zipBytes()))).code).toBe("UNSUPPORTED_TYPE");
  });

  it("refuses unknown extensions and binary data in a .txt as UNSUPPORTED_TYPE", async () => {
    expect((await failure(fixtures.file("table.csv", "a,b\n1,2\n"))).code).toBe("UNSUPPORTED_TYPE");
    expect((await failure(fixtures.file("binary.txt", Uint8Array.from([65, 0, 66, 0, 1, 2])))).code).toBe("UNSUPPORTED_TYPE");
  });

  it("reads a PDF whatever its extension, by its magic bytes", async () => {
    const file = fixtures.file("report.bin", await buildPdf([column(["A PDF saved with an odd name."], 50, 100)]));
    const doc = await parseDocument(file);
    expect(doc.format).toBe("pdf");
    expect(doc.pages[0]?.lines[0]?.text).toBe("A PDF saved with an odd name.");
  });

  it("reports a missing file as FILE_NOT_FOUND and a folder as FILE_UNREADABLE", async () => {
    expect((await failure(path.join(fixtures.dir, "nope.pdf"))).code).toBe("FILE_NOT_FOUND");
    const folder = path.join(fixtures.dir, "folder.pdf");
    mkdirSync(folder);
    expect((await failure(folder)).code).toBe("FILE_UNREADABLE");
  });

  it("refuses a truncated PDF as CORRUPT instead of importing part of it", async () => {
    const pages = Array.from({ length: 6 }, (_, i) => column([`Page ${i + 1} of a document that will be cut.`], 50, 100));
    const full = await buildPdf(pages);
    const e = await failure(fixtures.file("truncated.pdf", full.slice(0, Math.floor(full.length * 0.6))));
    expect(e.code).toBe("CORRUPT");
    expect(e.message).toMatch(/truncated/);
  });

  it("refuses an image-only PDF as NO_TEXT_LAYER and warns about scanned pages in a mixed one", async () => {
    const scanned = await fixtures.pdf("scan.pdf", [[], []], { imagePages: [1, 2] });
    const e = await failure(scanned);
    expect(e.code).toBe("NO_TEXT_LAYER");
    expect(e.message).toMatch(/OCR/);
    const mixed = await fixtures.pdf("mixed.pdf", [column(["A page with a real text layer on it."], 50, 100), []], {
      imagePages: [2],
    });
    const doc = await parseDocument(mixed);
    expect(doc.pageCount).toBe(2);
    expect(doc.warnings.join(" ")).toMatch(/Page\(s\) 2 .*scanned/);
  });

  it("refuses files over the size and page limits as TOO_LARGE", async () => {
    // A sparse file: 301 MB on paper, nothing on disk, refused before it is read.
    const huge = path.join(fixtures.dir, "huge.pdf");
    const fd = openSync(huge, "w");
    ftruncateSync(fd, 301 * 1024 * 1024);
    closeSync(fd);
    const e = await failure(huge);
    expect(e.code).toBe("TOO_LARGE");
    expect(e.message).toMatch(/MB/);
    const manyPages = await fixtures.pdf(
      "many-pages.pdf",
      Array.from({ length: MAX_PAGES + 1 }, () => []),
    );
    const p = await failure(manyPages);
    expect(p.code).toBe("TOO_LARGE");
    expect(p.message).toMatch(/pages/);
  });

  it("refuses a PDF with blank pages only as EMPTY", async () => {
    expect((await failure(await fixtures.pdf("blank.pdf", [[], []]))).code).toBe("EMPTY");
  });

  it("computes sha256 and size of what it read", async () => {
    const file = await fixtures.pdf("hash.pdf", [column(["Hash me."], 50, 100)]);
    const doc = await parseDocument(file);
    const { createHash } = await import("node:crypto");
    const { readFileSync } = await import("node:fs");
    const bytes = readFileSync(file);
    expect(doc.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(doc.bytes).toBe(bytes.length);
    expect(doc.file).toBe(path.resolve(file));
  });
});
