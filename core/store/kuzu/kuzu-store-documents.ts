import { ClauseGraphError, toErrorInfo } from "../../model/errors.ts";
import type { GraphStore } from "../graph-store.ts";
import { validateDerived, validateEntities, validateInsert } from "../validate-insert.ts";
import type { StoreCore } from "./kuzu-store-core.ts";
import type { StoreLibrary } from "./kuzu-store-library.ts";
import type { StoreSearch } from "./kuzu-store-search.ts";
import { findDocument } from "./readers/documents.ts";
import { readSpace, tableNames } from "./readers/metadata.ts";
import { SECTION_VECTORS, TRIPLET_VECTORS, VECTOR_TABLES } from "./schema.ts";
import { toStoreError } from "./store-errors.ts";
import { removeDocumentRows, verifyCommitted, writeDocument, writeUserAliases } from "./writers/documents.ts";
import { writeExtractionCache } from "./writers/extraction-cache.ts";
import { replaceLlmTripletRows } from "./writers/graph.ts";
import { deleteVectors, storeVectors, switchEmbeddingSpace, type VectorTableWrite } from "./writers/vectors.ts";

// The Kuzu store's writes of documents and what is derived from them: a document with its
// sections and graph, its names, its vectors and the embedding space, its LLM triplets and the
// extraction cache. Each runs in the write lane, after the store's checks (beforeWrite), and
// checkpoints when it wrote rows.

type DocumentMethods = Pick<
  GraphStore,
  "setUserAliases" | "insertDocument" | "deleteDocument" | "useEmbeddingSpace" | "putEmbeddings" | "putExtractionCache" | "replaceLlmTriplets"
>;

export function createStoreDocuments(core: StoreCore, search: Pick<StoreSearch, "markStale">, library: Pick<StoreLibrary, "withPoolGrowth">): DocumentMethods {
  const { dbPath, lanes, vectors, opened, context, beforeWrite, checkpoint, ddl, read, log } = core;
  return {
    setUserAliases: (id, edit) =>
      lanes.write(async () => {
        const { writer } = opened();
        await beforeWrite("changing a document's names");
        if (!(await findDocument(writer, "id", id))) throw new ClauseGraphError("NOT_FOUND", `No document with id ${id}`);
        await writeUserAliases(context(), id, edit);
        await checkpoint();
        const updated = await findDocument(writer, "id", id);
        if (!updated) throw new ClauseGraphError("NOT_FOUND", `No document with id ${id}`);
        return updated;
      }),

    insertDocument: (doc, sections, derived) =>
      library.withPoolGrowth(
        `storing ${doc.fileName}`,
        async () => (await read(({ reader }) => findDocument(reader, "id", doc.id))) !== null,
        () => insertNow(core, search, doc, sections, derived),
        sections.reduce((sum, s) => sum + s.text.length, 0),
      ),

    deleteDocument: (id) =>
      lanes.write(async () => {
        const ctx = context();
        const doc = await findDocument(ctx.session, "id", id);
        if (!doc) return false;
        await beforeWrite(`deleting ${doc.fileName}`);
        const started = Date.now();
        search.markStale();
        // Deleted vectors stay in the HNSW graph: the next refresh checks for wear (vector-compaction.ts).
        vectors.indexesStale();
        try {
          await removeDocumentRows(ctx, id);
        } finally {
          vectors.changed({ documentId: id, dropped: true });
        }
        await checkpoint();
        log(`deleted ${doc.fileName} in ${Date.now() - started} ms`);
        return true;
      }),

    useEmbeddingSpace: (space) =>
      lanes.write(async () => {
        const { writer } = opened();
        const current = await readSpace(writer);
        const tables = await tableNames(writer);
        const complete = VECTOR_TABLES.every((spec) => tables.has(spec.table));
        if (current !== null && current.modelId === space.modelId && current.dimensions === space.dimensions && complete) return { changed: false };
        await beforeWrite(`switching the library to the embedding model ${space.modelId}`);
        await ddl(() => switchEmbeddingSpace(writer, space));
        vectors.forget();
        log(`embedding space set to ${space.modelId} (${space.dimensions} dimensions)${current ? ` (was ${current.modelId})` : ""}`);
        return { changed: current !== null };
      }),

    putEmbeddings: (documentId, sections, triplets) =>
      lanes.write(async () => {
        const ctx = context();
        const space = await readSpace(ctx.session);
        if (space === null) throw new ClauseGraphError("INTERNAL", "vectors were given before an embedding model was chosen (useEmbeddingSpace)");
        await beforeWrite(`storing the vectors of ${documentId}`);
        const tripletSection = new Map<string, string>();
        const rows = await ctx.session.run("MATCH (t:Triplet) WHERE t.documentId = $documentId RETURN t.id AS id, t.sectionId AS sectionId", { documentId });
        for (const r of rows) tripletSection.set(String(r.id), String(r.sectionId));
        try {
          await ctx.session.transaction(async () => {
            // An interrupted earlier run may have stored part of them: start this document afresh.
            for (const spec of VECTOR_TABLES) await deleteVectors(ctx.session, spec, "v.documentId = $documentId", { documentId });
            await ctx.session.run("MATCH (d:Document) WHERE d.id = $id SET d.embeddedWith = ''", { id: documentId });
          });
          vectors.changed({ documentId, dropped: true });
          const tablesWritten: VectorTableWrite[] = [
            { spec: SECTION_VECTORS, vectors: sections, sectionOf: (id) => id },
            { spec: TRIPLET_VECTORS, vectors: triplets, sectionOf: (id) => tripletSection.get(id) ?? "" },
          ];
          vectors.changed({ documentId, added: await storeVectors(ctx, documentId, space, tablesWritten) });
          await checkpoint();
        } catch (err) {
          vectors.changed({ documentId, reload: true });
          throw toStoreError(err, dbPath, `storing vectors of ${documentId}`);
        }
      }),

    putExtractionCache: (entry) =>
      lanes.write(async () => {
        await beforeWrite("saving an extraction result");
        await writeExtractionCache(opened().writer, entry, new Date().toISOString());
      }),

    replaceLlmTriplets: (documentId, write) =>
      lanes.write(async () => {
        const ctx = context();
        if (!(await findDocument(ctx.session, "id", documentId))) throw new ClauseGraphError("NOT_FOUND", `No document with id ${documentId}`);
        await beforeWrite(`storing the LLM triplets of ${documentId}`);
        for (const t of write.triplets) {
          if (t.source !== "llm" || t.documentId !== documentId || !t.id.startsWith(`${documentId}:`)) {
            throw new ClauseGraphError("VALIDATION", `triplet ${t.id} is not an LLM triplet of document ${documentId}`);
          }
        }
        validateEntities(`the LLM triplets of ${documentId}`, write.entities, write.triplets);
        const space = await readSpace(ctx.session);
        const tables = await tableNames(ctx.session);
        const withVectors = space !== null && write.embeddingModel === space.modelId && tables.has(TRIPLET_VECTORS.table);
        vectors.indexesStale();
        try {
          await replaceLlmTripletRows(ctx, documentId, write, { withVectors, tripletVectorTable: tables.has(TRIPLET_VECTORS.table) });
          if (withVectors) {
            const tripletSection = new Map(write.triplets.map((t) => [t.id, t.sectionId]));
            // New rows only: a property under a vector index cannot be SET.
            await storeVectors(ctx, documentId, space, [
              { spec: TRIPLET_VECTORS, vectors: write.tripletEmbeddings, sectionOf: (id) => tripletSection.get(id) ?? "" },
            ]);
          }
          await checkpoint();
        } catch (err) {
          throw toStoreError(err, dbPath, `storing the LLM triplets of ${documentId}`);
        } finally {
          // Some of the document's triplet vectors went, others came: the mirrors are read again.
          vectors.changed({ documentId, reload: true });
        }
        return { triplets: write.triplets.length, entities: write.entities.length };
      }),
  };
}

/** Stores one document in one transaction (GraphStore.insertDocument), in the write lane. */
function insertNow(
  core: StoreCore,
  search: Pick<StoreSearch, "markStale">,
  doc: Parameters<GraphStore["insertDocument"]>[0],
  sections: Parameters<GraphStore["insertDocument"]>[1],
  derived: Parameters<GraphStore["insertDocument"]>[2],
): Promise<void> {
  const { dbPath, lanes, vectors, context, beforeWrite, checkpoint, fault, log } = core;
  return lanes.write(async () => {
    const ctx = context();
    validateInsert(doc, sections);
    if (derived !== undefined) validateDerived(doc, derived);
    await beforeWrite(`storing ${doc.fileName}`);
    if (await findDocument(ctx.session, "id", doc.id)) {
      throw new ClauseGraphError("VALIDATION", `document ${doc.id} is already in the database`, { file: doc.file });
    }
    const started = Date.now();
    search.markStale();
    const withVectors = derived !== undefined && (derived.sectionEmbeddings.size > 0 || derived.tripletEmbeddings.size > 0);
    const space = withVectors ? await readSpace(ctx.session) : null;
    if (withVectors && space === null) throw new ClauseGraphError("INTERNAL", "vectors were given before an embedding model was chosen (useEmbeddingSpace)");
    try {
      await ctx.session.transaction(() => writeDocument(ctx, doc, sections, derived));
      // A commit that loses rows is a Kuzu bug (hnsw-commit-guard.ts); should another one
      // appear, the import fails here instead of reporting "ok" for a document that is gone.
      await verifyCommitted(ctx, doc, sections.length);
      if (derived && space) {
        const tripletSection = new Map(derived.triplets.map((t) => [t.id, t.sectionId]));
        try {
          const added = await storeVectors(ctx, doc.id, space, [
            { spec: SECTION_VECTORS, vectors: derived.sectionEmbeddings, sectionOf: (id) => id },
            { spec: TRIPLET_VECTORS, vectors: derived.tripletEmbeddings, sectionOf: (id) => tripletSection.get(id) ?? "" },
          ]);
          vectors.changed({ documentId: doc.id, added });
          fault("embeddings");
        } catch (err) {
          // The vectors are written after the graph (hnsw-commit-guard.ts); a failure there
          // takes the document out again, so a failed import leaves the library as it was.
          // (A crash there instead leaves the document without vectors, re-embedded at the next start.)
          vectors.changed({ documentId: doc.id, dropped: true });
          await removeDocumentRows(ctx, doc.id).catch((cleanup: unknown) =>
            log(`could not remove ${doc.id} after a failed vector write: ${toErrorInfo(cleanup).message}`),
          );
          throw err;
        }
      }
      await checkpoint();
    } catch (err) {
      throw toStoreError(err, dbPath, `storing ${doc.fileName}`);
    }
    log(`stored ${doc.fileName}: ${sections.length} sections in ${Date.now() - started} ms`);
  });
}
