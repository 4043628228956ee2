import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";
import { table } from "../format.ts";

// `clausegraph conversations [words…]`: the library's conversations, newest first (those whose
// questions or answers hold all the words, when given), with the ids `export --conversation` takes.

export async function conversationsCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const query = args.positionals.join(" ").trim();
  const engine = await ctx.openEngine();
  try {
    const conversations = await engine.listConversations(query === "" ? {} : { query });
    if (args.json) {
      printJson(io, { conversations });
      return 0;
    }
    if (conversations.length === 0) {
      io.stdout.write(query === "" ? "No conversations yet.\n" : `No conversation mentions "${query}".\n`);
      return 0;
    }
    const rows = conversations.map((c) => [c.id, c.updatedAt.slice(0, 16).replace("T", " "), String(c.turnCount), c.title]);
    io.stdout.write(`${table(["conversation", "last answer (UTC)", "answers", "first question"], rows, [36, 17, 7, 70])}\n`);
    return 0;
  } finally {
    await engine.close();
  }
}
