import path from "node:path";
import { expect, it } from "vitest";
import { ClauseGraphError } from "../../core/model/errors.ts";
import type { ErrorCode } from "../../core/model/errors.ts";
import { parseDocument } from "../../core/ingest/parse-document.ts";
import type { ParsedDocument } from "../../core/model/ingest-types.ts";
import type { OcrMode } from "../../core/model/ocr-types.ts";
import { corpusPath, describeCorpus, readManifest } from "../helpers/corpus.ts";

// What ingestion does with each file of bad_inputs/ (manifest.json "expected" in words, here as
// codes). A file added to bad_inputs/ without an entry here fails the last test.
//
// The manifest says the scanned files have "no text layer" and "should be flagged as needing OCR":
// now they are read with OCR (`ocr: "auto"`, the engine's and the CLI's default), so
// each is checked three ways: NO_TEXT_LAYER with OCR off (`never`, parseDocument's own default),
// NEEDS_OCR with its offer when the app asks first (`ask`), and what OCR reads (`auto`; the HIPAA
// extract and the brochure are read through the engine in test/corpus/ocr-scanned.test.ts, and
// every scan in test/corpus/hostile-inputs.test.ts).

type Expectation =
  | { reject: ErrorCode; password?: string; ocr?: OcrMode; message?: RegExp }
  | { accept: (doc: ParsedDocument, text: string) => void; password?: string; ocr?: OcrMode };

function allText(doc: ParsedDocument): string {
  return doc.pages.flatMap((p) => [...p.lines, ...p.footnotes].map((l) => l.text)).join("\n");
}

const AES = "bad_inputs/encrypted_user_password_aes256__userpw_baz_ownerpw_foo.pdf";
const LIBRE = "bad_inputs/encrypted_user_password_libreoffice__pw_openpassword.pdf";

const EXPECTED: Record<string, Expectation[]> = {
  "bad_inputs/corrupt_empty_zero_bytes.pdf": [{ reject: "EMPTY" }],
  "bad_inputs/corrupt_header_only_no_xref.pdf": [{ reject: "CORRUPT" }],
  "bad_inputs/corrupt_truncated_dora_55pct_DERIVED.pdf": [{ reject: "CORRUPT", message: /truncated/ }],
  // pdfjs is a tolerant parser: it skips the two streams with bad zlib data and extracts the rest
  // of the Zen of Python (~700 characters). We import that rather than refuse the file.
  "bad_inputs/corrupt_stream_zen_of_python_pdfminer.pdf": [
    {
      accept: (doc, text) => {
        expect(doc.pageCount).toBe(1);
        expect(text).toContain("Beautiful is better than ugly.");
        expect(text.replace(/\s/g, "").length).toBeGreaterThan(500);
      },
    },
  ],
  "bad_inputs/encrypted_owner_only_jp_kanpo_official_gazette_vertical.pdf": [
    {
      accept: (doc, text) => {
        expect(doc.pageCount).toBe(1);
        expect(text.replace(/\s/g, "").length).toBeGreaterThan(700);
        expect(doc.warnings.join(" ")).toMatch(/Owner-password/);
      },
    },
  ],
  "bad_inputs/encrypted_owner_only_us_copyright_office_dmca_summary_1998.pdf": [
    {
      accept: (doc, text) => {
        expect(doc.pageCount).toBe(18);
        // 37k non-space characters in the file, minus the running headers and page numbers.
        expect(text.replace(/\s/g, "").length).toBeGreaterThan(33_000);
        expect(text).toContain("Digital Millennium Copyright Act");
        expect(doc.warnings.join(" ")).toMatch(/Owner-password/);
        expect(doc.language).toBe("en");
      },
    },
  ],
  [AES]: [
    { reject: "ENCRYPTED", message: /password/ },
    { reject: "WRONG_PASSWORD", password: "not-baz" },
    {
      password: "baz",
      accept: (doc, text) => {
        expect(doc.pageCount).toBe(1);
        expect(text.trim().length).toBeGreaterThan(0);
        expect(doc.warnings).toEqual([]);
      },
    },
  ],
  [LIBRE]: [
    { reject: "ENCRYPTED" },
    { reject: "WRONG_PASSWORD", password: "permission" },
    {
      password: "openpassword",
      accept: (doc, text) => {
        expect(doc.pageCount).toBe(1);
        expect(text).toMatch(/Lorem ipsum dolor sit amet/);
      },
    },
  ],
  "bad_inputs/scanned_image_only_gutenberg_page.pdf": [
    { reject: "NO_TEXT_LAYER", ocr: "never", message: /OCR/ },
    { reject: "NEEDS_OCR", ocr: "ask", message: /is scanned \(1 page without a text layer\): reading it with OCR takes about \d+ s/ },
    {
      ocr: "auto",
      accept: (doc, text) => {
        expect(doc.pages[0]?.ocr?.language).toBe("eng");
        expect(doc.pages[0]?.ocr?.confidence).toBeGreaterThan(80);
        // Huckleberry Finn, chapter XXII: "Jim, was setting in the kitchen door…" as the title.
        expect(text).toMatch(/Jim/);
        expect(text.replace(/\s/g, "").length).toBeGreaterThan(700);
      },
    },
  ],
  "bad_inputs/scanned_image_only_hipaa_164-306_164-308_DERIVED.pdf": [
    { reject: "NO_TEXT_LAYER", ocr: "never" },
    { reject: "NEEDS_OCR", ocr: "ask", message: /is scanned \(3 pages without a text layer\)/ },
  ],
  "bad_inputs/scanned_image_only_two_column_brochure.pdf": [
    { reject: "NO_TEXT_LAYER", ocr: "never" },
    { reject: "NEEDS_OCR", ocr: "ask" },
  ],
  // Not a bad input itself: the OCR ground truth of the scanned HIPAA pages, plain UTF-8 text.
  "bad_inputs/scanned_image_only_hipaa_164-306_164-308_DERIVED.groundtruth.txt": [
    {
      accept: (doc, text) => {
        expect(doc.format).toBe("text");
        expect(text).toContain("164.308");
      },
    },
  ],
};

describeCorpus("ingest: bad inputs", () => {
  for (const [relative, expectations] of Object.entries(EXPECTED)) {
    for (const expectation of expectations) {
      const label = `${path.basename(relative)}${expectation.password === undefined ? "" : ` (password "${expectation.password}")`}${expectation.ocr === undefined ? "" : ` (OCR ${expectation.ocr})`}`;
      it(`${label}: ${"reject" in expectation ? expectation.reject : "imports"}`, async () => {
        const file = corpusPath(relative);
        const run = parseDocument(file, {
          ...(expectation.password === undefined ? {} : { password: expectation.password }),
          ...(expectation.ocr === undefined ? {} : { ocr: { mode: expectation.ocr } }),
        });
        if ("reject" in expectation) {
          const err: unknown = await run.then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(err).toBeInstanceOf(ClauseGraphError);
          const e = err as ClauseGraphError;
          expect(e.code).toBe(expectation.reject);
          expect(e.file).toBe(file);
          if (expectation.message !== undefined) expect(e.message).toMatch(expectation.message);
        } else {
          const doc = await run;
          expectation.accept(doc, allText(doc));
        }
      });
    }
  }

  it("has an expectation for every file of bad_inputs/ in the manifest", () => {
    const listed = readManifest()
      .map((f) => f.path)
      .filter((p) => p.startsWith("bad_inputs/"));
    expect(listed.filter((p) => !(p in EXPECTED))).toEqual([]);
  });
});
