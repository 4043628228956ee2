import { effectiveAliases } from "../../model/document-names.ts";
import type { DocumentRecord } from "../../model/store-records.ts";
import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";

// `clausegraph aliases <doc> [--set "A,B"] [--add X]… [--remove X]…`: the names a document
// answers to in questions ("under DORA"). Without an option it lists them; --set replaces the
// list, --add and --remove change it (a registry name removed is hidden, not lost: --add brings
// it back). The change is kept through a library rebuild.

function describe(doc: DocumentRecord): string {
  const user = new Set((doc.userAliases ?? []).map((a) => a.toLowerCase()));
  const names = effectiveAliases(doc).map((a) => (user.has(a.toLowerCase()) ? `${a} (yours)` : a));
  const hidden = doc.hiddenAliases ?? [];
  return `${doc.id} ${doc.fileName}\n  aliases: ${names.length > 0 ? names.join("; ") : "(none)"}\n${hidden.length > 0 ? `  removed: ${hidden.join("; ")}\n` : ""}`;
}

const sameName = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

export async function aliasesCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const target = args.positionals[0];
  if (target === undefined || args.positionals.length > 1) {
    io.stderr.write('clausegraph aliases: give exactly one document id or file, e.g. clausegraph aliases 3f2a… --add "DORA"\n');
    return 2;
  }
  const engine = await ctx.openEngine();
  try {
    const doc = (await engine.listDocuments()).find(
      (d) => d.id === target || d.fileName === target || d.file === target || (target.length >= 6 && d.id.startsWith(target)),
    );
    if (doc === undefined) {
      if (args.json) printJson(io, { error: { code: "NOT_FOUND", message: `no document matches ${target}` } });
      else io.stderr.write(`No document matches "${target}" (use an id from \`clausegraph list\`, or the imported file).\n`);
      return 1;
    }
    const changing = args.setAliases !== undefined || (args.addAliases?.length ?? 0) > 0 || (args.removeAliases?.length ?? 0) > 0;
    let result = doc;
    if (changing) {
      let wanted = args.setAliases !== undefined ? args.setAliases.split(",") : effectiveAliases(doc);
      for (const add of args.addAliases ?? []) if (!wanted.some((a) => sameName(a, add))) wanted.push(add);
      wanted = wanted.filter((a) => !(args.removeAliases ?? []).some((r) => sameName(a, r)));
      result = await engine.setDocumentAliases(doc.id, wanted);
    }
    if (args.json)
      printJson(io, {
        document: result.id,
        aliases: effectiveAliases(result),
        userAliases: result.userAliases ?? [],
        hiddenAliases: result.hiddenAliases ?? [],
      });
    else io.stdout.write(describe(result));
    return 0;
  } finally {
    await engine.close();
  }
}
