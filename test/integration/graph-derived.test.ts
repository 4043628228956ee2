import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDerivedGraph, buildDerivedGraphYielding } from "../../core/graph/build-derived-graph.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import type { Section } from "../../core/model/section-types.ts";

function section(documentId: string, ordinal: number, label: string, text: string): Section {
  const slug = label.toLowerCase().replace(/\W+/g, "-");
  return {
    id: `${documentId}:${slug}`,
    documentId,
    ordinal,
    kind: "article",
    label,
    heading: "",
    path: [label],
    parentId: null,
    level: 0,
    text,
    pageStart: 1,
    pageEnd: 1,
    spans: [],
  };
}

function record(id: string, title: string, sections: number): DocumentRecord {
  return {
    id,
    sha256: id.padEnd(64, "0"),
    file: `/x/${id}.pdf`,
    fileName: `${id}.pdf`,
    title,
    format: "pdf",
    language: "en",
    pages: 1,
    bytes: 1,
    sections,
    importedAt: new Date().toISOString(),
  };
}

const GDPR_TITLE = "Regulation (EU) 2016/679 of the European Parliament and of the Council (General Data Protection Regulation)";
const gdpr = [
  section(
    "gdpr",
    0,
    "Article 4",
    "For the purposes of this Regulation: (1) 'personal data' means any information relating to an identified or identifiable natural person;",
  ),
  section("gdpr", 1, "Article 33", "The controller shall notify the personal data breach to the supervisory authority referred to in Article 4."),
];
const act = [
  section(
    "act",
    0,
    "Article 1",
    "Operators shall keep records as set out in Article 2(1)(a) and report incidents under Article 33 of Regulation (EU) 2016/679.",
  ),
  section(
    "act",
    1,
    "Article 2",
    "For the purposes of this Act: (1) 'operator' means a person running an archive; (2) personal data shall be handled as laid down in Article 9.",
  ),
  section("act", 2, "Article 3", "Every operator shall appoint a contact point."),
];

describe("derived graph: cross-references and terms", () => {
  const graph = buildDerivedGraph({ id: "act", title: "Archives Act", language: "en" }, act, [{ id: "gdpr", title: GDPR_TITLE, sections: gdpr }]);
  const byFrom = (label: string) => graph.crossReferences.filter((r) => r.fromSectionId === `act:${label.toLowerCase().replace(/\W+/g, "-")}`);

  it("resolves a pinpoint citation to the article that holds it", () => {
    const ref = byFrom("Article 1").find((r) => r.raw.startsWith("Article 2"));
    expect(ref).toMatchObject({ toSectionId: "act:article-2", label: "Article 2", resolved: true });
    expect(ref?.pinpoint).toContain("(1)");
    expect(act[0]?.text.slice(ref?.start, ref?.end)).toBe(ref?.raw);
  });

  it("resolves a citation of another imported act to that act's section", () => {
    const ref = byFrom("Article 1").find((r) => r.label === "Article 33");
    expect(ref).toMatchObject({ toSectionId: "gdpr:article-33", toDocumentId: "gdpr", resolved: true });
  });

  it("keeps a citation of a section it does not hold, unresolved", () => {
    expect(byFrom("Article 2").find((r) => r.label === "Article 9")).toMatchObject({ toSectionId: null, resolved: false });
  });

  it("finds defined terms, where they are defined and where they are used", () => {
    const operator = graph.terms.find((t) => t.normalizedTerm === "operator");
    expect(operator?.sectionId).toBe("act:article-2");
    expect(operator?.mentionedIn).toEqual(expect.arrayContaining(["act:article-1", "act:article-3"]));
  });
  it("the import's yielding build gives the same graph and can be stopped between slices", async () => {
    const others = [{ id: "gdpr", title: GDPR_TITLE, sections: gdpr }];
    const yielding = await buildDerivedGraphYielding({ id: "act", title: "Archives Act", language: "en" }, act, others);
    expect(yielding).toEqual(graph);
    // 300 sections: more than one 10 ms slice, so the stop check runs and its error ends the build.
    const many = Array.from({ length: 300 }, (_, i) =>
      section("big", i, `Article ${i + 1}`, `Every operator shall keep records of processing ${i} and report incidents under Article ${i + 2}.`),
    );
    await expect(
      buildDerivedGraphYielding({ id: "big", title: "Big Act", language: "en" }, many, [], {
        afterYield: () => {
          throw new Error("cancelled");
        },
      }),
    ).rejects.toThrow("cancelled");
  });
});

describe("derived graph in the store", () => {
  let dir: string;
  let store: KuzuGraphStore;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-graph-"));
    store = createKuzuStore({ dbPath: path.join(dir, "graph.kuzu") });
    await store.open();
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("stores references and terms with the document, and a delete takes them along", async () => {
    const gdprGraph = buildDerivedGraph({ id: "gdpr", title: GDPR_TITLE, language: "en" }, gdpr, []);
    await store.insertDocument(record("gdpr", GDPR_TITLE, gdpr.length), gdpr, gdprGraph);
    const before = await store.stats();
    expect(before.terms).toBeGreaterThanOrEqual(1);
    expect((await store.getTermsByNormalized(["personal data"]))[0]?.sectionId).toBe("gdpr:article-4");

    const actGraph = buildDerivedGraph({ id: "act", title: "Archives Act", language: "en" }, act, [{ id: "gdpr", title: GDPR_TITLE, sections: gdpr }]);
    await store.insertDocument(record("act", "Archives Act", act.length), act, actGraph);
    const both = await store.stats();
    expect(both.crossReferences).toBe(before.crossReferences + actGraph.crossReferences.length);
    const intoGdpr = await store.getCrossReferences(["gdpr:article-33"]);
    expect(intoGdpr.some((r) => r.fromSectionId === "act:article-1" && r.resolved)).toBe(true);

    // Deleting the cited act leaves the citing one's reference in place, unresolved.
    expect(await store.deleteDocument("gdpr")).toBe(true);
    const after = await store.stats();
    expect(after.terms).toBe(both.terms - gdprGraph.terms.length);
    expect(after.crossReferences).toBe(actGraph.crossReferences.length);
    const dangling = (await store.getCrossReferences(["act:article-1"])).find((r) => r.label === "Article 33");
    expect(dangling).toMatchObject({ toSectionId: null, resolved: false });

    expect(await store.deleteDocument("act")).toBe(true);
    expect(await store.stats()).toMatchObject({
      documents: 0,
      sections: 0,
      crossReferences: 0,
      resolvedCrossReferences: 0,
      terms: 0,
      triplets: 0,
      entities: 0,
    });
  });
});

describe("rule triplet entities", () => {
  it("names things, not pronouns or determiners", async () => {
    const { buildRuleTriplets } = await import("../../core/graph/triplet-graph.ts");
    const sections = [
      section("d", 0, "Article 1", "Each supervisory authority shall publish its opinion without undue delay."),
      section("d", 1, "Article 2", "The controller shall inform them of the decision. The processor shall assist such controller."),
    ];
    const { triplets, entities } = buildRuleTriplets("d", sections, "en");
    const names = entities.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(["supervisory authority", "opinion", "controller", "processor"]));
    expect(names).not.toEqual(expect.arrayContaining(["them"]));
    for (const name of names) expect(name).not.toMatch(/^(each|its|such|them|there|this|that)\b/);
    // "them" is not an entity, but the controller's obligation is still recorded.
    expect(triplets.some((t) => t.subject === "controller" && t.predicate.includes("inform"))).toBe(true);
    expect(triplets.find((t) => t.subject === "processor")?.object).toBe("controller");
  });
});
