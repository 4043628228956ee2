import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import type { DerivedGraph } from "../../core/model/graph-records.ts";
import { rejectionCode } from "../helpers/expect-code.ts";
import { makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// Schema v8: entities carry their party type, triplets their recipient (with a
// HAS_RECIPIENT edge), deadlines are nodes of their own; names shorter than two characters are
// refused at the door; graph questions run on a read-only connection with a timeout.

const DOC = "doc8";
const sections = makeSections(DOC, [
  {
    label: "Article 1",
    text: "The controller shall notify the personal data breach to the supervisory authority without undue delay and, where feasible, not later than 72 hours after having become aware of it.",
  },
  { label: "Article 2", text: "The processor shall inform the controller of any intended changes. Records shall be kept for a period of at least five years." },
]);
const document = makeDocument(DOC, sections.length);

function derived(): DerivedGraph {
  return buildDerivedGraph({ id: DOC, title: document.title, language: "en" }, sections, []);
}

describe("graph store, schema v8", () => {
  const tmp = tempDir("cg-v8-");
  let store: KuzuGraphStore;

  beforeAll(async () => {
    store = createKuzuStore({ dbPath: `${tmp.dir}/graph.kuzu`, minFreeBytes: 0 });
    await store.open();
    await store.insertDocument(document, sections, derived());
  });
  afterAll(async () => {
    await store.close();
    tmp.cleanup();
  });

  it("is at schema version 8", async () => {
    expect(await store.schemaVersion()).toBeGreaterThanOrEqual(8);
  });

  it("stores party types, recipients and deadlines, and links recipients by an edge", async () => {
    const triplets = await store.getTriplets(DOC);
    expect(triplets).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject: "controller", predicate: "shall notify", object: "personal data breach", recipient: "supervisory authority" }),
        expect.objectContaining({ subject: "processor", predicate: "shall inform", recipient: "controller" }),
      ]),
    );
    const parties = await store.readOnlyQuery(
      "MATCH (t:Triplet)-[:HAS_RECIPIENT]->(e:Entity) WHERE t.documentId = $doc RETURN e.name AS name, e.party AS party ORDER BY name",
      { doc: DOC },
      { timeoutMs: 5000 },
    );
    expect(parties).toEqual([
      { name: "controller", party: "regulated party" },
      { name: "supervisory authority", party: "authority" },
    ]);
    const deadlines = await store.readOnlyQuery(
      "MATCH (s:Section)-[:SETS_DEADLINE]->(d:Deadline) RETURN s.label AS label, d.text AS text ORDER BY d.text",
      {},
      { timeoutMs: 5000 },
    );
    expect(deadlines).toEqual([
      { label: "Article 2", text: "for a period of at least five years" },
      { label: "Article 1", text: "not later than 72 hours" },
      { label: "Article 1", text: "without undue delay" },
    ]);
  });

  it("refuses entities and triplets named by nothing or by one character (zod, at insert)", async () => {
    const other = makeDocument("doc9", 1);
    const otherSections = makeSections("doc9", [{ label: "Article 1", text: "The controller shall keep records." }]);
    const graph = buildDerivedGraph({ id: "doc9", title: other.title, language: "en" }, otherSections, []);
    const subject = graph.entities[0];
    expect(subject).toBeDefined();
    for (const bad of ["", " ", "x"]) {
      const broken: DerivedGraph = { ...graph, entities: graph.entities.map((e) => (e.id === subject?.id ? { ...e, name: bad } : e)) };
      await expect(store.insertDocument(other, otherSections, broken)).rejects.toThrow(/entity .* shorter than 2 characters/);
      expect(await rejectionCode(store.insertDocument(other, otherSections, broken))).toBe("VALIDATION");
      const tripletBroken: DerivedGraph = { ...graph, triplets: graph.triplets.map((t) => ({ ...t, object: bad === "" ? "y" : bad })) };
      expect(await rejectionCode(store.insertDocument(other, otherSections, tripletBroken))).toBe("VALIDATION");
    }
    // Nothing of the refused document was stored.
    expect(await store.getDocument("doc9")).toBeNull();
    expect((await store.listDocuments()).map((d) => d.id)).toEqual([DOC]);
  });

  it("runs graph queries read-only: a write is refused by the database, and nothing changes", async () => {
    const before = await store.stats();
    for (const write of [
      "MATCH (e:Entity) SET e.name = 'changed'",
      "CREATE (:Entity {id: 'x', documentId: 'x', key: 'xx', name: 'xx', type: 'actor', party: ''})",
      "MATCH (d:Document) DELETE d",
    ]) {
      expect(await rejectionCode(store.readOnlyQuery(write, {}, { timeoutMs: 5000 }))).toBe("FORBIDDEN");
    }
    expect(await store.stats()).toEqual(before);
    expect((await store.getTriplets(DOC)).every((t) => t.subject !== "changed")).toBe(true);
  });

  it("stops a query that runs past its timeout", async () => {
    // Far past 1 ms on any machine (3^12 rows of concatenated text): over a 6-way product the
    // query could finish before the timer fired.
    const vars = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];
    const slow = `MATCH ${vars.map((v) => `(${v}:Section)`).join(", ")} WHERE ${vars.map((v) => `${v}.text`).join(" + ")} <> '' RETURN count(*) AS n`;
    await expect(store.readOnlyQuery(slow, {}, { timeoutMs: 1 })).rejects.toThrow(/longer than 1 ms and was stopped/);
    // The connection is usable afterwards.
    expect(await store.readOnlyQuery("MATCH (d:Document) RETURN d.id AS id", {}, { timeoutMs: 5000 })).toEqual([{ id: DOC }]);
  });

  it("reads the live schema from the catalog", async () => {
    const schema = await store.graphSchema();
    expect(schema.nodes.map((n) => n.name)).toEqual(expect.arrayContaining(["Section", "Triplet", "Entity", "Deadline", "Document", "Term", "Reference"]));
    expect(schema.relationships.find((r) => r.name === "HAS_RECIPIENT")?.ends).toEqual([{ from: "Triplet", to: "Entity" }]);
    expect(schema.nodes.find((n) => n.name === "Entity")?.properties.map((p) => p.name)).toContain("party");
  });

  it("deletes a document's deadlines and recipient edges with it", async () => {
    expect(await store.deleteDocument(DOC)).toBe(true);
    expect(await store.readOnlyQuery("MATCH (d:Deadline) RETURN count(d) AS n", {}, { timeoutMs: 5000 })).toEqual([{ n: 0 }]);
    expect(await store.readOnlyQuery("MATCH ()-[r:HAS_RECIPIENT]->() RETURN count(r) AS n", {}, { timeoutMs: 5000 })).toEqual([{ n: 0 }]);
  });
});
