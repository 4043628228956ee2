import { parseArgs } from "node:util";
import { createEngine } from "../engine.ts";
import { toErrorInfo } from "../model/errors.ts";
import { defaultDataDir } from "../host/data-dir.ts";
import { type CliContext, type CliIo, type ExitCode, printJson } from "./cli-context.ts";
import { aliasesCommand } from "./commands/aliases.ts";
import { checkCommand } from "./commands/check.ts";
import { conversationsCommand } from "./commands/conversations.ts";
import { deleteCommand } from "./commands/delete.ts";
import { exportCommand } from "./commands/export.ts";
import { ingestCommand } from "./commands/ingest.ts";
import { listCommand } from "./commands/list.ts";
import { searchCommand } from "./commands/search.ts";
import { statsCommand } from "./commands/stats.ts";
import { safeStream } from "./terminal-text.ts";

const COMMANDS = [
  "ingest",
  "search",
  "ask",
  "extract",
  "compare",
  "stats",
  "list",
  "delete",
  "check",
  "aliases",
  "models",
  "conversations",
  "export",
  "help",
] as const;
type Command = (typeof COMMANDS)[number];

const USAGE = `clausegraph — offline regulatory library from the command line

Usage:
  clausegraph ingest <files…> [--db <dir>] [--password <pw>] [--ocr auto|always|never] [--ocr-lang eng|ita] [--json]
  clausegraph search "<query>" [--db <dir>] [--k 10] [--json]
  clausegraph ask "<question>" [--db <dir>] [--llm <model.gguf>] [--threads N] [--max-tokens N] [--max-seconds S] [--conversation <id>] [--json]
  clausegraph extract --llm <model.gguf> [--db <dir>] [--threads N] [--doc <id>]… [--json]
  clausegraph compare <docA> <docB> | <docA> --library [--k 3] [--all-provisions] [--llm <model.gguf>] [--threads N] [--format csv|md] [--out <file>] [--db <dir>] [--json]
  clausegraph list [--db <dir>] [--json]
  clausegraph stats [--db <dir>] [--json]
  clausegraph delete <documentId|file> [--db <dir>] [--json]
  clausegraph check [--repair] [--db <dir>] [--json]   (consistency; --repair rebuilds from the kept copies)
  clausegraph aliases <documentId|file> [--set "A,B"] [--add X]… [--remove X]… [--db <dir>] [--json]   (names questions find it by)
  clausegraph models [list | import <file.gguf> | remove <id>] [--db <dir>] [--json]
  clausegraph conversations [words…] [--db <dir>] [--json]   (newest first; words search questions and answers)
  clausegraph export --conversation <id> | --answer <logId> [--format md|html] [--out <file>] [--db <dir>]

--db       data directory (default: ${defaultDataDir()}); --data-dir is the same
--json     machine-readable output on stdout
Exit code: 0 success, 1 when any file or target failed (details still printed), 2 bad usage.
`;

function isCommand(value: string | undefined): value is Command {
  return value !== undefined && (COMMANDS as readonly string[]).includes(value);
}

export async function main(argv: string[], rawIo: CliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<ExitCode> {
  // File names, titles and quoted text reach the terminal as text, never as its controls.
  const io: CliIo = { stdout: safeStream(rawIo.stdout), stderr: safeStream(rawIo.stderr) };
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        db: { type: "string" },
        "data-dir": { type: "string" },
        json: { type: "boolean", default: false },
        k: { type: "string" },
        password: { type: "string" },
        ocr: { type: "string" },
        "ocr-lang": { type: "string" },
        llm: { type: "string" },
        threads: { type: "string" },
        doc: { type: "string", multiple: true },
        repair: { type: "boolean", default: false },
        set: { type: "string" },
        add: { type: "string", multiple: true },
        remove: { type: "string", multiple: true },
        conversation: { type: "string" },
        "max-tokens": { type: "string" },
        "max-seconds": { type: "string" },
        answer: { type: "string" },
        format: { type: "string" },
        out: { type: "string" },
        library: { type: "boolean", default: false },
        "all-provisions": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (err) {
    io.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...positionals] = parsed.positionals;
  if (parsed.values.help || command === "help" || command === undefined) {
    io.stdout.write(USAGE);
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  if (!isCommand(command)) {
    io.stderr.write(`unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  const k = Number.parseInt(parsed.values.k ?? "10", 10);
  if (!Number.isFinite(k) || k < 1 || k > 100) {
    io.stderr.write("--k must be a whole number from 1 to 100\n");
    return 2;
  }
  const json = parsed.values.json;
  const db = parsed.values.db ?? parsed.values["data-dir"] ?? defaultDataDir();
  const ctx: CliContext = {
    args: {
      positionals,
      json,
      db,
      k,
      kGiven: parsed.values.k !== undefined,
      password: parsed.values.password,
      ocr: parsed.values.ocr,
      ocrLang: parsed.values["ocr-lang"],
      llm: parsed.values.llm,
      threads: parsed.values.threads === undefined ? undefined : Number.parseInt(parsed.values.threads, 10),
      docs: parsed.values.doc,
      repair: parsed.values.repair,
      setAliases: parsed.values.set,
      addAliases: parsed.values.add,
      removeAliases: parsed.values.remove,
      conversation: parsed.values.conversation,
      maxTokens: parsed.values["max-tokens"] === undefined ? undefined : Number(parsed.values["max-tokens"]),
      maxSeconds: parsed.values["max-seconds"] === undefined ? undefined : Number(parsed.values["max-seconds"]),
      answer: parsed.values.answer,
      format: parsed.values.format,
      out: parsed.values.out,
      library: parsed.values.library,
      allProvisions: parsed.values["all-provisions"],
    },
    io,
    openEngine: async (extra = {}) => {
      const engine = await createEngine({ dataDir: db, ...extra });
      // Every command says so when the library is damaged (stderr, so --json output stays clean).
      if (command !== "check") {
        const health = await engine.checkLibrary().catch(() => null);
        if (health && health.damaged.length > 0) {
          io.stderr.write(
            `warning: ${health.damaged.length} document(s) of this library are damaged (${health.damaged.map((d) => d.fileName ?? d.documentId).join(", ")}); run \`clausegraph check\` for details and \`clausegraph check --repair\` to rebuild it.\n`,
          );
        }
      }
      return engine;
    },
  };
  try {
    switch (command) {
      case "ingest":
        return await ingestCommand(ctx);
      case "search":
        return await searchCommand(ctx);
      case "ask":
        // Loaded on demand: with --llm it pulls in node-llama-cpp.
        return await (await import("./commands/ask.ts")).askCommand(ctx);
      case "extract":
        // Loaded on demand: it pulls in node-llama-cpp.
        return await (await import("./commands/extract.ts")).extractCommand(ctx);
      case "compare":
        return await (await import("./commands/compare.ts")).compareCommand(ctx);
      case "stats":
        return await statsCommand(ctx);
      case "list":
        return await listCommand(ctx);
      case "delete":
        return await deleteCommand(ctx);
      case "aliases":
        return await aliasesCommand(ctx);
      case "check":
        return await checkCommand(ctx);
      case "models":
        // Loaded on demand: it pulls in node-llama-cpp, which the other commands do not need.
        return await (await import("./commands/models.ts")).modelsCommand(ctx);
      case "conversations":
        return await conversationsCommand(ctx);
      case "export":
        return await exportCommand(ctx);
      case "help":
        io.stdout.write(USAGE);
        return 0;
      default: {
        const unreachable: never = command;
        throw new Error(`unhandled command ${String(unreachable)}`);
      }
    }
  } catch (err) {
    // Engine-level failures (locked or damaged database, …) still get the typed error shape.
    const error = toErrorInfo(err);
    if (json) printJson(io, { error });
    else io.stderr.write(`clausegraph ${command}: ${error.code}: ${error.message}\n`);
    return 1;
  }
}
