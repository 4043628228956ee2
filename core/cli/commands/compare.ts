import { writeFile } from "node:fs/promises";
import path from "node:path";
import { exportFormatSchema, type Crosswalk } from "../../model/compare-schemas.ts";
import { DEFAULT_K } from "../../compare/compare-job.ts";
import type { LlmClient } from "../../model/llm-client.ts";
import { type CliContext, type ExitCode, printJson } from "../cli-context.ts";
import { table } from "../format.ts";
import { cancelOnSigint, loadCliModel, reportCancelled } from "../cli-model.ts";
import { createProgressBar } from "../progress-bar.ts";

// `clausegraph compare <docA> <docB> [--k 3] [--llm model.gguf] [--json]`: the crosswalk of two
// documents (or of one against the library: `--library`) from a terminal. With --llm each stored
// pair gets the model's verdict; the number of calls (k·n, less what the cache holds) is printed
// before the first one. Ctrl+C cancels cleanly: verdicts made so far are kept and not asked again.
// `--format csv|md [--out file]` writes the export instead of the table.

/** The CLI's --json shape: the issue's `pairs`, plus what the run did. */
function jsonPairs(crosswalk: Crosswalk): unknown[] {
  return crosswalk.rows.map((r) => ({
    aSectionId: r.aSectionId,
    aLabel: r.aLabel,
    aHeading: r.aHeading,
    unmatched: r.unmatched,
    matches: r.matches.map((m) => ({
      bSectionId: m.bSectionId,
      bLabel: m.bLabel,
      bHeading: m.bHeading,
      score: m.score,
      reasons: m.reasons,
      flags: m.flags,
      ...(m.verdict === undefined ? {} : { verdict: m.verdict }),
    })),
  }));
}

function notes(crosswalk: Crosswalk, row: Crosswalk["rows"][number]): string {
  const best = row.matches[0];
  if (best === undefined) return "no match";
  const parts = [...best.flags.map((f) => f.message)];
  if (best.verdict) parts.unshift(`verdict: ${best.verdict.label.replace("_", " ")}`);
  if (row.unmatched) parts.unshift(`below ${crosswalk.comparison.matchThreshold}`);
  return parts.join("; ");
}

export async function compareCommand(ctx: CliContext): Promise<ExitCode> {
  const { args, io } = ctx;
  const library = args.library === true;
  const [documentA, documentB, ...extra] = args.positionals;
  if (documentA === undefined || (documentB === undefined && !library) || (documentB !== undefined && library) || extra.length > 0) {
    io.stderr.write(
      "usage: clausegraph compare <documentA> <documentB> | <documentA> --library [--k 3] [--all-provisions] [--llm <model.gguf>] [--format csv|md] [--out <file>] [--json]\n",
    );
    return 2;
  }
  const k = args.kGiven === true ? args.k : DEFAULT_K;
  if (k > 20) {
    io.stderr.write("clausegraph compare: --k must be a whole number from 1 to 20\n");
    return 2;
  }
  const format = args.format === undefined ? null : exportFormatSchema.safeParse(args.format);
  if (format !== null && !format.success) {
    io.stderr.write("clausegraph compare: --format must be csv or md\n");
    return 2;
  }
  const llm: LlmClient | null = args.llm === undefined ? null : await loadCliModel(args);
  const cancel = cancelOnSigint(io, "verdicts made so far are kept and will not be asked again");
  try {
    const engine = await ctx.openEngine(llm === null ? {} : { llm });
    try {
      const bar = !args.json && io.stderr.isTTY === true ? createProgressBar(io.stderr, (p) => p.subject ?? "") : null;
      let result;
      try {
        result = await engine.compareDocuments(documentA, library ? null : (documentB ?? null), {
          k,
          verdicts: llm !== null,
          ...(args.allProvisions === true ? { provisions: "all" as const } : {}),
          signal: cancel.signal,
          ...(bar ? { onProgress: (p) => bar.onProgress(p) } : {}),
          // Said before the first call, on stderr so --json output stays clean.
          onVerdictPlan: (plan) => {
            bar?.done();
            io.stderr.write(`verdicts: k·n = ${plan.pairs} pairs; ${plan.cached} from the cache, ${plan.modelCalls} model call(s)\n`);
          },
        });
      } finally {
        bar?.done();
      }
      const crosswalk = await engine.getComparison(result.comparison.id);
      if (format !== null && format.success) {
        const file = await engine.exportComparison(result.comparison.id, format.data);
        if (args.out === undefined) io.stdout.write(file.text);
        else {
          await writeFile(path.resolve(args.out), file.text, { mode: 0o600 });
          io.stderr.write(`wrote ${path.resolve(args.out)}\n`);
        }
        return 0;
      }
      if (args.json) {
        printJson(io, { ...result, pairs: jsonPairs(crosswalk) });
        return result.verdicts.failed > 0 ? 1 : 0;
      }
      const rows = crosswalk.rows.map((r) => {
        const best = r.matches[0];
        return [
          `${r.aLabel} ${r.aHeading}`.trim(),
          best ? `${best.bLabel} ${best.bHeading}`.trim() : "—",
          best ? best.score.toFixed(2) : "",
          notes(crosswalk, r),
        ];
      });
      io.stdout.write(
        `${table([`${crosswalk.comparison.documentA.fileName}`, `best match in ${crosswalk.comparison.documentB?.fileName ?? "the library"}`, "score", "flags / verdict"], rows, [44, 44, 5, 80])}\n`,
      );
      const matched = crosswalk.rows.filter((r) => !r.unmatched).length;
      io.stdout.write(
        `\n${crosswalk.rows.length} provisions, ${matched} matched (score ≥ ${crosswalk.comparison.matchThreshold}); ${result.pairsExamined} candidate pairs examined ` +
          `(${(result.pairsExamined / Math.max(1, crosswalk.rows.length * k)).toFixed(1)} × k·n, k = ${k}); ${result.rowsWritten} rows written, ${result.rowsKept} unchanged; ${result.seconds.toFixed(1)} s.\n`,
      );
      if (llm !== null)
        io.stdout.write(
          `verdicts: ${result.verdicts.pairs} pairs, ${result.verdicts.cached} from the cache, ${result.verdicts.modelCalls} model calls, ${result.verdicts.failed} failed.\n`,
        );
      io.stdout.write(`comparison ${result.comparison.id}${crosswalk.comparison.stale ? ` — ${crosswalk.comparison.stale}` : ""}\n`);
      return result.verdicts.failed > 0 ? 1 : 0;
    } finally {
      await engine.close();
    }
  } catch (err) {
    return reportCancelled(io, args.json, "compare", err);
  } finally {
    cancel.dispose();
    await llm?.close();
  }
}
