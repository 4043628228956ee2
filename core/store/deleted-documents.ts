import path from "node:path";
import { z } from "zod";
import { appendLine, readJsonLines } from "../files/json-lines.ts";
import type { DocumentRecord } from "../model/store-records.ts";

// Which documents were deleted from the library, and when: `<dataDir>/deleted-documents.jsonl`,
// appended (fsynced) by every delete. Answers in the answer log and in conversations keep citing
// them, and a reopened answer says in words which file it cites and since when it is gone
// ("…cites GDPR.pdf, which was deleted from the library on 2026-11-25"), never a bare id.

export const DELETED_DOCUMENTS_FILE = "deleted-documents.jsonl";

const deletedDocumentSchema = z.object({
  documentId: z.string(),
  fileName: z.string(),
  title: z.string(),
  sha256: z.string(),
  deletedAt: z.iso.datetime(),
});
export type DeletedDocument = z.infer<typeof deletedDocumentSchema>;

export function deletedDocumentsPath(dataDir: string): string {
  return path.join(dataDir, DELETED_DOCUMENTS_FILE);
}

export async function recordDeletedDocument(dataDir: string, doc: DocumentRecord, now: Date = new Date()): Promise<void> {
  const line: DeletedDocument = { documentId: doc.id, fileName: doc.fileName, title: doc.title, sha256: doc.sha256, deletedAt: now.toISOString() };
  await appendLine(deletedDocumentsPath(dataDir), JSON.stringify(line));
}

/** The latest deletion of each document id (a document can be imported and deleted again). */
export async function readDeletedDocuments(dataDir: string): Promise<Map<string, DeletedDocument>> {
  const out = new Map<string, DeletedDocument>();
  for await (const record of readJsonLines(deletedDocumentsPath(dataDir), deletedDocumentSchema)) out.set(record.documentId, record);
  return out;
}
