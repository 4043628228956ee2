import path from "node:path";
import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";
import { pages, table, truncate } from "../format.ts";

export async function searchCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const query = args.positionals.join(" ").trim();
  if (query === "") {
    io.stderr.write('clausegraph search: give a query, e.g. clausegraph search "incident reporting deadline" --db <dir>\n');
    return 2;
  }
  const engine = await ctx.openEngine();
  try {
    const response = await engine.search(query, { k: args.k });
    const { results, triplets } = response;
    if (args.json) {
      printJson(io, response);
      return 0;
    }
    if (results.length === 0) {
      io.stdout.write("No matching sections.\n");
      return 0;
    }
    const rows = results.map((r, i) => [String(i + 1), r.score.toFixed(2), r.label, pages(r.pageStart, r.pageEnd), path.basename(r.file), r.heading]);
    io.stdout.write(`${table(["#", "score", "section", "pages", "document", "heading"], rows, [3, 6, 24, 12, 40, 50])}\n\n`);
    for (const [i, r] of results.entries()) {
      io.stdout.write(`${i + 1}. ${r.path.join(" › ")}\n   ${truncate(r.text, 300)}\n`);
    }
    if (triplets.length > 0) {
      const labels = new Map(results.map((r) => [r.sectionId, r.label]));
      io.stdout.write("\nFacts in the top results:\n");
      for (const t of triplets.slice(0, 12)) {
        const deadline = t.deadline === null ? "" : ` [${t.deadline}]`;
        io.stdout.write(`  • ${t.subject} — ${t.predicate} → ${t.object || "…"}${deadline}  (${labels.get(t.sectionId) ?? t.sectionId})\n`);
      }
    }
    return 0;
  } finally {
    await engine.close();
  }
}
