import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";
import { parseJson, runCli } from "../helpers/cli.ts";
import type { ImportResult } from "../../core/model/engine-types.ts";

/** The CLI prints the engine's own import results. */
interface IngestJson {
  files: ImportResult[];
}
interface StatsJson {
  documents: number;
  sections: number;
}
interface SearchJson {
  results: Array<{
    sectionId: string;
    documentId: string;
    file: string;
    label: string;
    pageStart: number;
    pageEnd: number;
    score: number;
    text: string;
    path: string[];
  }>;
}
interface ListJson {
  documents: Array<{ id: string; fileName: string }>;
}

// What every bad input must produce (corpus/manifest.json, "expected"): a typed error naming the file,
// or a normal import for owner-password-only PDFs. The scanned files are refused with NO_TEXT_LAYER
// here because this run says `--ocr never`; with the default (`--ocr auto`) they are read with OCR
// and imported (the last test; test/corpus/ocr-scanned.test.ts checks what OCR reads in them).
const BAD_INPUTS: Array<[file: string, expected: string]> = [
  ["corrupt_empty_zero_bytes.pdf", "EMPTY"],
  ["corrupt_header_only_no_xref.pdf", "CORRUPT"],
  ["corrupt_truncated_dora_55pct_DERIVED.pdf", "CORRUPT"],
  ["encrypted_user_password_aes256__userpw_baz_ownerpw_foo.pdf", "ENCRYPTED"],
  ["encrypted_user_password_libreoffice__pw_openpassword.pdf", "ENCRYPTED"],
  ["scanned_image_only_gutenberg_page.pdf", "NO_TEXT_LAYER"],
  ["scanned_image_only_hipaa_164-306_164-308_DERIVED.pdf", "NO_TEXT_LAYER"],
  ["scanned_image_only_two_column_brochure.pdf", "NO_TEXT_LAYER"],
  ["encrypted_owner_only_us_copyright_office_dmca_summary_1998.pdf", "ok"],
  ["encrypted_owner_only_jp_kanpo_official_gazette_vertical.pdf", "ok"],
];

describeCorpus("CLI: ingest, search, stats, delete on real files", () => {
  let db: string;
  const dora = corpusPath("regulatory/eu_dora_2022-2554_OJ_L333.pdf");
  const nist = corpusPath("regulatory/us_nist_sp800-171r2_cui_nonfederal.pdf");

  beforeAll(async () => {
    db = await mkdtemp(path.join(os.tmpdir(), "cg-cli-"));
  });
  afterAll(async () => {
    await rm(db, { recursive: true, force: true });
  });

  it("imports real PDFs and reports documents, pages and sections", async () => {
    const run = await runCli(["ingest", dora, nist, "--db", db, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJson<IngestJson>(run);
    expect(out.files.map((f) => f.status)).toEqual(["ok", "ok"]);
    const [d, n] = out.files;
    expect(d?.pages).toBe(79);
    expect(n?.pages).toBe(113);
    expect(d?.sha256).toBe("85307f9e2a0409826dd0f54489645935816d16e929f0db4db3ef15badd11d38c");
    expect(d?.documentId).toBe(d?.sha256?.slice(0, 16));
    expect(d?.sections).toBeGreaterThan(64);
    const stats = parseJson<StatsJson>(await runCli(["stats", "--db", db, "--json"]));
    expect(stats.documents).toBe(2);
    expect(stats.sections).toBe((d?.sections ?? 0) + (n?.sections ?? 0));
  });

  it("every bad input gets its documented outcome; the library is unchanged and other files still import", async () => {
    const before = parseJson<StatsJson>(await runCli(["stats", "--db", db, "--json"]));
    const files = BAD_INPUTS.map(([f]) => corpusPath(`bad_inputs/${f}`));
    const run = await runCli(["ingest", ...files, "--ocr", "never", "--db", db, "--json"]);
    expect(run.code).toBe(1); // some failed: non-zero, JSON still printed
    const out = parseJson<IngestJson>(run);
    expect(out.files).toHaveLength(BAD_INPUTS.length);
    let imported = 0;
    for (const [i, [name, expected]] of BAD_INPUTS.entries()) {
      const result = out.files[i];
      expect(result?.file.endsWith(name), name).toBe(true);
      if (expected === "ok") {
        expect(result?.status, `${name}: ${JSON.stringify(result?.error)}`).toBe("ok");
        imported++;
      } else {
        expect(result?.status, name).toBe("error");
        expect(result?.error?.code, name).toBe(expected);
        expect(result?.error?.message.length, name).toBeGreaterThan(5);
      }
    }
    const after = parseJson<StatsJson>(await runCli(["stats", "--db", db, "--json"]));
    expect(after.documents).toBe(before.documents + imported);
  });

  it("reads a scanned PDF with OCR by default (--ocr auto) and says how surely; --ocr takes auto|always|never", async () => {
    const scan = corpusPath("bad_inputs/scanned_image_only_gutenberg_page.pdf");
    const run = await runCli(["ingest", scan, "--db", db, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const [file] = parseJson<IngestJson & { files: Array<{ ocr?: { pages: number[]; meanConfidence: number; language: string } }> }>(run).files;
    expect(file?.status).toBe("ok");
    expect(file?.ocr?.pages).toEqual([1]);
    expect(file?.ocr?.language).toBe("eng");
    expect(file?.ocr?.meanConfidence).toBeGreaterThan(80);
    const bad = await runCli(["ingest", scan, "--ocr", "sometimes", "--db", db]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--ocr must be one of auto, always, never/);
    const badLanguage = await runCli(["ingest", scan, "--ocr-lang", "deu", "--db", db]);
    expect(badLanguage.code).toBe(2);
  });

  it("opens user-password PDFs with --password and rejects a wrong one", async () => {
    const pdf = corpusPath("bad_inputs/encrypted_user_password_libreoffice__pw_openpassword.pdf");
    const wrong = parseJson<IngestJson>(await runCli(["ingest", pdf, "--password", "nope", "--db", db, "--json"]));
    expect(wrong.files[0]?.error?.code).toBe("WRONG_PASSWORD");
    const right = parseJson<IngestJson>(await runCli(["ingest", pdf, "--password", "openpassword", "--db", db, "--json"]));
    expect(right.files[0]?.status).toBe("ok");
    const hits = parseJson<SearchJson>(await runCli(["search", "lorem ipsum", "--db", db, "--json"]));
    expect(hits.results.some((r) => r.file === pdf)).toBe(true);
  });

  it("re-importing the same file is a no-op that says so", async () => {
    const before = parseJson<StatsJson>(await runCli(["stats", "--db", db, "--json"]));
    const run = await runCli(["ingest", dora, "--db", db, "--json"]);
    expect(run.code).toBe(0);
    const out = parseJson<IngestJson & { files: Array<{ warnings?: string[] }> }>(run);
    expect(out.files[0]?.status).toBe("skipped");
    expect(out.files[0]?.warnings?.join(" ")).toMatch(/already imported/);
    const after = parseJson<StatsJson>(await runCli(["stats", "--db", db, "--json"]));
    expect(after).toEqual(before);
  });

  it("search returns sections with document, label, path, pages, score and snippet", async () => {
    const run = await runCli(["search", "reporting of major ICT-related incidents to competent authorities", "--db", db, "--k", "5", "--json"]);
    expect(run.code).toBe(0);
    const out = parseJson<SearchJson>(run);
    expect(out.results.length).toBeGreaterThan(0);
    expect(out.results.length).toBeLessThanOrEqual(5);
    const top = out.results[0];
    expect(top?.file).toBe(dora);
    expect(top?.pageStart).toBeGreaterThan(0);
    expect(top?.pageEnd).toBeGreaterThanOrEqual(top?.pageStart ?? 0);
    expect(top?.label.length).toBeGreaterThan(0);
    expect(top?.path.length).toBeGreaterThan(0);
    expect(top?.text.length).toBeGreaterThan(20);
    expect(out.results.map((r) => r.score)).toEqual([...out.results.map((r) => r.score)].sort((a, b) => b - a));
    const human = await runCli(["search", "access control", "--db", db]);
    expect(human.stdout).toMatch(/score/);
  });

  it("delete removes a document and everything derived from it", async () => {
    const list = parseJson<ListJson>(await runCli(["list", "--db", db, "--json"]));
    const doraDoc = list.documents.find((d) => d.fileName === path.basename(dora));
    expect(doraDoc).toBeDefined();
    const before = parseJson<StatsJson>(await runCli(["stats", "--db", db, "--json"]));
    const del = await runCli(["delete", path.basename(dora), "--db", db]);
    expect(del.code, del.stderr).toBe(0);
    const after = parseJson<StatsJson>(await runCli(["stats", "--db", db, "--json"]));
    expect(after.documents).toBe(before.documents - 1);
    expect(after.sections).toBeLessThan(before.sections);
    const hits = parseJson<SearchJson>(await runCli(["search", "ICT-related incidents", "--db", db, "--json"]));
    expect(hits.results.some((r) => r.documentId === doraDoc?.id)).toBe(false);
    const again = await runCli(["delete", doraDoc?.id ?? "", "--db", db]);
    expect(again.code).toBe(1);
  });
});
