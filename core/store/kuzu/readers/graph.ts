import type { CrossReferenceRecord, TermRecord, TripletRecord } from "../../../model/graph-records.ts";
import type { KuzuSession } from "../session.ts";
import { referenceFromNode, termFromNode, tripletFromNode } from "../store-rows.ts";
import { documentsOf } from "./documents.ts";

// Reads of a document's graph: citations, defined terms, triplets and their entities.

/** Most rows a limited read returns. */
export const MAX_K = 1000;

export async function crossReferences(session: KuzuSession, sectionIds: readonly string[]): Promise<CrossReferenceRecord[]> {
  if (sectionIds.length === 0) return [];
  const rows = await session.run(
    `MATCH (r:Reference) WHERE list_contains($ids, r.fromSectionId) OR list_contains($ids, r.toSectionId)
     RETURN r ORDER BY r.fromSectionId, r.spanStart, r.id`,
    { ids: [...sectionIds] },
  );
  return rows.map((row) => referenceFromNode(row.r));
}

function mentionedIn(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === "string").sort() : [];
}

/** Terms whose `key` is one of `values`, each with the sections that mention it. */
async function termsWhere(session: KuzuSession, key: "normalizedTerm" | "id", values: readonly string[]): Promise<TermRecord[]> {
  if (values.length === 0) return [];
  const rows = await session.run(
    `MATCH (t:Term) WHERE list_contains($values, t.${key})
     OPTIONAL MATCH (s:Section)-[:MENTIONS]->(t)
     RETURN t, collect(s.id) AS mentionedIn ORDER BY t.documentId, t.normalizedTerm`,
    { values: [...values] },
  );
  return rows.map((row) => termFromNode(row.t, mentionedIn(row.mentionedIn)));
}

export function termsByNormalized(session: KuzuSession, normalizedTerms: readonly string[]): Promise<TermRecord[]> {
  return termsWhere(session, "normalizedTerm", normalizedTerms);
}

export function termsByIds(session: KuzuSession, ids: readonly string[]): Promise<TermRecord[]> {
  return termsWhere(session, "id", ids);
}

export async function tripletsOfDocument(session: KuzuSession, documentId: string): Promise<TripletRecord[]> {
  const rows = await session.run("MATCH (t:Triplet) WHERE t.documentId = $documentId RETURN t ORDER BY t.sectionId, t.spanStart, t.id", { documentId });
  return rows.map((r) => tripletFromNode(r.t));
}

export async function tripletsForSections(session: KuzuSession, sectionIds: readonly string[]): Promise<TripletRecord[]> {
  if (sectionIds.length === 0) return [];
  const rows = await session.run(
    "MATCH (t:Triplet) WHERE list_contains($docs, t.documentId) AND list_contains($ids, t.sectionId) RETURN t ORDER BY t.sectionId, t.spanStart, t.id",
    { docs: documentsOf(sectionIds), ids: [...sectionIds] },
  );
  return rows.map((r) => tripletFromNode(r.t));
}

/** Triplet rows by id (ids are `<documentId>:…`, which lets Kuzu prune by document first). */
export async function tripletsByIds(session: KuzuSession, ids: readonly string[]): Promise<TripletRecord[]> {
  if (ids.length === 0) return [];
  const rows = await session.run("MATCH (t:Triplet) WHERE list_contains($docs, t.documentId) AND list_contains($ids, t.id) RETURN t", {
    docs: documentsOf(ids),
    ids: [...ids],
  });
  return rows.map((r) => tripletFromNode(r.t));
}

export async function tripletsForEntityKeys(session: KuzuSession, keys: readonly string[], limit: number): Promise<TripletRecord[]> {
  const top = Math.max(0, Math.min(MAX_K, Math.floor(limit)));
  if (keys.length === 0 || top === 0) return [];
  const rows = await session.run(
    `MATCH (t:Triplet)-[:HAS_SUBJECT|:HAS_OBJECT]->(e:Entity) WHERE list_contains($keys, e.key)
     RETURN DISTINCT t ORDER BY t.confidence DESC, t.id LIMIT ${top}`,
    { keys: [...keys] },
  );
  return rows.map((r) => tripletFromNode(r.t));
}
