import { readFile, rm } from "node:fs/promises";
import type { DeleteResult, DocumentSource } from "../model/engine-types.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import { aliasEdit } from "../model/document-names.ts";
import { ClauseGraphError, toErrorInfo } from "../model/errors.ts";
import { sourcePath } from "../pipeline/source-file.ts";
import { recordDeletedDocument } from "../store/deleted-documents.ts";
import { removeSourceRecord, writeSourceRecord } from "../store/source-record.ts";
import { resolveDocument, type EngineContext } from "./context.ts";

/** Removes a document, its kept copy and its record; past answers citing it say so when reopened. */
export function deleteDocument(ctx: EngineContext, idOrFile: string): Promise<DeleteResult> {
  return ctx.serialize(async () => {
    const doc = await resolveDocument(ctx, idOrFile);
    if (!doc) return { deleted: false, documentId: null, file: null };
    const deleted = await ctx.store.deleteDocument(doc.id);
    if (deleted) {
      ctx.searchIndex.markStale();
      await rm(sourcePath(ctx.dataDir, doc.id, doc.fileName), { force: true });
      await removeSourceRecord(ctx.dataDir, doc.id);
      await recordDeletedDocument(ctx.dataDir, doc).catch((err: unknown) => ctx.log(`deletion of ${doc.fileName} not recorded: ${toErrorInfo(err).message}`));
    }
    return { deleted, documentId: doc.id, file: doc.file };
  });
}

/** The names a user gave a document ("the resilience act"), kept in the library and beside its copy. */
export function setDocumentAliases(ctx: EngineContext, idOrFile: string, aliases: readonly string[]): Promise<DocumentRecord> {
  return ctx.serialize(async () => {
    const doc = await resolveDocument(ctx, idOrFile);
    if (!doc) throw new ClauseGraphError("NOT_FOUND", `No document matches ${idOrFile}`);
    const updated = await ctx.store.setUserAliases(doc.id, aliasEdit(doc, aliases));
    // Beside the kept copy too: a rebuild of a library that lost this document keeps its names.
    await writeSourceRecord(ctx.dataDir, updated).catch((err: unknown) =>
      ctx.log(`aliases of ${doc.id} not kept beside its copy: ${toErrorInfo(err).message}`),
    );
    return updated;
  });
}

/** The document's original bytes for the viewer: the kept copy, else the file it was imported from. */
export async function documentSource(ctx: EngineContext, documentId: string): Promise<DocumentSource> {
  const doc = await ctx.store.getDocument(documentId);
  if (!doc) throw new ClauseGraphError("NOT_FOUND", `No document with id ${documentId}`);
  const bytes = await readFile(sourcePath(ctx.dataDir, doc.id, doc.fileName))
    .catch(() => readFile(doc.file))
    .catch((err: unknown) => {
      throw new ClauseGraphError("NOT_FOUND", `The original file of ${doc.fileName} is no longer available`, { file: doc.file, cause: err });
    });
  return { documentId: doc.id, fileName: doc.fileName, format: doc.format, bytes: new Uint8Array(bytes) };
}
