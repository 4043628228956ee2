import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";
import { table } from "../format.ts";

export async function statsCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const engine = await ctx.openEngine();
  try {
    const stats = await engine.stats();
    if (args.json) {
      printJson(io, { dataDir: engine.dataDir, ...stats });
      return 0;
    }
    const rows = Object.entries(stats).map(([key, value]) => [key, String(value)]);
    io.stdout.write(`${engine.dataDir}\n${table(["what", "count"], rows)}\n`);
    return 0;
  } finally {
    await engine.close();
  }
}
