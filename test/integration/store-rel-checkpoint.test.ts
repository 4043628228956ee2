import path from "node:path";
import kuzu from "kuzu";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import { checkStoreConsistency, readEdgesBothWays } from "../../bench/lib/store-consistency.ts";
import { createKuzuSession, type KuzuSession } from "../../core/store/kuzu/session.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { anchorSurvivingEdges, coveringPairs, KUZU_NODE_GROUP_SIZE, readRelConnections } from "../../core/store/kuzu/rel-checkpoint-guard.ts";
import { fillerSpecs, makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// Kuzu 0.11.3 drops every edge of a relationship table's node group when a checkpoint follows
// deletions that empty all the 1,024-node CSR regions they touched (rel-checkpoint-guard.ts).
// The soak found it as empty searches after ~160 re-imports of one document; here it is made to
// happen at once by putting the deleted document's sections in a region of their own.

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir("cg-relcp-");
});
afterEach(() => tmp.cleanup());

interface Raw {
  session: KuzuSession;
  close(): Promise<void>;
}

async function openRaw(file: string): Promise<Raw> {
  const db = new kuzu.Database(file, 64 * 1024 * 1024);
  await db.init();
  const conn = new kuzu.Connection(db, 1);
  await conn.init();
  return {
    session: createKuzuSession(conn, file),
    close: async () => {
      await conn.close();
      await db.close();
    },
  };
}

/** Two node tables; `kept` nodes in the first CSR region with edges, six more in a region of their own. */
async function smallGraph(session: KuzuSession, kept: number): Promise<void> {
  await session.run("CREATE NODE TABLE Doc(id STRING PRIMARY KEY)");
  await session.run("CREATE NODE TABLE Part(id INT64 PRIMARY KEY, doc STRING)");
  await session.run("CREATE REL TABLE IN_DOC(FROM Part TO Doc, note STRING, weight INT64)");
  await session.run("CREATE (:Doc {id: 'kept'}), (:Doc {id: 'gone'})");
  await session.run(
    "UNWIND range(0, $n - 1) AS i MATCH (d:Doc) WHERE d.id = 'kept' CREATE (:Part {id: i, doc: 'kept'})-[:IN_DOC {note: 'n' + CAST(i AS STRING), weight: i}]->(d)",
    { n: kept },
  );
  // Two edges between the same pair, so re-creating "the" edge must keep both.
  await session.run("MATCH (p:Part), (d:Doc) WHERE p.id = $last AND d.id = 'kept' CREATE (p)-[:IN_DOC {note: 'second', weight: -1}]->(d)", { last: kept - 1 });
  // Nodes without edges up to the next 1,024-node region, then the document that will be deleted.
  await session.run("UNWIND range($n, 1023) AS i CREATE (:Part {id: i, doc: 'filler'})", { n: kept });
  await session.run(
    "UNWIND range(1024, 1029) AS i MATCH (d:Doc) WHERE d.id = 'gone' CREATE (:Part {id: i, doc: 'gone'})-[:IN_DOC {note: 'x', weight: 0}]->(d)",
  );
  await session.run("CHECKPOINT");
}

describe("Kuzu checkpoint after deletions (upstream bug and our guard)", () => {
  it("the upstream bug is still there: a deletion-only checkpoint empties the forward edges of the whole node group", async () => {
    // If this starts failing after a Kuzu upgrade, the bug is fixed and the guard may go.
    const raw = await openRaw(path.join(tmp.dir, "bare.kuzu"));
    try {
      await smallGraph(raw.session, 100);
      await raw.session.run("MATCH (p:Part) WHERE p.doc = 'gone' DETACH DELETE p");
      await raw.session.run("CHECKPOINT");
      const [row] = await raw.session.run("MATCH (p:Part)-[:IN_DOC]->(d:Doc) WHERE p.id = 5 RETURN count(*) AS n");
      expect(Number(row?.n)).toBe(0);
    } finally {
      await raw.close();
    }
  });

  it("with the guard in the deleting transaction every surviving edge keeps its properties, both ways", async () => {
    const raw = await openRaw(path.join(tmp.dir, "guarded.kuzu"));
    try {
      const { session } = raw;
      await smallGraph(session, 100);
      const connections = await readRelConnections(session);
      expect(connections).toEqual([{ rel: "IN_DOC", from: "Part", to: "Doc", fromKey: "id", toKey: "id", properties: ["note", "weight"] }]);
      const propsBefore = await session.run(
        "MATCH (p:Part)-[r:IN_DOC]->(d:Doc) WHERE p.doc = 'kept' RETURN p.id AS id, r.note AS note, r.weight AS weight ORDER BY id, weight",
      );
      await session.transaction(async () => {
        await session.run("MATCH (p:Part) WHERE p.doc = 'gone' DETACH DELETE p");
        expect(await anchorSurvivingEdges(session, connections)).toBeGreaterThanOrEqual(1);
      });
      await session.run("CHECKPOINT");
      const edges = await readEdgesBothWays(session, connections);
      expect(edges.forward).toHaveLength(101);
      expect(edges.backward).toEqual(edges.forward);
      const propsAfter = await session.run(
        "MATCH (p:Part)-[r:IN_DOC]->(d:Doc) WHERE p.doc = 'kept' RETURN p.id AS id, r.note AS note, r.weight AS weight ORDER BY id, weight",
      );
      expect(propsAfter).toEqual(propsBefore);
    } finally {
      await raw.close();
    }
  });

  it("covers every node group when a table outgrows one (131,072 nodes)", async () => {
    const raw = await openRaw(path.join(tmp.dir, "groups.kuzu"));
    try {
      const { session } = raw;
      const group = KUZU_NODE_GROUP_SIZE;
      await session.run("CREATE NODE TABLE Doc(id STRING PRIMARY KEY)");
      await session.run("CREATE NODE TABLE Part(id INT64 PRIMARY KEY, doc STRING)");
      await session.run("CREATE REL TABLE IN_DOC(FROM Part TO Doc)");
      await session.run("CREATE (:Doc {id: 'kept'}), (:Doc {id: 'gone'})");
      // Kept parts with edges at the start of the first and of the second node group; the deleted
      // ones in a CSR region of their own in the second group.
      await session.run(
        "UNWIND range(0, $last) AS i CREATE (:Part {id: i, doc: CASE WHEN i < 50 OR (i >= $g AND i < $g + 50) THEN 'kept' WHEN i >= $g + 1024 AND i < $g + 1030 THEN 'gone' ELSE 'filler' END})",
        {
          last: group + 1030,
          g: group,
        },
      );
      await session.run("MATCH (p:Part), (d:Doc) WHERE p.doc <> 'filler' AND d.id = p.doc CREATE (p)-[:IN_DOC]->(d)");
      await session.run("CHECKPOINT");
      const connections = await readRelConnections(session);
      await session.transaction(async () => {
        await session.run("MATCH (p:Part) WHERE p.doc = 'gone' DETACH DELETE p");
        await anchorSurvivingEdges(session, connections);
      });
      await session.run("CHECKPOINT");
      for (const id of [0, 49, group, group + 49]) {
        const [row] = await session.run("MATCH (p:Part)-[:IN_DOC]->(d:Doc) WHERE p.id = $id RETURN d.id AS doc", { id });
        expect(row?.doc, `part ${id}`).toBe("kept");
      }
      const [kept] = await session.run("MATCH (d:Doc)<-[:IN_DOC]-(p:Part) WHERE d.id = 'kept' RETURN count(p) AS n");
      expect(Number(kept?.n)).toBe(100);
    } finally {
      await raw.close();
    }
  });

  it("picks few edges that still reach every node group in both directions", () => {
    expect(coveringPairs([])).toEqual([]);
    expect(coveringPairs([{ fromGroup: 0, toGroup: 0 }])).toEqual([{ fromGroup: 0, toGroup: 0 }]);
    const pairs = [
      { fromGroup: 0, toGroup: 0 },
      { fromGroup: 0, toGroup: 1 },
      { fromGroup: 1, toGroup: 0 },
      { fromGroup: 1, toGroup: 1 },
      { fromGroup: 2, toGroup: 1 },
    ];
    const chosen = coveringPairs(pairs);
    expect(new Set(chosen.map((p) => p.fromGroup))).toEqual(new Set([0, 1, 2]));
    expect(new Set(chosen.map((p) => p.toGroup))).toEqual(new Set([0, 1]));
    expect(chosen.length).toBeLessThanOrEqual(3);
  });
});

describe("KuzuStore: deleting a document never takes other documents' edges with it", () => {
  let store: KuzuGraphStore | null = null;
  afterEach(async () => {
    await store?.close();
    store = null;
  });

  it("a document whose sections fill CSR regions of their own is deleted (and re-imported, and deleted) cleanly", { timeout: 120_000 }, async () => {
    const dbPath = path.join(tmp.dir, "library", "graph.kuzu");
    // The kept act: a chapter and 1,023 articles (the first CSR region exactly), with citations,
    // definitions and obligations so every relationship table has edges.
    const keptSections = makeSections("kept", [
      { label: "Article 1", text: "For the purposes of this Act: (1) 'operator' means a person running an archive." },
      { label: "Article 2", text: "The operator shall keep records of processing as set out in Article 1." },
      { label: "Article 3", text: "The operator shall report incidents to the authority within 24 hours, in accordance with Article 2." },
      ...fillerSpecs(1020),
    ]);
    expect(keptSections).toHaveLength(1024);
    const keptDoc = makeDocument("kept", keptSections.length);
    const keptGraph = buildDerivedGraph({ id: "kept", title: keptDoc.title, language: "en" }, keptSections, []);
    // The deleted act cites the kept one, so its REFERS_TO edges end in the kept act's region.
    const goneSections = makeSections(
      "gone",
      [1, 2, 3, 4, 5].map((n) => ({
        label: `Article ${n}`,
        text: `The provider shall notify the operator under Article ${(n % 3) + 1} of the ${keptDoc.title}; see Article ${n}.`,
      })),
    );
    const goneDoc = makeDocument("gone", goneSections.length, { title: "Provider Rules" });
    const goneGraph = buildDerivedGraph({ id: "gone", title: goneDoc.title, language: "en" }, goneSections, [
      { id: "kept", title: keptDoc.title, sections: keptSections },
    ]);

    store = createKuzuStore({ dbPath, minFreeBytes: 0 });
    await store.open();
    await store.insertDocument(keptDoc, keptSections, keptGraph);
    await store.close();

    const snapshot = async (): Promise<{ forward: string[]; backward: string[] }> => {
      const raw = await openRaw(dbPath);
      try {
        return await readEdgesBothWays(raw.session, await readRelConnections(raw.session));
      } finally {
        await raw.close();
      }
    };
    const before = await snapshot();
    const tables = new Set(before.forward.map((e) => e.split(" ")[0]));
    for (const rel of ["IN_DOCUMENT", "PART_OF", "NEXT", "CITES", "REFERS_TO", "DEFINED_IN", "MENTIONS", "STATED_IN", "HAS_SUBJECT"])
      expect(tables).toContain(rel);
    expect(before.backward).toEqual(before.forward);

    // Each close checkpoints: the deletions reach the disk exactly as the bug needs them to.
    for (let round = 0; round < 2; round++) {
      await store.open();
      await store.insertDocument(goneDoc, goneSections, goneGraph);
      await store.close();
      await store.open();
      expect(await store.deleteDocument("gone")).toBe(true);
      await store.close();
    }
    expect(await snapshot()).toEqual(before);
    expect((await checkStoreConsistency(dbPath)).problems).toEqual([]);

    await store.open();
    const found = await store.getSectionsByIds(keptSections.slice(0, 5).map((s) => s.id));
    expect(found.map((r) => r.document.id)).toEqual(["kept", "kept", "kept", "kept", "kept"]);
    expect((await store.searchSections("report incidents authority", 5)).map((h) => h.section.id)).toContain("kept:s3");
  });
});
