import { randomUUID } from "node:crypto";
import path from "node:path";
import { ClauseGraphError } from "../../model/errors.ts";
import { appendLine, readJsonLines } from "../../files/json-lines.ts";
import type { AskResult } from "../../model/answer-types.ts";
import { REFUSAL } from "../../model/answer-types.ts";
import { ANSWER_LOG_VERSION, type AnswerLogModel, type AnswerLogRecord, answerLogRecordSchema } from "../../model/answer-log-schema.ts";

// The answer log of a database: `<dataDir>/answer-log.jsonl`, one JSON record a line, only ever
// appended. Each record is written with one write() on a file opened for appending and fsynced
// before ask() returns, so an answer the auditor saw is on disk. A crash can at worst leave the
// last line torn; readers skip it and the next append starts on a fresh line. It lives beside the
// Kuzu database rather than in it: an audit trail must survive a schema migration or a re-import.

export const ANSWER_LOG_FILE = "answer-log.jsonl";

export function answerLogPath(dataDir: string): string {
  return path.join(dataDir, ANSWER_LOG_FILE);
}

/** What the engine knows beside the answer, recorded so the log alone can reproduce and export it. */
export interface AnswerLogDetails {
  /** The cited sections' text and their document's sha256, by section id. */
  sections?: ReadonlyMap<string, { text: string; documentSha256: string }>;
  askedAs?: string;
  conversationId?: string;
  appVersion?: string;
}

/** A citation as recorded: where it points, and the sentences it quotes, verbatim. */
function citationRecord(c: AskResult["citations"][number], result: AskResult, details: AnswerLogDetails): AnswerLogRecord["citations"][number] {
  const section = details.sections?.get(c.sectionId);
  const spans = c.spans ?? [];
  // The cited sentences as they stand in the section; an extractive answer's own sentences are
  // quotes too, for answers made before citations carried their spans.
  const quotes =
    section !== undefined && spans.length > 0
      ? spans.map((r) => section.text.slice(r.start, r.end).replace(/\s+/g, " ").trim())
      : result.mode === "extractive"
        ? result.sentences.filter((s) => s.citationKeys.includes(c.key)).map((s) => s.text)
        : [];
  return {
    key: c.key,
    sectionId: c.sectionId,
    label: c.label,
    pageStart: c.pageStart,
    pageEnd: c.pageEnd,
    documentId: c.documentId,
    file: c.file,
    ...(section === undefined ? {} : { documentSha256: section.documentSha256 }),
    ...(c.printedPages === undefined ? {} : { printedPages: c.printedPages }),
    ...(c.spans === undefined ? {} : { spans: c.spans.map((r) => ({ start: r.start, end: r.end })) }),
    quotes,
  };
}

/** The record for one answer. */
export function answerLogRecord(
  question: string,
  evidenceSectionIds: readonly string[],
  result: AskResult,
  model: AnswerLogModel | null,
  now: Date = new Date(),
  details: AnswerLogDetails = {},
): AnswerLogRecord {
  return {
    version: ANSWER_LOG_VERSION,
    id: randomUUID(),
    askedAt: now.toISOString(),
    question,
    mode: result.mode,
    evidenceSectionIds: [...evidenceSectionIds],
    citedSectionIds: [...new Set(result.citations.map((c) => c.sectionId))],
    citations: result.citations.map((c) => citationRecord(c, result, details)),
    sentences: result.sentences.map((x) => ({
      text: x.text,
      citationKeys: [...x.citationKeys],
      supported: x.supported,
      ...(x.evidence === undefined ? {} : { evidence: x.evidence.map((e) => ({ key: e.key, start: e.start, end: e.end })) }),
      ...(x.role === undefined ? {} : { role: x.role }),
      ...(x.rule === undefined ? {} : { rule: x.rule }),
      ...(x.more === undefined ? {} : { more: x.more }),
    })),
    ...(result.verdict === undefined ? {} : { verdict: result.verdict }),
    ...(result.refusalReason === undefined ? {} : { refusalReason: result.refusalReason }),
    ...(result.model === undefined ? {} : { answeredBy: { id: result.model.id, name: result.model.name } }),
    ...(result.notice === undefined ? {} : { notice: { ...result.notice } }),
    ...(result.subgraph.nodes.length === 0 ? {} : { subgraph: structuredClone(result.subgraph) }),
    ...(details.askedAs === undefined || details.askedAs === question ? {} : { askedAs: details.askedAs }),
    ...(details.conversationId === undefined ? {} : { conversationId: details.conversationId }),
    ...(details.appVersion === undefined ? {} : { appVersion: details.appVersion }),
    model,
    timings: {
      retrieveMs: Math.max(0, result.timings.retrieveMs),
      promptTokens: result.timings.promptTokens,
      firstTokenMs: result.timings.firstTokenMs,
      totalMs: Math.max(0, result.timings.totalMs),
    },
    answer: result.answer,
    analysis: result.analysis ?? null,
    unsupportedSentences: result.sentences.filter((s) => !s.supported).length,
    refused: result.citations.length === 0 && result.sentences.every((s) => s.text === REFUSAL),
  };
}

export interface AnswerLogWriter {
  /** Appends one record and fsyncs it. Records appended concurrently are written one after another. */
  append(record: AnswerLogRecord): Promise<void>;
}

export function createAnswerLogWriter(dataDir: string): AnswerLogWriter {
  const file = answerLogPath(dataDir);
  let queue: Promise<unknown> = Promise.resolve();
  // Checked once per writer: after our own appends the file always ends with a newline.
  let clean: boolean | null = null;

  async function write(record: AnswerLogRecord): Promise<void> {
    // A torn line from a crash is closed off first, so this record is not glued to it.
    await appendLine(file, JSON.stringify(answerLogRecordSchema.parse(record)), clean ?? undefined);
    clean = true;
  }

  return {
    append(record) {
      const next = queue.then(() => write(record));
      queue = next.catch(() => undefined);
      return next.catch((err: unknown) => {
        clean = null; // re-check the file's end next time
        throw new ClauseGraphError("INTERNAL", `The answer log ${file} could not be written: ${err instanceof Error ? err.message : String(err)}`, {
          file,
          cause: err,
        });
      });
    },
  };
}

export interface ReadAnswerLogOptions {
  /** The most recent records to return (default 100, at most 1000 through the contract). */
  limit?: number;
  /** Only records asked at or after this time. */
  since?: Date | string;
  /** Told about each line that is not a valid record (a torn last line after a crash). */
  onSkipped?: (lineNumber: number) => void;
}

/**
 * The most recent records, oldest first. Lines that do not parse are skipped, never fatal: the only
 * way to get one is a crash in the middle of an append. A missing log is an empty one.
 */
export async function readAnswerLog(dataDir: string, options: ReadAnswerLogOptions = {}): Promise<AnswerLogRecord[]> {
  const limit = Math.max(0, Math.floor(options.limit ?? 100));
  const since = options.since === undefined ? null : new Date(options.since).getTime();
  if (since !== null && Number.isNaN(since)) throw new ClauseGraphError("VALIDATION", `"${String(options.since)}" is not a date`);
  if (limit === 0) return [];
  const kept: AnswerLogRecord[] = [];
  try {
    for await (const record of readJsonLines(answerLogPath(dataDir), answerLogRecordSchema, options.onSkipped)) {
      if (since !== null && Date.parse(record.askedAt) < since) continue;
      kept.push(record);
      // Only the newest `limit` are kept, so a long log is read in bounded memory.
      if (kept.length > limit * 2) kept.splice(0, kept.length - limit);
    }
  } catch (err) {
    throw new ClauseGraphError("FILE_UNREADABLE", `The answer log cannot be read: ${err instanceof Error ? err.message : String(err)}`, {
      file: answerLogPath(dataDir),
      cause: err,
    });
  }
  return kept.slice(-limit);
}

/** The records with these ids, by id (ids not in the log are absent); one pass over the log. */
export async function findAnswerLogRecords(dataDir: string, ids: Iterable<string>): Promise<Map<string, AnswerLogRecord>> {
  const wanted = new Set(ids);
  const found = new Map<string, AnswerLogRecord>();
  if (wanted.size === 0) return found;
  for await (const record of readJsonLines(answerLogPath(dataDir), answerLogRecordSchema)) {
    if (wanted.has(record.id)) found.set(record.id, record);
  }
  return found;
}
