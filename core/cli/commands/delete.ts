import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";

export async function deleteCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const target = args.positionals[0];
  if (target === undefined || args.positionals.length > 1) {
    io.stderr.write("clausegraph delete: give exactly one document id or file\n");
    return 2;
  }
  const engine = await ctx.openEngine();
  try {
    const result = await engine.deleteDocument(target);
    if (args.json) {
      printJson(io, result.deleted ? result : { ...result, error: { code: "NOT_FOUND", message: `no document matches ${target}` } });
    } else if (result.deleted) {
      io.stdout.write(`Deleted ${result.documentId} (${result.file}) and everything derived from it.\n`);
    } else {
      io.stderr.write(`No document matches "${target}" (use an id from \`clausegraph list\`, or the imported file).\n`);
    }
    return result.deleted ? 0 : 1;
  } finally {
    await engine.close();
  }
}
