import type { DerivedGraph } from "../../../model/graph-records.ts";
import type { DocumentRecord, LlmTripletWrite } from "../../../model/store-records.ts";
import { chunks } from "../batches.ts";
import { deleteNodesWithEdges } from "../delete-nodes.ts";
import { anchorSurvivingEdges } from "../rel-checkpoint-guard.ts";
import type { Params } from "../session.ts";
import { DEADLINE_TABLE, TRIPLET_VECTORS } from "../schema.ts";
import { deadlineRow, entityRow, referenceRow, termRow, tripletRow } from "../store-rows.ts";
import { deleteVectors } from "./vectors.ts";
import type { WriteContext } from "./write-context.ts";

// Writes of a document's graph: citations (Reference, CITES, REFERS_TO), defined terms (DEFINED_IN,
// MENTIONS), rule triplets with their entities (STATED_IN, HAS_SUBJECT/OBJECT/RECIPIENT), deadlines
// (SETS_DEADLINE), and the replacement of its LLM triplets.

/** Inside the document's transaction (writers/documents.ts writeDocument). */
export async function writeGraph(ctx: WriteContext, doc: DocumentRecord, derived: DerivedGraph): Promise<void> {
  const { session, fault, batchSize } = ctx;
  const references = derived.crossReferences.map(referenceRow);
  for (const batch of chunks(references, batchSize)) {
    await session.run(
      `UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.fromSectionId
       CREATE (s)-[:CITES]->(:Reference {id: r.id, documentId: r.documentId, fromSectionId: r.fromSectionId,
         toSectionId: r.toSectionId, toDocumentId: r.toDocumentId, raw: r.raw, label: r.label,
         pinpoint: r.pinpoint, instrument: r.instrument, spanStart: r.spanStart, spanEnd: r.spanEnd,
         resolved: r.resolved})`,
      { rows: batch, documentId: doc.id },
    );
  }
  fault("references");
  // Section ids start with their document's id: knowing the target's document lets Kuzu narrow
  // both ends before the id match, as for the structure edges.
  const resolved = references.filter((r) => r.toSectionId !== "").map((r): Params => ({ ...r, targetDocumentId: String(r.toSectionId).split(":")[0] ?? "" }));
  for (const batch of chunks(resolved, batchSize)) {
    await session.run(
      `UNWIND $rows AS r MATCH (a:Section), (b:Section)
       WHERE a.documentId = $documentId AND a.id = r.fromSectionId AND b.documentId = r.targetDocumentId AND b.id = r.toSectionId
       CREATE (a)-[:REFERS_TO {referenceId: r.id, raw: r.raw, pinpoint: r.pinpoint, spanStart: r.spanStart, spanEnd: r.spanEnd}]->(b)`,
      { rows: batch, documentId: doc.id },
    );
  }
  fault("refers-to");
  for (const batch of chunks(derived.terms.map(termRow), batchSize)) {
    await session.run(
      `UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.sectionId
       CREATE (:Term {id: r.id, documentId: r.documentId, term: r.term, normalizedTerm: r.normalizedTerm,
         definition: r.definition, sectionId: r.sectionId, spanStart: r.spanStart, spanEnd: r.spanEnd})-[:DEFINED_IN]->(s)`,
      { rows: batch, documentId: doc.id },
    );
  }
  const mentions = derived.terms.flatMap((t) => t.mentionedIn.map((sectionId): Params => ({ term: t.id, section: sectionId })));
  for (const batch of chunks(mentions, batchSize)) {
    await session.run(
      `UNWIND $rows AS r MATCH (s:Section), (t:Term)
       WHERE s.documentId = $documentId AND s.id = r.section AND t.documentId = $documentId AND t.id = r.term
       CREATE (s)-[:MENTIONS]->(t)`,
      { rows: batch, documentId: doc.id },
    );
  }
  fault("terms");
  for (const batch of chunks(derived.entities.map(entityRow), batchSize)) {
    await session.run("UNWIND $rows AS r CREATE (:Entity {id: r.id, documentId: r.documentId, key: r.key, name: r.name, type: r.type, party: r.party})", {
      rows: batch,
    });
  }
  for (const batch of chunks(derived.triplets.map(tripletRow), batchSize)) {
    await session.run(
      `UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.sectionId
       CREATE (:Triplet {id: r.id, documentId: r.documentId, sectionId: r.sectionId, subjectId: r.subjectId,
         subject: r.subject, predicate: r.predicate, objectId: r.objectId, object: r.object, recipientId: r.recipientId,
         recipient: r.recipient, modality: r.modality, deadline: r.deadline, source: r.source, confidence: r.confidence,
         spanStart: r.spanStart, spanEnd: r.spanEnd, evidence: r.evidence})-[:STATED_IN]->(s)`,
      { rows: batch, documentId: doc.id },
    );
  }
  for (const [rel, field] of [
    ["HAS_SUBJECT", "subjectId"],
    ["HAS_OBJECT", "objectId"],
    ["HAS_RECIPIENT", "recipientId"],
  ] as const) {
    const links = derived.triplets.flatMap((t): Params[] => ((t[field] ?? "") === "" ? [] : [{ triplet: t.id, entity: t[field] ?? "" }]));
    for (const batch of chunks(links, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (t:Triplet), (e:Entity)
         WHERE t.documentId = $documentId AND e.documentId = $documentId AND t.id = r.triplet AND e.id = r.entity
         CREATE (t)-[:${rel}]->(e)`,
        { rows: batch, documentId: doc.id },
      );
    }
  }
  fault("triplets");
  for (const batch of chunks((derived.deadlines ?? []).map(deadlineRow), batchSize)) {
    await session.run(
      `UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.sectionId
       CREATE (s)-[:SETS_DEADLINE]->(:${DEADLINE_TABLE} {id: r.id, documentId: r.documentId, sectionId: r.sectionId, text: r.text,
         sentence: r.sentence, spanStart: r.spanStart, spanEnd: r.spanEnd})`,
      { rows: batch, documentId: doc.id },
    );
  }
  fault("deadlines");
}

/**
 * Replaces a document's LLM triplets (rule triplets are never touched) in one transaction, then,
 * when some were replaced, anchors the surviving edges in a transaction of its own: Kuzu replays a
 * transaction that both re-creates an edge and creates nodes wrongly after a crash
 * (rel-checkpoint-guard.ts). The new triplets' vectors follow (the store, hnsw-commit-guard.ts);
 * until then the document counts as not embedded when `withVectors`. Returns how many were replaced.
 */
export async function replaceLlmTripletRows(
  ctx: WriteContext,
  documentId: string,
  write: LlmTripletWrite,
  options: { withVectors: boolean; tripletVectorTable: boolean },
): Promise<number> {
  const { session, fault, batchSize } = ctx;
  let replaced = 0;
  await session.transaction(async () => {
    const old = await session.run("MATCH (t:Triplet) WHERE t.documentId = $documentId AND t.source = 'llm' RETURN t.id AS id", { documentId });
    replaced = old.length;
    if (options.tripletVectorTable && old.length > 0) {
      for (const batch of chunks(
        old.map((r) => String(r.id)),
        batchSize,
      )) {
        await deleteVectors(session, TRIPLET_VECTORS, "v.documentId = $documentId AND list_contains($ids, v.id)", { documentId, ids: batch });
      }
    }
    await deleteNodesWithEdges(
      session,
      await ctx.relConnections(),
      { table: "Triplet", where: "n.documentId = $documentId AND n.source = 'llm'" },
      { documentId },
    );
    // Entities only the previous LLM triplets used; rule entities always keep a triplet.
    await session.run(
      "MATCH (e:Entity) WHERE e.documentId = $documentId AND NOT EXISTS { MATCH (e)<-[:HAS_SUBJECT|:HAS_OBJECT|:HAS_RECIPIENT]-(:Triplet) } DELETE e",
      {
        documentId,
      },
    );
    fault("llm:deleted");
    for (const batch of chunks(write.entities.map(entityRow), batchSize)) {
      await session.run(
        "UNWIND $rows AS r MERGE (e:Entity {id: r.id}) ON CREATE SET e.documentId = r.documentId, e.key = r.key, e.name = r.name, e.type = r.type, e.party = r.party",
        { rows: batch },
      );
    }
    for (const batch of chunks(write.triplets.map(tripletRow), batchSize)) {
      await session.run(
        `UNWIND $rows AS r CREATE (:Triplet {id: r.id, documentId: r.documentId, sectionId: r.sectionId, subjectId: r.subjectId,
           subject: r.subject, predicate: r.predicate, objectId: r.objectId, object: r.object, recipientId: r.recipientId,
           recipient: r.recipient, modality: r.modality,
           deadline: r.deadline, source: r.source, confidence: r.confidence, spanStart: r.spanStart,
           spanEnd: r.spanEnd, evidence: r.evidence})`,
        { rows: batch },
      );
    }
    fault("llm:triplets");
    const stated = write.statedIn.map((x): Params => ({
      triplet: x.tripletId,
      section: x.sectionId,
      sectionDocumentId: x.sectionId.split(":")[0] ?? "",
      spanStart: x.start,
      spanEnd: x.end,
    }));
    for (const batch of chunks(stated, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (t:Triplet), (s:Section)
         WHERE t.documentId = $documentId AND t.id = r.triplet AND s.documentId = r.sectionDocumentId AND s.id = r.section
         CREATE (t)-[:STATED_IN {spanStart: r.spanStart, spanEnd: r.spanEnd}]->(s)`,
        { rows: batch, documentId },
      );
    }
    for (const [rel, field] of [
      ["HAS_SUBJECT", "subjectId"],
      ["HAS_OBJECT", "objectId"],
    ] as const) {
      const links = write.triplets.filter((t) => t[field] !== "").map((t): Params => ({ triplet: t.id, entity: t[field] }));
      for (const batch of chunks(links, batchSize)) {
        await session.run(
          `UNWIND $rows AS r MATCH (t:Triplet), (e:Entity)
           WHERE t.documentId = $documentId AND e.documentId = $documentId AND t.id = r.triplet AND e.id = r.entity
           CREATE (t)-[:${rel}]->(e)`,
          { rows: batch, documentId },
        );
      }
    }
    fault("llm:links");
    // Not embedded until the new triplets' vectors are in (their own transaction, after this one).
    if (options.withVectors) await session.run("MATCH (d:Document) WHERE d.id = $id SET d.embeddedWith = ''", { id: documentId });
  });
  if (replaced > 0) await session.transaction(async () => void (await anchorSurvivingEdges(session, await ctx.relConnections())));
  return replaced;
}
