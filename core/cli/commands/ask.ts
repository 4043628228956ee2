import path from "node:path";
import { lowConfidenceOcrPages } from "../../model/ocr-types.ts";
import { ANSWER_LIMIT_BOUNDS, answerLimitsPatchSchema } from "../../model/answer-limits.ts";
import type { LlmClient } from "../../model/llm-client.ts";
import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";
import { pages, table } from "../format.ts";

export async function askCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const question = args.positionals.join(" ").trim();
  if (question === "") {
    io.stderr.write('clausegraph ask: give a question, e.g. clausegraph ask "who must notify a personal data breach, and by when?" --db <dir>\n');
    return 2;
  }
  const caps = answerLimitsPatchSchema.safeParse({ maxTokens: args.maxTokens, maxSeconds: args.maxSeconds });
  if (!caps.success) {
    const { maxTokens, maxSeconds } = ANSWER_LIMIT_BOUNDS;
    io.stderr.write(
      `clausegraph ask: --max-tokens must be a whole number from ${maxTokens.min} to ${maxTokens.max}, --max-seconds from ${maxSeconds.min} to ${maxSeconds.max}\n`,
    );
    return 2;
  }
  let llm: LlmClient | null = null;
  if (args.llm !== undefined) {
    const { loadLlm } = await import("../../llm/load-llm.ts");
    llm = await loadLlm({
      modelPath: path.resolve(args.llm),
      ...(args.threads === undefined || !Number.isFinite(args.threads) ? {} : { threads: args.threads }),
    });
  }
  const engine = await ctx.openEngine({ llm });
  try {
    // Streaming goes to stderr in --json mode so stdout stays one JSON document.
    const stream = args.json ? null : io.stdout;
    if (llm && stream) stream.write("\n");
    const result = await engine.ask(question, {
      ...(llm && stream ? { onToken: (t: string) => stream.write(t) } : {}),
      ...(args.conversation === undefined ? {} : { conversationId: args.conversation }),
      ...(caps.data.maxTokens === undefined ? {} : { maxTokens: caps.data.maxTokens }),
      ...(caps.data.maxSeconds === undefined ? {} : { maxSeconds: caps.data.maxSeconds }),
    });
    if (args.json) {
      printJson(io, result);
      return 0;
    }
    if (llm) io.stdout.write("\n\n--- verified answer ---\n");
    // A graph answer is its rows: the summary, then the table, one source per row.
    const rows = result.rows ?? [];
    const graphOnly = result.route?.route === "graph" && rows.length > 0;
    io.stdout.write(`${graphOnly ? (result.sentences[0]?.text ?? "") : result.answer}\n\n`);
    if (rows.length > 0) {
      const columns = result.route?.columns ?? rows[0]?.cells.map((c) => c.name) ?? [];
      if (!graphOnly) io.stdout.write("From the graph:\n");
      const cells = rows.map((r) => [...columns.map((name) => r.cells.find((c) => c.name === name)?.value ?? ""), `[${r.citation.key}] ${r.citation.label}`]);
      io.stdout.write(`${table([...columns, "Source"], cells, [...columns.map(() => 40), 60])}\n\n`);
    }
    if (result.route !== undefined) {
      io.stdout.write(`Route: ${result.route.route} — ${result.route.reason}\n`);
      if (result.route.fallback !== undefined) io.stdout.write(`${result.route.fallback}\n`);
      io.stdout.write("\n");
    }
    const flagged = result.sentences.filter((s) => !s.supported);
    if (flagged.length > 0) io.stdout.write(`⚠ ${flagged.length} sentence(s) not supported by the cited text are marked [unverified].\n\n`);
    // Why the model's answer was cut or replaced by quotes (a cap, no citations, …), never only in the log.
    if (result.notice !== undefined) io.stdout.write(`⚠ ${result.notice.message}\n\n`);
    io.stdout.write(
      `Mode: ${result.mode === "llm" ? `written by ${result.model?.name ?? llm?.modelId ?? "the model"}` : "extractive (quoted from the documents)"}\nSources:\n`,
    );
    // A citation of a scanned page OCR was unsure of says so: check it against the scan.
    const ocr = new Map((await engine.listDocuments()).map((d) => [d.id, d.ocr] as const));
    for (const c of result.citations) {
      const low = lowConfidenceOcrPages(ocr.get(c.documentId), c.pageStart, c.pageEnd).length > 0 ? " (OCR, low confidence)" : "";
      io.stdout.write(`  [${c.key}] ${c.label} — ${path.basename(c.file)}, ${pages(c.pageStart, c.pageEnd)}${low}\n`);
    }
    if (result.followUp !== undefined) io.stdout.write(`Follow-up: ${result.followUp.reason}\n`);
    // The id `clausegraph export --answer` takes.
    if (result.logId !== undefined) io.stdout.write(`Answer log id: ${result.logId}\n`);
    return 0;
  } finally {
    await engine.close();
    await llm?.close();
  }
}
