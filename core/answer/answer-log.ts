import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { ClauseGraphError } from "../errors.ts";
import type { AskResult } from "./answer-types.ts";
import { REFUSAL } from "./answer-types.ts";
import { ANSWER_LOG_VERSION, type AnswerLogRecord, answerLogRecordSchema } from "./answer-log-schema.ts";

// The answer log of a database: `<dataDir>/answer-log.jsonl`, one JSON record a line, only ever
// appended. Each record is written with one write() on a file opened for appending and fsynced
// before ask() returns, so an answer the auditor saw is on disk. A crash can at worst leave the
// last line torn; readers skip it and the next append starts on a fresh line. It lives beside the
// Kuzu database rather than in it: an audit trail must survive a schema migration or a re-import.

export const ANSWER_LOG_FILE = "answer-log.jsonl";

export function answerLogPath(dataDir: string): string {
  return path.join(dataDir, ANSWER_LOG_FILE);
}

export interface AnswerLogModel {
  id: string;
  sha256: string | null;
}

/** The record for one answer. */
export function answerLogRecord(
  question: string,
  evidenceSectionIds: readonly string[],
  result: AskResult,
  model: AnswerLogModel | null,
  now: Date = new Date(),
): AnswerLogRecord {
  return {
    version: ANSWER_LOG_VERSION,
    id: randomUUID(),
    askedAt: now.toISOString(),
    question,
    mode: result.mode,
    evidenceSectionIds: [...evidenceSectionIds],
    citedSectionIds: [...new Set(result.citations.map((c) => c.sectionId))],
    citations: result.citations.map((c) => ({ key: c.key, sectionId: c.sectionId, label: c.label, pageStart: c.pageStart, pageEnd: c.pageEnd })),
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

/** Whether the file is missing, empty or ends with a newline (else the last line is torn). */
async function endsCleanly(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw err;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

export function createAnswerLogWriter(dataDir: string): AnswerLogWriter {
  const file = answerLogPath(dataDir);
  let queue: Promise<unknown> = Promise.resolve();
  // Checked once per writer: after our own appends the file always ends with a newline.
  let clean: boolean | null = null;

  async function write(record: AnswerLogRecord): Promise<void> {
    const line = `${JSON.stringify(answerLogRecordSchema.parse(record))}\n`;
    await mkdir(path.dirname(file), { recursive: true });
    clean ??= await endsCleanly(file);
    const handle = await open(file, "a", 0o600);
    try {
      // A torn line from a crash is closed off, so this record is not glued to it.
      await handle.write(clean ? line : `\n${line}`);
      await handle.sync();
      clean = true;
    } finally {
      await handle.close();
    }
  }

  return {
    append(record) {
      const next = queue.then(() => write(record));
      queue = next.catch(() => undefined);
      return next.catch((err: unknown) => {
        clean = null; // re-check the file's end next time
        throw new ClauseGraphError("INTERNAL", `The answer log ${file} could not be written: ${err instanceof Error ? err.message : String(err)}`, { file, cause: err });
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
  const stream = createReadStream(answerLogPath(dataDir), { encoding: "utf8" });
  const kept: AnswerLogRecord[] = [];
  try {
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    let n = 0;
    for await (const line of lines) {
      n++;
      if (line.trim() === "") continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        options.onSkipped?.(n);
        continue;
      }
      const record = answerLogRecordSchema.safeParse(parsed);
      if (!record.success) {
        options.onSkipped?.(n);
        continue;
      }
      if (since !== null && Date.parse(record.data.askedAt) < since) continue;
      kept.push(record.data);
      // Only the newest `limit` are kept, so a long log is read in bounded memory.
      if (kept.length > limit * 2) kept.splice(0, kept.length - limit);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new ClauseGraphError("FILE_UNREADABLE", `The answer log cannot be read: ${err instanceof Error ? err.message : String(err)}`, {
      file: answerLogPath(dataDir),
      cause: err,
    });
  } finally {
    stream.destroy();
  }
  return kept.slice(-limit);
}

