import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { AskResult } from "../model/answer-types.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../files/private-files.ts";
import type { GraphStore } from "../store/graph-store.ts";
import { evidenceGraph } from "./evidence-graph.ts";
import { answerRouteSchema, graphRowSchema } from "../model/graph-answer-schemas.ts";
import { querySchema } from "./query-schema.ts";

// A reopened answer (a conversation after a reload or a restart) shows what it showed when it
// was given: the route it took and why, the graph's rows, and its evidence graph. The answer log
// keeps the text answer; beside it, one small file per logged answer that had a route keeps the
// route and the rows (<dataDir>/graph-answers/<logId>.json, private like the rest of the library).

/** The folder (under the data dir) of the kept routes and rows: part of the answer log. */
export const GRAPH_ANSWER_DIR = "graph-answers";
const LOG_ID = /^[A-Za-z0-9_-]{1,64}$/;

const graphAnswerSchema = z.object({
  route: answerRouteSchema,
  rows: z.array(graphRowSchema).optional(),
});

export type GraphAnswerRecord = z.infer<typeof graphAnswerSchema>;

function fileOf(dataDir: string, logId: string): string | null {
  return LOG_ID.test(logId) ? path.join(dataDir, GRAPH_ANSWER_DIR, `${logId}.json`) : null;
}

/** Keeps a logged answer's route and rows; answers without a route keep nothing. */
export async function recordGraphAnswer(dataDir: string, logId: string, result: AskResult): Promise<void> {
  const file = fileOf(dataDir, logId);
  if (file === null || result.route === undefined) return;
  await ensurePrivateDir(path.dirname(file));
  const record: GraphAnswerRecord = { route: result.route, ...(result.rows === undefined ? {} : { rows: result.rows }) };
  await writeFile(file, JSON.stringify(record), { mode: PRIVATE_FILE_MODE });
}

/** The route and rows kept for a logged answer, or null (none kept, unreadable, or an older answer). */
export async function readGraphAnswer(dataDir: string, logId: string): Promise<GraphAnswerRecord | null> {
  const file = fileOf(dataDir, logId);
  if (file === null) return null;
  const text = await readFile(file, "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const parsed = graphAnswerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A logged graph answer's rows as the table it showed (cells by column, each row's citation key), or null. */
export async function graphAnswerTable(dataDir: string, logId: string): Promise<{ columns: string[]; rows: Array<{ cells: string[]; key: string }> } | null> {
  const kept = await readGraphAnswer(dataDir, logId);
  const rows = kept?.rows ?? [];
  if (kept === null || rows.length === 0) return null;
  const columns = kept.route.columns ?? rows[0]?.cells.map((c) => c.name) ?? [];
  return { columns, rows: rows.map((r) => ({ cells: columns.map((name) => r.cells.find((c) => c.name === name)?.value ?? ""), key: r.citation.key })) };
}

/**
 * What a reopened answer adds to the log's record: its route and rows, and its evidence graph:
 * the graph the record kept (`recorded`: as the live answer drew it, less what was deleted since),
 * or for an older record the evidence graph of the sections it cites drawn again. Drawn again, the
 * facts differ: the live graph ranked them by the cited sentences and the rows' triplets, which
 * the record does not keep, so a reload showed other entities laid out elsewhere. A refusal draws
 * nothing. Null when the answer kept no route: the caller draws the graph its own way.
 */
export async function reopenGraphAnswer(
  store: GraphStore,
  dataDir: string,
  record: { id: string; citedSectionIds: readonly string[] },
  recorded?: () => Promise<Pick<AskResult, "subgraph" | "triplets">>,
): Promise<Pick<AskResult, "route" | "rows" | "subgraph" | "triplets"> | null> {
  const kept = await readGraphAnswer(dataDir, record.id);
  if (kept === null) return null;
  // The schema is read only to draw the graph again.
  const graph =
    recorded === undefined
      ? await evidenceGraph(
          { store, schema: querySchema(await store.graphSchema()), timeoutMs: 5000, maxRows: 200, ran: [] },
          { sectionIds: record.citedSectionIds },
        )
      : await recorded();
  return { route: kept.route, ...(kept.rows === undefined ? {} : { rows: kept.rows }), subgraph: graph.subgraph, triplets: graph.triplets };
}
