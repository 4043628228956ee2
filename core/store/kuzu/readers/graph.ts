import type { CitationInto, CrossDocumentRows, CrossReferenceRecord, TermRecord, TripletRecord } from "../../../model/graph-records.ts";
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

export async function documentReferences(session: KuzuSession, documentId: string): Promise<CrossReferenceRecord[]> {
  const rows = await session.run("MATCH (r:Reference) WHERE r.documentId = $documentId RETURN r ORDER BY r.fromSectionId, r.spanStart, r.id", { documentId });
  return rows.map((row) => referenceFromNode(row.r));
}

/**
 * Ids only: reading the rows in the same statement made Kuzu 0.11.3 read every column of the whole
 * table, growing with the library (figures: docs/benchmarks/scale.md).
 */
export async function referenceIdsInto(session: KuzuSession, sectionIds: readonly string[]): Promise<Array<{ id: string; documentId: string }>> {
  if (sectionIds.length === 0) return [];
  const rows = await session.run("UNWIND $ids AS x MATCH (r:Reference) WHERE r.toSectionId = x RETURN r.id AS id, r.documentId AS doc", {
    ids: [...sectionIds],
  });
  return rows.map((row) => ({ id: String(row.id), documentId: String(row.doc) }));
}

function mentionedIn(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === "string").sort() : [];
}

/**
 * Terms whose `key` is one of `values`, each with the sections that mention it. Two statements:
 * joined in one, Kuzu read the MENTIONS edges of every term before filtering.
 */
async function termsWhere(session: KuzuSession, key: "normalizedTerm" | "id", values: readonly string[]): Promise<TermRecord[]> {
  if (values.length === 0) return [];
  const terms = await session.run(`MATCH (t:Term) WHERE list_contains($values, t.${key}) RETURN t ORDER BY t.documentId, t.normalizedTerm`, {
    values: [...values],
  });
  if (terms.length === 0) return [];
  const records = terms.map((row) => termFromNode(row.t, []));
  const mentions = await session.run("MATCH (s:Section)-[:MENTIONS]->(t:Term) WHERE list_contains($ids, t.id) RETURN t.id AS term, s.id AS section", {
    ids: records.map((t) => t.id),
  });
  const byTerm = new Map<string, string[]>();
  for (const row of mentions) {
    const list = byTerm.get(String(row.term));
    if (list === undefined) byTerm.set(String(row.term), [String(row.section)]);
    else list.push(String(row.section));
  }
  return records.map((t) => ({ ...t, mentionedIn: mentionedIn(byTerm.get(t.id) ?? []) }));
}

export function termsByNormalized(session: KuzuSession, normalizedTerms: readonly string[]): Promise<TermRecord[]> {
  return termsWhere(session, "normalizedTerm", normalizedTerms);
}

export function termsByIds(session: KuzuSession, ids: readonly string[]): Promise<TermRecord[]> {
  return termsWhere(session, "id", ids);
}

/** A list of `width` texts per row, from one collect(): Kuzu hands a single list over many times faster than as many rows. */
function textRows(value: unknown, width: number, what: string): string[][] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${what} is not a list`);
  return value.map((row: unknown) => {
    if (!Array.isArray(row) || row.length !== width || !row.every((x): x is string => typeof x === "string")) throw new Error(`${what} has a malformed row`);
    return row;
  });
}

async function countOf(session: KuzuSession, cypher: string): Promise<number> {
  const [row] = await session.run(cypher);
  return Number(row?.n ?? 0);
}

export async function crossDocumentRows(session: KuzuSession, maxRows: number): Promise<CrossDocumentRows | null> {
  // Every citation, resolved or not, is counted: Kuzu counts a table at once, but not a filter.
  const total =
    (await countOf(session, "MATCH (r:Reference) RETURN count(r) AS n")) +
    (await countOf(session, "MATCH (t:Term) RETURN count(t) AS n")) +
    (await countOf(session, "MATCH (:Section)-[m:MENTIONS]->(:Term) RETURN count(m) AS n"));
  if (total > maxRows) return null;
  const [citations] = await session.run("MATCH (r:Reference) WHERE r.toSectionId <> '' RETURN collect([r.toSectionId, r.id, r.documentId]) AS x");
  const [terms] = await session.run(
    `MATCH (t:Term) RETURN collect([t.id, t.documentId, t.term, t.normalizedTerm, t.definition, t.sectionId,
       CAST(t.spanStart AS STRING), CAST(t.spanEnd AS STRING)]) AS x`,
  );
  const [mentions] = await session.run("MATCH (s:Section)-[:MENTIONS]->(t:Term) RETURN collect([t.id, s.id]) AS x");
  const byTerm = new Map<string, string[]>();
  for (const [term = "", section = ""] of textRows(mentions?.x, 2, "mentions")) {
    const list = byTerm.get(term);
    if (list === undefined) byTerm.set(term, [section]);
    else list.push(section);
  }
  return {
    citationsInto: textRows(citations?.x, 3, "citations").map(([toSectionId = "", id = "", documentId = ""]): CitationInto => ({
      toSectionId,
      id,
      documentId,
    })),
    terms: textRows(terms?.x, 8, "terms").map(
      ([id = "", documentId = "", term = "", normalizedTerm = "", definition = "", sectionId = "", start = "0", end = "0"]): TermRecord => ({
        id,
        documentId,
        term,
        normalizedTerm,
        definition,
        sectionId,
        start: Number(start),
        end: Number(end),
        mentionedIn: mentionedIn(byTerm.get(id) ?? []),
      }),
    ),
  };
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
