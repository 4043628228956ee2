import type { EmbeddingSpace, StoreStats } from "../../../model/store-records.ts";
import type { KuzuSession } from "../session.ts";
import { EMBEDDING_DIMS_KEY, EMBEDDING_MODEL_KEY, META_TABLE, SECTION_VECTORS, type VectorTableSpec } from "../schema.ts";

// Reads of what the library records about itself: its tables, the Meta key/values (embedding
// model, dead vector counts), counts.

export async function tableNames(session: KuzuSession): Promise<Set<string>> {
  const rows = await session.run("CALL show_tables() RETURN name");
  return new Set(rows.map((r) => String(r.name)));
}

/** `<table>.<index>` of every index (vector and full-text). */
export async function indexNames(session: KuzuSession): Promise<Set<string>> {
  const rows = await session.run("CALL SHOW_INDEXES() RETURN table_name AS t, index_name AS i");
  return new Set(rows.map((r) => `${String(r.t)}.${String(r.i)}`));
}

export function hasVectorIndex(indexes: ReadonlySet<string>, spec: VectorTableSpec): boolean {
  return indexes.has(`${spec.table}.${spec.index}`);
}

export async function readMeta(session: KuzuSession, key: string): Promise<string | null> {
  const rows = await session.run(`MATCH (m:${META_TABLE}) WHERE m.key = $key RETURN m.value AS value`, { key });
  const value = rows[0]?.value;
  return typeof value === "string" ? value : null;
}

/** The Meta key counting a vector table's deleted rows since it was last built (vector-compaction.ts). */
export const deadVectorsKey = (spec: VectorTableSpec): string => `deadVectors.${spec.table}`;

export async function readSpace(session: KuzuSession): Promise<EmbeddingSpace | null> {
  const modelId = await readMeta(session, EMBEDDING_MODEL_KEY);
  const dims = Number(await readMeta(session, EMBEDDING_DIMS_KEY));
  if (modelId === null || modelId === "" || !Number.isInteger(dims) || dims < 1) return null;
  return { modelId, dimensions: dims };
}

export async function countRows(session: KuzuSession, table: string): Promise<number> {
  const [row] = await session.run(`MATCH (v:${table}) RETURN count(v) AS n`);
  return Number(row?.n ?? 0);
}

export async function stats(session: KuzuSession): Promise<StoreStats> {
  const [d] = await session.run("MATCH (d:Document) RETURN count(d) AS n");
  const [s] = await session.run("MATCH (s:Section) RETURN count(s) AS n");
  const [r] = await session.run("MATCH (r:Reference) RETURN count(r) AS n, sum(CASE WHEN r.toSectionId = '' THEN 0 ELSE 1 END) AS resolved");
  const [t] = await session.run("MATCH (t:Term) RETURN count(t) AS n");
  const [tr] = await session.run("MATCH (t:Triplet) RETURN count(t) AS n");
  const [e] = await session.run("MATCH (e:Entity) RETURN count(e) AS n");
  const vectors = (await tableNames(session)).has(SECTION_VECTORS.table) ? await countRows(session, SECTION_VECTORS.table) : 0;
  const space = await readSpace(session);
  return {
    documents: Number(d?.n ?? 0),
    sections: Number(s?.n ?? 0),
    crossReferences: Number(r?.n ?? 0),
    resolvedCrossReferences: Number(r?.resolved ?? 0),
    terms: Number(t?.n ?? 0),
    triplets: Number(tr?.n ?? 0),
    entities: Number(e?.n ?? 0),
    embeddedSections: vectors,
    embeddingModel: space?.modelId ?? "",
  };
}

/** Documents whose vectors are not (all) of `modelId`, in import order. */
export async function documentsMissingEmbeddings(session: KuzuSession, modelId: string): Promise<string[]> {
  const rows = await session.run("MATCH (d:Document) WHERE d.embeddedWith <> $model RETURN d.id AS id ORDER BY d.importedAt, d.id", { model: modelId });
  return rows.map((r) => String(r.id));
}
