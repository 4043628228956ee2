import { ClauseGraphError, toErrorInfo } from "../../../model/errors.ts";
import type { DerivedGraph } from "../../../model/graph-records.ts";
import type { Section } from "../../../model/section-types.ts";
import type { DocumentRecord } from "../../../model/store-records.ts";
import { chunks } from "../batches.ts";
import { deleteNodesWithEdges } from "../delete-nodes.ts";
import { findDocument } from "../readers/documents.ts";
import { tableNames } from "../readers/metadata.ts";
import { anchorSurvivingEdges } from "../rel-checkpoint-guard.ts";
import type { Params } from "../session.ts";
import { DOCUMENT_CASCADE, VECTOR_TABLES } from "../schema.ts";
import { documentParams, sectionRow } from "../store-rows.ts";
import { writeGraph } from "./graph.ts";
import { deleteVectors } from "./vectors.ts";
import type { WriteContext } from "./write-context.ts";

// Writes of documents: a document with its sections and structure (one transaction, with its
// graph: writers/graph.ts), its removal with everything derived from it, the user's alias edits.

/** Inside the caller's transaction: the document, its sections, PART_OF / NEXT, then its graph. */
export async function writeDocument(ctx: WriteContext, doc: DocumentRecord, sections: readonly Section[], derived?: DerivedGraph): Promise<void> {
  const { session, fault, batchSize } = ctx;
  fault("begin");
  await session.run(
    `CREATE (:Document {id: $id, sha256: $sha256, file: $file, fileName: $fileName, title: $title,
       format: $format, language: $language, pages: $pages, bytes: $bytes, sections: $sections,
       importedAt: $importedAt})`,
    documentParams(doc),
  );
  // Lists by a statement of their own, cast: Kuzu types a bare `[]` parameter as STRING.
  if ((doc.aliases?.length ?? 0) + (doc.userAliases?.length ?? 0) + (doc.hiddenAliases?.length ?? 0) > 0) {
    await session.run(
      `MATCH (d:Document) WHERE d.id = $id SET d.aliases = CAST($aliases AS STRING[]),
         d.userAliases = CAST($userAliases AS STRING[]), d.hiddenAliases = CAST($hiddenAliases AS STRING[])`,
      { id: doc.id, aliases: doc.aliases ?? [], userAliases: doc.userAliases ?? [], hiddenAliases: doc.hiddenAliases ?? [] },
    );
  }
  // Only scanned documents carry an OCR summary (schema v6); a statement of its own, as for the aliases.
  if (doc.ocr !== undefined) {
    await session.run("MATCH (d:Document) WHERE d.id = $id SET d.ocr = $ocr", { id: doc.id, ocr: JSON.stringify(doc.ocr) });
  }
  fault("document");
  for (const [i, batch] of chunks(sections, batchSize).entries()) {
    await session.run(
      `UNWIND $rows AS r MATCH (d:Document) WHERE d.id = $documentId
       CREATE (s:Section {id: r.id, documentId: r.documentId, ordinal: r.ordinal, kind: r.kind,
         label: r.label, heading: r.heading, parentId: r.parentId, level: r.level, text: r.text,
         pageStart: r.pageStart, pageEnd: r.pageEnd, spans: r.spans, numberTerms: r.numberTerms})
         -[:IN_DOCUMENT]->(d)`,
      { rows: batch.map(sectionRow), documentId: doc.id },
    );
    fault(`sections:${i}`);
  }
  const withPath = sections.filter((s) => s.path.length > 0).map((s): Params => ({ id: s.id, path: s.path }));
  for (const batch of chunks(withPath, batchSize)) {
    await session.run("UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.id SET s.path = r.path", {
      rows: batch,
      documentId: doc.id,
    });
  }
  fault("paths");
  // Edges between this document's sections: matching `{id: r.child}` from an UNWIND row is
  // planned as a join over the whole Section table (seconds in a large library); the
  // documentId filter narrows it to this document first.
  const parents = sections.flatMap((s): Params[] => (s.parentId === null ? [] : [{ child: s.id, parent: s.parentId }]));
  for (const batch of chunks(parents, batchSize)) {
    await session.run(
      `UNWIND $rows AS r MATCH (c:Section), (p:Section)
       WHERE c.documentId = $documentId AND p.documentId = $documentId AND c.id = r.child AND p.id = r.parent
       CREATE (c)-[:PART_OF]->(p)`,
      { rows: batch, documentId: doc.id },
    );
  }
  fault("part-of");
  const ordered = [...sections].sort((a, b) => a.ordinal - b.ordinal);
  const pairs = ordered.slice(1).map((s, i): Params => ({ from: ordered[i]?.id ?? "", to: s.id }));
  for (const batch of chunks(pairs, batchSize)) {
    await session.run(
      `UNWIND $rows AS r MATCH (a:Section), (b:Section)
       WHERE a.documentId = $documentId AND b.documentId = $documentId AND a.id = r.from AND b.id = r.to
       CREATE (a)-[:NEXT]->(b)`,
      { rows: batch, documentId: doc.id },
    );
  }
  fault("next");
  if (derived) await writeGraph(ctx, doc, derived);
}

/**
 * Reads back what a document's transaction committed: the document and every section linked to
 * it. When they are missing, whatever the commit did keep of it is removed and the write fails
 * with DB_ERROR, so an import never reports "ok" for a document the library does not have.
 */
export async function verifyCommitted(ctx: WriteContext, doc: DocumentRecord, sectionCount: number): Promise<void> {
  const { session } = ctx;
  const [row] = await session.run("MATCH (d:Document) WHERE d.id = $id OPTIONAL MATCH (s:Section)-[:IN_DOCUMENT]->(d) RETURN count(s) AS n", { id: doc.id });
  const linked = row === undefined ? -1 : Number(row.n);
  const found = (await findDocument(session, "id", doc.id)) !== null;
  if (found && linked === sectionCount) return;
  // Such a commit can leave edges whose ends are gone; the library check reports what this
  // cleanup cannot reach, and a rebuild repairs it (library-rebuild.ts).
  const cleaned = await removeDocumentRows(ctx, doc.id, { danglingEdges: true }).then(
    () => true,
    (err: unknown) => {
      ctx.log(`cleanup after a lost commit failed: ${toErrorInfo(err).message}`);
      return false;
    },
  );
  const kept = found ? `${Math.max(0, linked)} of its ${sectionCount} sections` : "none of it";
  throw new ClauseGraphError(
    "DB_ERROR",
    `${doc.fileName} was not stored: the database kept ${kept} after the commit. ${cleaned ? "What remained of it was removed." : "Repair the library (clausegraph check --repair) before importing it again."}`,
    { file: doc.file },
  );
}

/**
 * Deletes every row of a document (vectors, derived nodes, sections, the document) and anchors the
 * rest (rel-checkpoint-guard.ts), in one transaction that creates no node.
 */
export async function removeDocumentRows(ctx: WriteContext, documentId: string, options: { danglingEdges?: boolean } = {}): Promise<void> {
  const { session } = ctx;
  const tables = await tableNames(session);
  await session.transaction(async () => {
    for (const spec of VECTOR_TABLES) {
      if (tables.has(spec.table)) await deleteVectors(session, spec, "v.documentId = $documentId", { documentId });
    }
    for (const cypher of DOCUMENT_CASCADE.updates) await session.run(cypher, { documentId });
    const connections = await ctx.relConnections();
    // What a lost commit left behind has edges whose other end is gone (a CITES edge into a
    // Reference from a Section that vanished): no MATCH reaches them, so a plain DELETE is
    // refused ("has connected edges"), while DETACH DELETE walks the node's own adjacency. Used
    // for purges only: its write-ahead-log replay is wrong (delete-nodes.ts), which the
    // checkpoint that follows every purge makes harmless unless the process dies in between.
    const detachDangling = options.danglingEdges ?? false;
    for (const deletion of DOCUMENT_CASCADE.deletions) await deleteNodesWithEdges(session, connections, deletion, { documentId }, { detachDangling });
    ctx.fault("delete:cascade");
    await anchorSurvivingEdges(session, connections);
  });
}

/** Replaces the user's alias edits of a document, in a transaction of its own. */
export async function writeUserAliases(ctx: WriteContext, id: string, edit: { userAliases: string[]; hiddenAliases: string[] }): Promise<void> {
  await ctx.session.transaction(async () => {
    await ctx.session.run(
      "MATCH (d:Document) WHERE d.id = $id SET d.userAliases = CAST($userAliases AS STRING[]), d.hiddenAliases = CAST($hiddenAliases AS STRING[])",
      { id, userAliases: edit.userAliases, hiddenAliases: edit.hiddenAliases },
    );
  });
}
