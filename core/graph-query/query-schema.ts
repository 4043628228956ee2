import type { LiveGraphSchema } from "../model/store-records.ts";

// What a graph question may name: the node labels, relationship types and properties of the
// live database (so a renamed or added column is known without a code change), cut down to the
// knowledge graph an auditor asks about. Bookkeeping (Meta, caches), vectors, comparisons and
// columns that only serve search or the viewer (numberTerms, spans) or name files on the
// user's disk (Document.file) are never reachable, whatever a question or a model writes.

/** The knowledge graph's node tables and relationships: what a graph query may reach. */
export const GRAPH_NODE_TABLES = ["Document", "Section", "Reference", "Term", "Entity", "Triplet", "Deadline"] as const;
export const GRAPH_RELATIONSHIPS = [
  "PART_OF",
  "NEXT",
  "IN_DOCUMENT",
  "CITES",
  "REFERS_TO",
  "DEFINED_IN",
  "MENTIONS",
  "STATED_IN",
  "HAS_SUBJECT",
  "HAS_OBJECT",
  "HAS_RECIPIENT",
  "SETS_DEADLINE",
] as const;
const NODES = new Set<string>(GRAPH_NODE_TABLES);
const RELATIONSHIPS = new Set<string>(GRAPH_RELATIONSHIPS);
const HIDDEN_PROPERTIES = new Set(["Section.numberTerms", "Section.spans", "Document.file", "Document.embeddedWith", "Document.ocr"]);

export interface QuerySchema {
  /** Label → its properties. */
  nodes: ReadonlyMap<string, ReadonlySet<string>>;
  /** Relationship type → its properties. */
  relationships: ReadonlyMap<string, ReadonlySet<string>>;
  /** Relationship type → the node labels it joins. */
  ends: ReadonlyMap<string, ReadonlyArray<{ from: string; to: string }>>;
}

export function querySchema(live: LiveGraphSchema): QuerySchema {
  const nodes = new Map<string, Set<string>>();
  for (const n of live.nodes) {
    if (!NODES.has(n.name)) continue;
    nodes.set(n.name, new Set(n.properties.map((p) => p.name).filter((p) => !HIDDEN_PROPERTIES.has(`${n.name}.${p}`))));
  }
  const relationships = new Map<string, Set<string>>();
  const ends = new Map<string, Array<{ from: string; to: string }>>();
  for (const r of live.relationships) {
    if (!RELATIONSHIPS.has(r.name)) continue;
    const joins = r.ends.filter((e) => nodes.has(e.from) && nodes.has(e.to));
    if (joins.length === 0) continue;
    relationships.set(r.name, new Set(r.properties.map((p) => p.name)));
    ends.set(r.name, joins);
  }
  return { nodes, relationships, ends };
}
