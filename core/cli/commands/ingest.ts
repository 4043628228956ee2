import path from "node:path";
import type { ImportOptions, ImportResult } from "../../model/engine-types.ts";
import { OCR_LANGUAGES, ocrLanguageSchema } from "../../model/ocr-types.ts";
import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";
import { table } from "../format.ts";
import { createProgressBar } from "../progress-bar.ts";

function toJson(r: ImportResult): Record<string, unknown> {
  return {
    file: r.file,
    documentId: r.documentId,
    sha256: r.sha256,
    title: r.title,
    pages: r.pages,
    sections: r.sections,
    status: r.status,
    ...(r.warnings.length > 0 ? { warnings: r.warnings } : {}),
    ...(r.error ? { error: { code: r.error.code, message: r.error.message } } : {}),
    ...(r.ocr ? { ocr: r.ocr } : {}),
  };
}

/** The CLI has no one to ask: "ask" is the app's; `--ocr never` keeps NO_TEXT_LAYER for scans. */
const CLI_OCR_MODES = ["auto", "always", "never"] as const;

/** --ocr / --ocr-lang as import options, or the usage error. */
function ocrOptions(ocr: string | undefined, lang: string | undefined): Pick<ImportOptions, "ocr" | "ocrLanguage"> | string {
  const mode = CLI_OCR_MODES.find((m) => m === (ocr ?? "auto"));
  if (mode === undefined) return `--ocr must be one of ${CLI_OCR_MODES.join(", ")}`;
  const language = lang === undefined ? undefined : ocrLanguageSchema.safeParse(lang).data;
  if (lang !== undefined && language === undefined) return `--ocr-lang must be one of ${OCR_LANGUAGES.join(", ")}`;
  return { ocr: mode, ...(language === undefined ? {} : { ocrLanguage: language }) };
}

/** "OCR: pages 1–3, confidence 93, eng" plus the pages to check by eye. */
function ocrNote(r: ImportResult): string | null {
  if (r.ocr === undefined) return null;
  const low = r.ocr.lowConfidencePages;
  return `read ${r.ocr.pages.length} page(s) with OCR (${r.ocr.language}, mean confidence ${Math.round(r.ocr.meanConfidence)})${low.length > 0 ? `; OCR, low confidence on page(s) ${low.join(", ")}: check them against the scan` : ""}`;
}

export async function ingestCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  if (args.positionals.length === 0) {
    io.stderr.write("clausegraph ingest: give one or more files (PDF, TXT, MD)\n");
    return 2;
  }
  const ocr = ocrOptions(args.ocr, args.ocrLang);
  if (typeof ocr === "string") {
    io.stderr.write(`clausegraph ingest: ${ocr}\n`);
    return 2;
  }
  const engine = await ctx.openEngine();
  try {
    const showBar = !args.json && io.stderr.isTTY === true;
    const bar = showBar ? createProgressBar(io.stderr, (p) => path.basename(p.subject ?? "")) : null;
    const started = Date.now();
    const results = await engine.importFiles(args.positionals, {
      ...(args.password !== undefined ? { password: args.password } : {}),
      ...ocr,
      ...(bar ? { onProgress: (p) => bar.onProgress(p) } : {}),
    });
    bar?.done();
    const failed = results.filter((r) => r.status === "error").length;
    if (args.json) {
      printJson(io, { files: results.map(toJson) });
    } else {
      const rows = results.map((r) => [
        r.status === "ok" ? "✓ ok" : r.status === "skipped" ? "= skipped" : "✗ error",
        path.basename(r.file),
        r.documentId ?? "",
        r.status === "error" ? "" : String(r.pages),
        r.status === "error" ? "" : String(r.sections),
        r.error ? `${r.error.code}: ${r.error.message}` : (r.title ?? ""),
      ]);
      io.stdout.write(`${table(["status", "file", "document", "pages", "sections", "title / error"], rows, [10, 48, 16, 5, 8, 70])}\n`);
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      io.stdout.write(`\n${results.length - failed} of ${results.length} file(s) imported or already present in ${secs} s; ${failed} failed.\n`);
      for (const r of results) {
        const note = ocrNote(r);
        if (note !== null) io.stdout.write(`  OCR: ${path.basename(r.file)}: ${note}\n`);
        for (const w of r.warnings) io.stdout.write(`  note: ${path.basename(r.file)}: ${w}\n`);
      }
    }
    return failed > 0 ? 1 : 0;
  } finally {
    await engine.close();
  }
}
