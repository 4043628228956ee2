import type { DocumentOutline, Section } from "../../../model/section-types.ts";
import { OUTLINE_OPENING_SECTIONS } from "../../../model/section-types.ts";
import type { DocumentRecord } from "../../../model/store-records.ts";
import type { KuzuSession } from "../session.ts";
import { documentFromNode, sectionFromNode } from "../store-rows.ts";
import type { SearchRow } from "../../search/search-segment-files.ts";

// Reads of documents and sections. Section ids start with their document's id
// (`<documentId>:<path slug>`): filtering on the documentId column first lets Kuzu skip other
// documents instead of scanning the whole Section table.

/** The distinct document ids of section, triplet or vector ids. */
export function documentsOf(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.split(":")[0] ?? ""))];
}

export async function findDocument(session: KuzuSession, field: "id" | "sha256", value: string): Promise<DocumentRecord | null> {
  const rows = await session.run(`MATCH (d:Document) WHERE d.${field} = $value RETURN d LIMIT 1`, { value });
  return rows.length === 0 ? null : documentFromNode(rows[0]?.d);
}

export async function listDocuments(session: KuzuSession): Promise<DocumentRecord[]> {
  const rows = await session.run("MATCH (d:Document) RETURN d ORDER BY d.importedAt, d.id");
  return rows.map((r) => documentFromNode(r.d));
}

/** Ids and sha256 of every document: what the search database must index (search-database.ts). */
export async function documentKeys(session: KuzuSession): Promise<Array<{ id: string; sha256: string }>> {
  const rows = await session.run("MATCH (d:Document) RETURN d.id AS id, d.sha256 AS sha256");
  return rows.map((r) => ({ id: String(r.id), sha256: String(r.sha256) }));
}

export async function getSection(session: KuzuSession, id: string): Promise<Section | null> {
  const rows = await session.run("MATCH (s:Section) WHERE s.id = $id RETURN s", { id });
  return rows.length === 0 ? null : sectionFromNode(rows[0]?.s);
}

export async function getSections(session: KuzuSession, documentId: string): Promise<Section[]> {
  const rows = await session.run("MATCH (s:Section) WHERE s.documentId = $documentId RETURN s ORDER BY s.ordinal", { documentId });
  return rows.map((r) => sectionFromNode(r.s));
}

export async function sectionsByIds(session: KuzuSession, ids: readonly string[]): Promise<Array<{ section: Section; document: DocumentRecord }>> {
  if (ids.length === 0) return [];
  const rows = await session.run(
    "MATCH (s:Section)-[:IN_DOCUMENT]->(d:Document) WHERE list_contains($docs, s.documentId) AND list_contains($ids, s.id) RETURN s, d",
    { docs: documentsOf(ids), ids: [...ids] },
  );
  const byId = new Map(
    rows.map((r) => {
      const section = sectionFromNode(r.s);
      return [section.id, { section, document: documentFromNode(r.d) }] as const;
    }),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function childSectionIds(session: KuzuSession, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await session.run(
    `MATCH (c:Section) WHERE list_contains($docs, c.documentId) AND list_contains($ids, c.parentId)
     RETURN c.parentId AS parent, c.id AS id ORDER BY c.ordinal`,
    { docs: documentsOf(ids), ids: [...ids] },
  );
  for (const r of rows) out.get(String(r.parent))?.push(String(r.id));
  return out;
}

/** Every section's searchable text, for a new search database. */
/** The searchable rows of these documents (search-database.ts). */
export async function searchRowsOf(session: KuzuSession, documentIds: readonly string[]): Promise<SearchRow[]> {
  if (documentIds.length === 0) return [];
  const rows = await session.run(
    "MATCH (s:Section) WHERE list_contains($docs, s.documentId) RETURN s.id AS id, s.documentId AS doc, s.label AS label, s.heading AS heading, s.text AS text, s.numberTerms AS numberTerms",
    { docs: [...documentIds] },
  );
  const str = (v: unknown): string => (typeof v === "string" ? v : "");
  return rows.map((r) => ({
    id: String(r.id),
    documentId: String(r.doc),
    label: str(r.label),
    heading: str(r.heading),
    text: str(r.text),
    numberTerms: str(r.numberTerms),
  }));
}

/** Every document's outline (DocumentOutline), or these documents': two queries, labels for all, text for the openings. */
export async function documentOutlines(session: KuzuSession, documentIds?: readonly string[]): Promise<DocumentOutline[]> {
  const wanted = documentIds === undefined ? null : new Set(documentIds);
  const docs = (await listDocuments(session)).filter((d) => wanted === null || wanted.has(d.id));
  if (docs.length === 0) return [];
  const rows =
    wanted === null
      ? await session.run("MATCH (s:Section) RETURN s.documentId AS doc, s.id AS id, s.label AS label, s.ordinal AS ordinal ORDER BY doc, ordinal")
      : await session.run(
          "MATCH (s:Section) WHERE list_contains($docs, s.documentId) RETURN s.documentId AS doc, s.id AS id, s.label AS label, s.ordinal AS ordinal ORDER BY doc, ordinal",
          { docs: docs.map((d) => d.id) },
        );
  const outlines = new Map<string, DocumentOutline>(docs.map((d) => [d.id, { id: d.id, title: d.title, sections: [] }]));
  for (const r of rows) {
    outlines.get(String(r.doc))?.sections.push({ id: String(r.id), label: String(r.label), ordinal: Number(r.ordinal), heading: "", text: "" });
  }
  const openingIds = [...outlines.values()].flatMap((o) => o.sections.slice(0, OUTLINE_OPENING_SECTIONS).map((s) => s.id));
  if (openingIds.length > 0) {
    const opening = await session.run(
      "MATCH (s:Section) WHERE list_contains($docs, s.documentId) AND list_contains($ids, s.id) RETURN s.id AS id, s.heading AS heading, s.text AS text",
      {
        docs: documentsOf(openingIds),
        ids: openingIds,
      },
    );
    const byId = new Map(opening.map((r) => [String(r.id), r]));
    for (const outline of outlines.values()) {
      for (const section of outline.sections.slice(0, OUTLINE_OPENING_SECTIONS)) {
        const row = byId.get(section.id);
        section.heading = typeof row?.heading === "string" ? row.heading : "";
        section.text = typeof row?.text === "string" ? row.text : "";
      }
    }
  }
  return [...outlines.values()];
}
