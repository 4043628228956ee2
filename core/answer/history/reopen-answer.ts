import type { DeletedDocument } from "../../store/deleted-documents.ts";
import type { DocumentRecord } from "../../model/store-records.ts";
import type { AnswerLogRecord } from "../../model/answer-log-schema.ts";
import { askResultSchema, askSentenceSchema } from "../../model/answer-schemas.ts";
import type { AskResult } from "../../model/answer-types.ts";
import type { AskCitation } from "../../model/ask-citation.ts";

// A past answer rebuilt from its answer-log record, so a reopened conversation shows exactly what
// was answered: the same sentences, citation keys, labels, pages and highlights. The graph beside
// it is the caller's (it depends on what the library still holds). Citations of documents deleted
// since are kept as they were, and said in words.

export interface LibraryDocuments {
  /** Documents in the library now, by id. */
  live: ReadonlyMap<string, Pick<DocumentRecord, "id" | "fileName" | "title" | "sha256">>;
  /** Documents deleted from it, by id (core/store/deleted-documents.ts). */
  deleted: ReadonlyMap<string, DeletedDocument>;
}

/** Section ids are `<documentId>:<…>`: older records did not store the document id. */
export function documentIdOfSection(sectionId: string): string {
  const colon = sectionId.indexOf(":");
  return colon < 0 ? sectionId : sectionId.slice(0, colon);
}

/** The file name a record's citation names: recorded, else the library's, else the deletion record's. */
export function citedFileName(c: AnswerLogRecord["citations"][number], documents: LibraryDocuments): string {
  const id = c.documentId ?? documentIdOfSection(c.sectionId);
  return c.file ?? documents.live.get(id)?.fileName ?? documents.deleted.get(id)?.fileName ?? "a document no longer in the library";
}

/** A recorded display value, if this version still knows it (the log keeps them as plain strings). */
function known<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function optional<K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}

/** The answer as it was returned (subgraph and triplets empty: the caller draws what the library still has). */
export function reopenedResult(record: AnswerLogRecord, documents: LibraryDocuments): AskResult {
  const citations: AskCitation[] = record.citations.map((c) => ({
    key: c.key,
    sectionId: c.sectionId,
    documentId: c.documentId ?? documentIdOfSection(c.sectionId),
    file: citedFileName(c, documents),
    label: c.label,
    pageStart: c.pageStart,
    pageEnd: c.pageEnd,
    ...(c.printedPages === undefined ? {} : { printedPages: c.printedPages }),
    ...(c.spans === undefined ? {} : { spans: c.spans }),
  }));
  return {
    answer: record.answer,
    mode: record.mode,
    citations,
    // Older records kept only the display text: the view then shows `answer` as it is.
    sentences: (record.sentences ?? []).map((s) => ({
      text: s.text,
      citationKeys: s.citationKeys,
      supported: s.supported,
      ...(s.evidence === undefined ? {} : { evidence: s.evidence }),
      ...optional("role", known(askSentenceSchema.shape.role, s.role)),
      ...optional("rule", known(askSentenceSchema.shape.rule, s.rule)),
      ...(s.more === undefined ? {} : { more: s.more }),
    })),
    triplets: [],
    subgraph: { nodes: [], edges: [] },
    ...(record.analysis === null ? {} : { analysis: record.analysis }),
    ...optional("verdict", known(askResultSchema.shape.verdict, record.verdict)),
    ...optional("refusalReason", record.refusalReason),
    ...optional("model", record.answeredBy),
    ...optional("notice", known(askResultSchema.shape.notice, record.notice)),
    timings: { ...record.timings },
    logId: record.id,
    ...(record.conversationId === undefined ? {} : { conversationId: record.conversationId }),
  };
}

/** "This answer cites GDPR.pdf, which was deleted from the library on 2026-11-25." — one per deleted document. */
export function deletedDocumentNotes(record: AnswerLogRecord, documents: LibraryDocuments): string[] {
  const notes = new Map<string, string>();
  for (const c of record.citations) {
    const id = c.documentId ?? documentIdOfSection(c.sectionId);
    if (documents.live.has(id) || notes.has(id)) continue;
    const name = citedFileName(c, documents);
    const deleted = documents.deleted.get(id);
    notes.set(
      id,
      deleted === undefined
        ? `This answer cites ${name}, which is no longer in the library.`
        : `This answer cites ${name}, which was deleted from the library on ${deleted.deletedAt.slice(0, 10)}.`,
    );
  }
  return [...notes.values()];
}
