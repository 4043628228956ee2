import path from "node:path";
import type { ImportResult } from "../../engine-types.ts";
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
  };
}

export async function ingestCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  if (args.positionals.length === 0) {
    io.stderr.write("clausegraph ingest: give one or more files (PDF, TXT, MD)\n");
    return 2;
  }
  const engine = await ctx.openEngine();
  try {
    const showBar = !args.json && io.stderr.isTTY === true;
    const bar = showBar ? createProgressBar(io.stderr, (p) => path.basename(p.subject ?? "")) : null;
    const started = Date.now();
    const results = await engine.importFiles(args.positionals, {
      ...(args.password !== undefined ? { password: args.password } : {}),
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
      for (const r of results) for (const w of r.warnings) io.stdout.write(`  note: ${path.basename(r.file)}: ${w}\n`);
    }
    return failed > 0 ? 1 : 0;
  } finally {
    await engine.close();
  }
}
