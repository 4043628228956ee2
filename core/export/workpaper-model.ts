import { citedFileName, documentIdOfSection, type LibraryDocuments } from "../answer/index.ts";
import type { AnswerLogRecord } from "../model/answer-log-schema.ts";

// An audit workpaper, as data: what the Markdown and the printable HTML both print. Built only
// from answer-log records (plus the library's document records, for names and sha256 the oldest
// records did not store), never from what the UI shows, so exporting the same answers twice gives
// the same bytes and an export can be re-made from the audit trail at any time.

export interface WorkpaperCitation {
  key: string;
  /** "GDPR Art. 33(1)": the citation label without its page. */
  provision: string;
  document: string;
  title: string | null;
  sha256: string | null;
  /** PDF pages, "52" or "52–53". */
  pages: string;
  /** As printed on the page, when it differs ("51"). */
  printedPages: string | null;
  /** The cited sentences, verbatim. */
  quotes: string[];
}

/** A graph answer's rows as the table it showed: one cell per column, and the row's citation key. */
export interface WorkpaperTable {
  columns: string[];
  rows: Array<{ cells: string[]; key: string }>;
}

export interface WorkpaperAnswer {
  /** The answer-log record's id. */
  logId: string;
  askedAt: string;
  question: string;
  /** What was retrieved with, when it differs from the question (a follow-up). */
  askedAs: string | null;
  mode: AnswerLogRecord["mode"];
  /** The model loaded when it was asked (id and GGUF sha256), and the name shown for it. */
  model: AnswerLogRecord["model"];
  modelName: string | null;
  /** The ClauseGraph version that answered (null: not recorded). */
  appVersion: string | null;
  answer: string;
  /** Why quoted or refused, or the model's analysis line; a fallback or cap notice. */
  notes: string[];
  refused: boolean;
  unsupportedSentences: number;
  citations: WorkpaperCitation[];
  /** A graph answer's table (then `answer` is its summary line), or null. */
  table: WorkpaperTable | null;
}

export interface Workpaper {
  kind: "answer" | "conversation";
  /** The conversation's or the answer's id. */
  id: string;
  title: string;
  /** The version exporting (printed once; the same version gives the same bytes). */
  exportedWith: string;
  answers: WorkpaperAnswer[];
  /** Turns whose answer is missing from the log, said in words. */
  gaps: string[];
}

/** "DORA Art. 19(4), pp. 41–43" → "DORA Art. 19(4)". */
export function provisionOf(label: string): string {
  return label.replace(/,?\s*pp?\.\s*[\w–-]+(?:\s*[–-]\s*\w+)?\s*$/u, "").trim() || label;
}

function pageRange(start: number, end: number): string {
  return start === end ? String(start) : `${start}–${end}`;
}

/** A graph answer's sentences are its summary (citing nothing) and one per row: with its table, the summary stands alone. */
function summaryOf(record: AnswerLogRecord): string {
  const summary = (record.sentences ?? []).filter((s) => s.citationKeys.length === 0).map((s) => s.text);
  return summary.length > 0 ? summary.join(" ") : record.answer;
}

export function workpaperAnswer(record: AnswerLogRecord, documents: LibraryDocuments, table: WorkpaperTable | null = null): WorkpaperAnswer {
  return {
    table,
    logId: record.id,
    askedAt: record.askedAt,
    question: record.question,
    askedAs: record.askedAs ?? null,
    mode: record.mode,
    model: record.model,
    modelName: record.answeredBy?.name ?? null,
    appVersion: record.appVersion ?? null,
    answer: table === null ? record.answer : summaryOf(record),
    notes: [...new Set([record.refusalReason, record.notice?.message, record.analysis].filter((n): n is string => n !== undefined && n !== null && n !== ""))],
    refused: record.refused,
    unsupportedSentences: record.unsupportedSentences,
    citations: record.citations.map((c) => {
      const id = c.documentId ?? documentIdOfSection(c.sectionId);
      const known = documents.live.get(id) ?? documents.deleted.get(id);
      const printed = c.printedPages !== undefined && c.printedPages !== pageRange(c.pageStart, c.pageEnd) ? c.printedPages : null;
      return {
        key: c.key,
        provision: provisionOf(c.label),
        document: citedFileName(c, documents),
        title: known?.title ?? null,
        sha256: c.documentSha256 ?? known?.sha256 ?? null,
        pages: pageRange(c.pageStart, c.pageEnd),
        printedPages: printed,
        quotes: c.quotes ?? [],
      };
    }),
  };
}

/** "2026-11-25T06:01:02.123Z" → "2026-11-25 06:01:02 UTC": one time zone, so the bytes do not depend on the machine. */
export function utcTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** `clausegraph-conversation-20261125-1a2b3c4d.md` */
export function workpaperFileName(paper: Workpaper, extension: string): string {
  const date = (paper.answers[0]?.askedAt ?? "").slice(0, 10).replace(/-/g, "");
  const id = paper.id.replace(/[^A-Za-z0-9]/g, "").slice(0, 8);
  return `clausegraph-${paper.kind}-${date === "" ? "empty" : date}-${id}.${extension}`;
}

export const MODE_TEXT: Record<AnswerLogRecord["mode"], string> = {
  extractive: "Extractive: sentences quoted from the documents, no language model",
  llm: "LLM: written by a local language model from the cited sections, each sentence verified against them",
};
