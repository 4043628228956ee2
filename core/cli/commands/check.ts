import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";

/** `clausegraph check [--repair]`: the library's consistency, and its rebuild from the kept copies. */
export async function checkCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const engine = await ctx.openEngine();
  try {
    const health = await engine.checkLibrary();
    if (!args.repair) {
      if (args.json) printJson(io, { dataDir: engine.dataDir, ...health });
      else if (health.damaged.length === 0) io.stdout.write(`${engine.dataDir}: ${health.documents} documents, no damage found\n`);
      else {
        io.stdout.write(`${engine.dataDir}: ${health.damaged.length} damaged document(s):\n`);
        for (const d of health.damaged) io.stdout.write(`  ${d.documentId}  ${d.message}\n`);
        io.stdout.write("Run `clausegraph check --repair` to rebuild the library from the copies kept at import.\n");
      }
      return health.damaged.length === 0 ? 0 : 1;
    }
    const repair = await engine.repairLibrary();
    if (args.json) {
      printJson(io, { dataDir: engine.dataDir, ...repair });
    } else if (!repair.rebuilt) {
      io.stdout.write(`${engine.dataDir}: no damage found, nothing to repair\n`);
    } else {
      const ok = repair.reimported.filter((r) => r.status === "ok").length;
      io.stdout.write(`${engine.dataDir}: library rebuilt from the kept copies: ${ok} of ${repair.reimported.length} documents imported again\n`);
      for (const r of repair.reimported.filter((x) => x.status === "error"))
        io.stdout.write(`  failed  ${r.file}: ${r.error?.code ?? ""} ${r.error?.message ?? ""}\n`);
      for (const m of repair.missing) io.stdout.write(`  missing ${m.fileName ?? m.documentId}: no copy was kept; import it again from the original\n`);
      if (repair.backup) io.stdout.write(`The damaged database is kept as ${repair.backup} (delete it once you are satisfied).\n`);
    }
    const failed = repair.reimported.some((r) => r.status === "error") || repair.missing.length > 0 || repair.health.damaged.length > 0;
    return failed ? 1 : 0;
  } finally {
    await engine.close();
  }
}
