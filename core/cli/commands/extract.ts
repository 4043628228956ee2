import type { LlmClient } from "../../model/llm-client.ts";
import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";
import { cancelOnSigint, loadCliModel, reportCancelled } from "../cli-model.ts";
import { table } from "../format.ts";
import { createProgressBar } from "../progress-bar.ts";

// `clausegraph extract`: the LLM triplet job from a terminal. Ctrl+C cancels cleanly (sections
// finished so far stay cached); a killed run leaves the database as it was before the document
// being stored, and the next run resumes from the cache.

export async function extractCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  if (args.llm === undefined) {
    io.stderr.write("clausegraph extract: give a model with --llm <model.gguf>\n");
    return 2;
  }
  if (args.positionals.length > 0) {
    io.stderr.write("clausegraph extract: documents are chosen with --doc <id> (repeatable), not positionals\n");
    return 2;
  }
  const llm: LlmClient = await loadCliModel(args);
  const cancel = cancelOnSigint(io, "finished sections are kept and will not be redone");
  try {
    const engine = await ctx.openEngine({ llm });
    try {
      const showBar = !args.json && io.stderr.isTTY === true;
      const bar = showBar ? createProgressBar(io.stderr, (p) => p.subject ?? "") : null;
      const docs = args.docs ?? [];
      let summary;
      try {
        summary = await engine.extractTriplets({
          ...(docs.length > 0 ? { documentIds: docs } : {}),
          signal: cancel.signal,
          ...(bar ? { onProgress: (p) => bar.onProgress(p) } : {}),
        });
      } finally {
        bar?.done();
      }
      if (args.json) {
        printJson(io, summary);
      } else {
        const rows = summary.documents.map((d) => [
          d.documentId,
          d.title.slice(0, 40),
          String(d.sections),
          String(d.extracted),
          String(d.cached),
          String(d.failed),
          String(d.triplets),
        ]);
        io.stdout.write(`${table(["document", "title", "sections", "extracted", "cached", "failed", "triplets"], rows, [16, 40, 8, 9, 6, 6, 8])}\n`);
        io.stdout.write(
          `\n${summary.triplets} LLM triplet(s) from ${summary.sections} section(s) with ${summary.modelId} (${summary.extracted} extracted, ${summary.cached} from cache, ${summary.failed} failed) in ${(summary.totalMs / 1000).toFixed(1)} s.\n`,
        );
      }
      return summary.failed > 0 ? 1 : 0;
    } finally {
      await engine.close();
    }
  } catch (err) {
    return reportCancelled(io, args.json, "extract", err);
  } finally {
    cancel.dispose();
    await llm.close();
  }
}
