import path from "node:path";
import { modelsDir } from "../../llm/model-paths.ts";
import { listModels, type ModelInfo, removeModel } from "../../llm/model-registry.ts";
import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";
import { table } from "../format.ts";

// `clausegraph models list|import <file>|remove <id>`: the model folder of a data directory. It never
// opens the library database, so it works while the app is running, and it never downloads anything.

const USAGE = "clausegraph models list | import <file.gguf> | remove <id>  [--db <dir>] [--json]";

function size(bytes: number | null): string {
  if (bytes === null) return "";
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(0)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

function printList(ctx: CliContext, models: ModelInfo[]): void {
  const { io, args } = ctx;
  const rows = models.map((m) => [
    m.installed ? (m.verified ? "✓ verified" : "✓ installed") : "– not installed",
    m.id,
    m.kind,
    m.installed ? size(m.sizeBytes) : `~${size(m.approxSizeBytes)}`,
    m.parameters ?? "",
    m.license?.id ?? "",
    m.displayName,
  ]);
  io.stdout.write(`Models in ${modelsDir(args.db)}\n`);
  io.stdout.write(`${table(["status", "id", "kind", "size", "params", "license", "name"], rows, [15, 36, 9, 9, 6, 30, 48])}\n`);
  if (!models.some((m) => m.kind === "llm" && m.installed)) {
    io.stdout.write("\nNo language model installed. Download a recommended GGUF (see models/README.md), then:\n  clausegraph models import <file.gguf>\n");
  }
}

async function importCommand(ctx: CliContext, file: string): Promise<ExitCode> {
  const { io, args } = ctx;
  if (!args.json && io.stderr.isTTY === true) io.stderr.write(`Checking and copying ${path.basename(file)}…\n`);
  // Only importing reads GGUF headers, which needs node-llama-cpp's parser (slow to load).
  const { importModel } = await import("../../llm/import-model.ts");
  const result = await importModel(args.db, file);
  if (args.json) {
    printJson(io, { status: result.status, file: result.file, model: result.record });
    return 0;
  }
  const r = result.record;
  const what = result.status === "already-installed" ? "Already installed" : result.status === "replaced" ? "Replaced" : "Imported";
  io.stdout.write(`${what}: ${r.id} (${r.architecture}, ${r.parameterCount.toLocaleString("en-US")} parameters, ${size(r.sizeBytes)})\n`);
  io.stdout.write(`  file    ${result.file}\n  sha256  ${r.sha256}\n`);
  if (r.manifestId !== null) {
    io.stdout.write(
      r.verified
        ? "  matches the checksum pinned in the model manifest.\n"
        : "  recognised by name as a recommended model; the manifest pins no checksum for it yet, so it is not verified.\n",
    );
  }
  return 0;
}

async function removeCommand(ctx: CliContext, id: string): Promise<ExitCode> {
  const { io, args } = ctx;
  const result = await removeModel(args.db, id);
  if (args.json) printJson(io, { removed: result.id, freedBytes: result.freedBytes });
  else io.stdout.write(`Removed ${result.id} (${size(result.freedBytes)} freed).\n`);
  return 0;
}

export async function modelsCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const [sub, ...rest] = args.positionals;
  switch (sub) {
    case "list":
    case undefined: {
      if (rest.length > 0) break;
      const models = await listModels(args.db);
      if (args.json) printJson(io, { modelsDir: modelsDir(args.db), models });
      else printList(ctx, models);
      return 0;
    }
    case "import":
      if (rest.length !== 1 || rest[0] === undefined) break;
      return importCommand(ctx, rest[0]);
    case "remove":
      if (rest.length !== 1 || rest[0] === undefined) break;
      return removeCommand(ctx, rest[0]);
    default:
      break;
  }
  io.stderr.write(`usage: ${USAGE}\n`);
  return 2;
}
