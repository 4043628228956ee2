import { ClauseGraphError } from "../model/errors.ts";
import type { GraphStore } from "../store/graph-store.ts";
import type { EntityFactSection, EntityFacts } from "../model/graph-answer-types.ts";
import { runGated, type QueryRuntime } from "./intent-queries.ts";
import { querySchema } from "./query-schema.ts";
import { rowCitation } from "./row-citation.ts";

// Clicking an entity in the answer graph lists every section that states a fact about it — as
// the fact's subject, object or party told — so the reader can step through them (next /
// previous). An entity is a name within one document (`<documentId>:e:<key>`); the same key in
// another document is the same concept (core/extract/entity-names.ts), so those sections are
// listed too, after the entity's own document's. Read-only, through the Cypher gate like every
// graph question.

const MAX_SECTIONS = 500;
const TIMEOUT_MS = 5000;

/** The entity id inside a graph node id (`entity:<documentId>:e:<key>` or the bare id). */
function parseEntity(nodeId: string): { documentId: string; key: string } {
  const id = nodeId.startsWith("entity:") ? nodeId.slice("entity:".length) : nodeId;
  const at = id.indexOf(":e:");
  if (at <= 0 || at + 3 >= id.length) throw new ClauseGraphError("VALIDATION", `Not an entity of the graph: ${nodeId}`);
  return { documentId: id.slice(0, at), key: id.slice(at + 3) };
}

const ROLES = [
  ["subject", "HAS_SUBJECT"],
  ["object", "HAS_OBJECT"],
  ["recipient", "HAS_RECIPIENT"],
] as const;

export async function entityFacts(store: GraphStore, nodeId: string): Promise<EntityFacts> {
  const { documentId, key } = parseEntity(nodeId);
  const rt: QueryRuntime = { store, schema: querySchema(await store.graphSchema()), timeoutMs: TIMEOUT_MS, maxRows: MAX_SECTIONS * 4, ran: [] };
  const named = await runGated(rt, "MATCH (e:Entity) WHERE e.key = $key RETURN e.name AS name, e.documentId AS doc", { key });
  const own = named.find((r) => r.doc === documentId) ?? named[0];
  if (own === undefined) throw new ClauseGraphError("NOT_FOUND", `No entity ${key} in the library`);
  type Fact = { sectionId: string; role: EntityFactSection["role"]; fact: string; start: number; end: number };
  const facts: Fact[] = [];
  for (const [role, rel] of ROLES) {
    const rows = await runGated(
      rt,
      `MATCH (t:Triplet)-[:${rel}]->(e:Entity) WHERE e.key = $key RETURN t.sectionId AS section, t.subject AS subject, t.predicate AS predicate, t.object AS object, t.spanStart AS at, t.spanEnd AS spanEnd`,
      { key },
    );
    for (const r of rows) {
      const parts = [String(r.subject ?? ""), String(r.predicate ?? ""), String(r.object ?? "")].filter((p) => p !== "");
      facts.push({ sectionId: String(r.section ?? ""), role, fact: parts.join(" — "), start: Number(r.at ?? 0), end: Number(r.spanEnd ?? 0) });
    }
  }
  const found = await store.getSectionsByIds([...new Set(facts.map((f) => f.sectionId))]);
  const byId = new Map(found.map((f) => [f.section.id, f]));
  // One entry per section, at its first fact; the entity's own document first, then reading order.
  const bySection = new Map<string, { first: Fact; count: number }>();
  for (const f of facts) {
    const seen = bySection.get(f.sectionId);
    if (seen === undefined) bySection.set(f.sectionId, { first: f, count: 1 });
    else {
      seen.count++;
      if (f.start < seen.first.start) seen.first = f;
    }
  }
  const entries = [...bySection.values()].flatMap(({ first, count }) => {
    const at = byId.get(first.sectionId);
    return at === undefined ? [] : [{ first, count, section: at.section, document: at.document }];
  });
  entries.sort(
    (a, b) =>
      Number(b.section.documentId === documentId) - Number(a.section.documentId === documentId) ||
      a.section.documentId.localeCompare(b.section.documentId) ||
      a.section.ordinal - b.section.ordinal,
  );
  const sections = entries.slice(0, MAX_SECTIONS).map(({ first, count, section, document }): EntityFactSection => {
    const span = { start: first.start, end: first.end };
    const citation = rowCitation(section, document, span);
    return {
      sectionId: section.id,
      documentId: section.documentId,
      label: citation.label,
      page: citation.pageStart,
      role: first.role,
      fact: first.fact,
      span,
      facts: count,
    };
  });
  return { name: String(own.name ?? key), sections, truncated: entries.length > MAX_SECTIONS };
}
