import { writeFile } from "node:fs/promises";
import path from "node:path";
import { exportFormatSchema } from "../../model/conversation-schemas.ts";
import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";

// `clausegraph export --conversation <id> | --answer <logId> [--format md|html] [--out file]`: an
// audit workpaper from the answer log, to stdout or to a file (0600, like everything of the library).

export async function exportCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const conversation = args.conversation;
  const answer = args.answer;
  if ((conversation === undefined) === (answer === undefined)) {
    io.stderr.write("clausegraph export: give exactly one of --conversation <id> (see `clausegraph conversations`) or --answer <answer log id>\n");
    return 2;
  }
  const format = exportFormatSchema.safeParse(args.format ?? "md");
  if (!format.success) {
    io.stderr.write("clausegraph export: --format must be md or html\n");
    return 2;
  }
  const engine = await ctx.openEngine();
  try {
    const file = conversation !== undefined ? await engine.exportConversation(conversation, format.data) : await engine.exportAnswer(answer ?? "", format.data);
    if (args.out === undefined) {
      if (args.json) printJson(io, file);
      else io.stdout.write(file.text);
      return 0;
    }
    const out = path.resolve(args.out);
    await writeFile(out, file.text, { encoding: "utf8", mode: 0o600 });
    if (args.json) printJson(io, { fileName: file.fileName, mimeType: file.mimeType, out });
    else io.stdout.write(`wrote ${out}\n`);
    return 0;
  } finally {
    await engine.close();
  }
}
