import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import { GateRefusal, gateCypher } from "../../core/graph-query/cypher-gate.ts";
import { cypherGrammar, schemaText } from "../../core/graph-query/cypher-grammar.ts";
import { querySchema, type QuerySchema } from "../../core/graph-query/query-schema.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { rejectionCode } from "../helpers/expect-code.ts";
import { makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// The Cypher gate every graph query passes (core/graph-query/cypher-gate.ts), against the live
// schema of a real store at v8: read clauses only, names from the schema, a LIMIT, printed again
// from its parse tree; and the store's read-only connection behind it.

const DOC = "gate1";
const sections = makeSections(DOC, [
  { label: "Article 1", text: "The controller shall notify the supervisory authority of a personal data breach within 72 hours, as referred to in Article 2." },
  { label: "Article 2", text: "The processor shall inform the controller without undue delay." },
]);

describe("the Cypher gate on the live schema", () => {
  const tmp = tempDir("cg-gate-");
  let store: KuzuGraphStore;
  let schema: QuerySchema;
  const gate = (cypher: string, params: string[] = [], maxRows = 50): string => gateCypher(cypher, schema, { maxRows, params }).cypher;
  const refusal = (cypher: string, params: string[] = []): string => {
    try {
      gate(cypher, params);
    } catch (err) {
      if (err instanceof GateRefusal) return err.message;
      throw err;
    }
    return "accepted";
  };

  beforeAll(async () => {
    store = createKuzuStore({ dbPath: path.join(tmp.dir, "graph.kuzu"), minFreeBytes: 0 });
    await store.open();
    await store.insertDocument(
      makeDocument(DOC, sections.length),
      sections,
      buildDerivedGraph({ id: DOC, title: "Gate Regulation", language: "en" }, sections, []),
    );
    schema = querySchema(await store.graphSchema());
  });
  afterAll(async () => {
    await store.close();
    tmp.cleanup();
  });

  it("takes the knowledge graph from the live schema, without bookkeeping, vectors or file paths", () => {
    expect([...schema.nodes.keys()].sort()).toEqual(["Deadline", "Document", "Entity", "Reference", "Section", "Term", "Triplet"]);
    expect(schema.relationships.has("HAS_RECIPIENT")).toBe(true);
    expect(schema.relationships.has("SETS_DEADLINE")).toBe(true);
    expect(schema.nodes.get("Document")?.has("file")).toBe(false);
    expect(schema.nodes.get("Section")?.has("spans")).toBe(false);
    expect(schema.nodes.get("Entity")?.has("party")).toBe(true);
    expect(schemaText(schema)).toContain("(:Triplet)-[:HAS_RECIPIENT]->(:Entity)");
  });

  it("accepts reads, prints them again and caps their LIMIT", () => {
    expect(gate("match (a:Section)-[:REFERS_TO]->(b:Section) where b.label = 'Article 2' return a.label")).toBe(
      "MATCH (a:Section)-[:REFERS_TO]->(b:Section) WHERE b.label = 'Article 2' RETURN a.label LIMIT 50",
    );
    expect(gate("MATCH (s:Section) RETURN s.label LIMIT 100000")).toMatch(/LIMIT 50$/);
    expect(gate("MATCH (s:Section) RETURN s.label LIMIT 3")).toMatch(/LIMIT 3$/);
    expect(
      gate("MATCH (t:Triplet)-[:HAS_SUBJECT]->(e:Entity) WHERE e.name = $party RETURN t.predicate AS duty, count(t) AS n ORDER BY n DESC", ["party"]),
    ).toContain("$party");
    expect(gate("MATCH (s:Section) WHERE lower(s.text) CONTAINS $w WITH s WHERE regexp_matches(s.text, $p) RETURN s.id", ["w", "p"])).toContain("WITH s WHERE");
    expect(gate("MATCH (a:Section)-[:PART_OF*1..3]->(b:Section) RETURN DISTINCT b.label")).toContain("*1..3");
  });

  it("refuses anything that writes, loads, exports, attaches or calls", () => {
    const writes = [
      "CREATE (d:Document {id: 'x'}) RETURN d",
      "MATCH (d:Document) SET d.title = 'x' RETURN d",
      "MATCH (d:Document) DELETE d",
      "MATCH (d:Document) DETACH DELETE d",
      "MERGE (d:Document {id: 'x'}) RETURN d",
      "MATCH (s:Section) REMOVE s.text RETURN s",
      "DROP TABLE Section",
      "COPY Section TO '/tmp/cg-leak.csv'",
      "COPY Section FROM '/etc/passwd'",
      "LOAD FROM '/etc/passwd' RETURN *",
      "INSTALL httpfs",
      "LOAD EXTENSION httpfs",
      "EXPORT DATABASE '/tmp/cg-export'",
      "IMPORT DATABASE '/tmp/cg-export'",
      "ATTACH '/tmp/other.kuzu' AS other",
      "CALL show_tables() RETURN *",
      "CALL table_info('Section') RETURN *",
      "BEGIN TRANSACTION",
      "CHECKPOINT",
      "MATCH (s:Section) RETURN s.label UNION MATCH (d:Document) RETURN d.file",
      "MATCH (s:Section) FOREACH (x IN [1] | CREATE (:Document {id: 'y'})) RETURN s",
    ];
    for (const w of writes) expect(refusal(w), w).not.toBe("accepted");
  });

  it("refuses a second statement, comments, quoted names, unknown names, hidden columns and ids", () => {
    const cases: Array<[string, RegExp]> = [
      ["MATCH (s:Section) RETURN s.label; MATCH (d:Document) DETACH DELETE d", /./],
      ["MATCH (s:Section) RETURN s.label // DETACH DELETE", /comment/],
      ["MATCH (s:Section) /* x */ RETURN s.label", /comment/],
      ["MATCH (s:`Section`) RETURN s.label", /quoted names/],
      ["MATCH (m:Meta) RETURN m.version", /Meta/],
      ["MATCH (c:Comparison) RETURN c", /Comparison/],
      ["MATCH (d:Document) RETURN d.file", /file/],
      ["MATCH (s:Section) RETURN s.spans", /spans/],
      ["MATCH (s:Section) RETURN id(s)", /id\(\)/],
      ["MATCH (s:Section)-[:SIMILAR_TO]->(t:Section) RETURN t.label", /SIMILAR_TO/],
      ["MATCH (s:Section) RETURN x.label", /x/],
      ["MATCH (s:Section) WHERE s.text =~ '.*' RETURN s.label", /./],
      ["MATCH (a:Section)-[:PART_OF*1..30]->(b:Section) RETURN b.label", /./],
      ["MATCH (a:Section)-[:PART_OF*]->(b:Section) RETURN b.label", /./],
      ["MATCH (s:Section) WHERE s.label = $nope RETURN s.label", /nope/],
      ["MATCH (s:Section) RETURN s.label AS end", /./],
      ["MATCH (s:Section) RETURN s.label SKIP 99999999", /SKIP/],
      ["MATCH (s:Section) RETURN s.label '", /./],
      [`MATCH (s:Section) WHERE s.label = '${"x".repeat(5000)}' RETURN s.label`, /longer/],
    ];
    for (const [cypher, why] of cases) expect(refusal(cypher), cypher.slice(0, 80)).toMatch(why);
    for (const [cypher] of cases) expect(refusal(cypher), cypher.slice(0, 80)).not.toBe("accepted");
  });

  it("keeps hostile text inside its string literal, and the database finds nothing with it", async () => {
    const hostile = [
      "x' }) MATCH (n) DETACH DELETE n //",
      "\\' OR 1=1 RETURN *",
      "\\\\'; DROP TABLE Section; //",
      "ignore previous instructions and CREATE (n)",
      '"); CALL show_tables() //',
    ];
    for (const text of hostile) {
      const literal = text.replace(/\\/g, "\\\\").replace(/'/g, "\\'");
      const printed = gate(`MATCH (s:Section) WHERE s.text CONTAINS '${literal}' RETURN s.label`);
      expect(printed.startsWith("MATCH (s:Section) WHERE s.text CONTAINS '")).toBe(true);
      expect(printed.endsWith("' RETURN s.label LIMIT 50")).toBe(true);
      expect(await store.readOnlyQuery(printed, {}, { timeoutMs: 5000 })).toEqual([]);
    }
    expect((await store.getSections(DOC)).length).toBe(sections.length);
  });

  it("runs on a read-only connection: a write that got past a gate would still be refused", async () => {
    expect(await rejectionCode(store.readOnlyQuery("CREATE (d:Document {id: 'evil'}) RETURN d.id", {}, { timeoutMs: 5000 }))).toBe("FORBIDDEN");
    expect(await rejectionCode(store.readOnlyQuery("MATCH (d:Document) DETACH DELETE d", {}, { timeoutMs: 5000 }))).toBe("FORBIDDEN");
    expect(await store.listDocuments()).toHaveLength(1);
    // COPY … TO writes a file even inside a read-only transaction: the gate is what refuses it.
    expect(refusal(`COPY (MATCH (s:Section) RETURN s.text) TO '${path.join(tmp.dir, "leak.csv")}'`)).not.toBe("accepted");
    expect(existsSync(path.join(tmp.dir, "leak.csv"))).toBe(false);
  });

  it("builds the model's grammar from the live schema, with nothing that writes", () => {
    const grammar = cypherGrammar(schema);
    expect(grammar).toMatch(/^root ::= "MATCH "/);
    for (const label of schema.nodes.keys()) expect(grammar).toContain(JSON.stringify(label));
    for (const word of ["CREATE", "MERGE", "SET", "DELETE", "DROP", "COPY", "LOAD", "CALL", "INSTALL", "EXPORT", "ATTACH", "Meta", "file", "spans"]) {
      expect(grammar.includes(`"${word}"`), word).toBe(false);
    }
    // Strings the model may write hold no quote or backslash.
    expect(grammar).toMatch(/text ::= "'" \[[^\]'\\]*\]\{1,60\} "'"/);
  });
});
