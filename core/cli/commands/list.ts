import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";
import { table } from "../format.ts";

export async function listCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const engine = await ctx.openEngine();
  try {
    const documents = await engine.listDocuments();
    if (args.json) {
      printJson(io, { documents });
      return 0;
    }
    if (documents.length === 0) {
      io.stdout.write("No documents imported yet.\n");
      return 0;
    }
    const rows = documents.map((d) => [d.id, d.fileName, String(d.pages), String(d.sections), d.language, d.title]);
    io.stdout.write(`${table(["document", "file", "pages", "sections", "lang", "title"], rows, [16, 48, 5, 8, 4, 60])}\n`);
    // Scanned documents: which pages OCR read, and those to check against the scan.
    for (const d of documents) {
      if (d.ocr === undefined) continue;
      const low = d.ocr.lowConfidencePages;
      io.stdout.write(
        `  OCR: ${d.fileName}: ${d.ocr.pages.length} page(s), mean confidence ${Math.round(d.ocr.meanConfidence)}${low.length > 0 ? `; OCR, low confidence on page(s) ${low.join(", ")}` : ""}\n`,
      );
    }
    return 0;
  } finally {
    await engine.close();
  }
}
