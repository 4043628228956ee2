import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEngine, databasePath } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import type { Section } from "../../core/model/section-types.ts";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";

const FILES = {
  dora: "regulatory/eu_dora_2022-2554_OJ_L333.pdf",
  gdpr: "regulatory/eu_gdpr_2016-679_council_first_reading_position_5419-16.pdf",
  hipaa: "regulatory/us_hhs_hipaa_admin_simplification_45cfr160_162_164.pdf",
  guide: "regulatory/us_nist_sp800-66r1_hipaa_security_rule_guide.pdf",
};

describeCorpus("model-free knowledge graph on real regulations", () => {
  let dir: string;
  let store: KuzuGraphStore;
  let engine: Engine;
  const ids: Record<string, string> = {};

  async function sectionByLabel(doc: keyof typeof FILES, label: string): Promise<Section> {
    const found = (await engine.getSections(ids[doc] ?? "")).find((s) => s.label === label);
    if (!found) throw new Error(`${label} not found in ${doc}`);
    return found;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-graph-corpus-"));
    store = createKuzuStore({ dbPath: databasePath(dir) });
    engine = await createEngine({ dataDir: dir, store });
    // The regulation first, then the guide that cites it: citations resolve into imported documents.
    const results = await engine.importFiles(Object.values(FILES).map(corpusPath));
    for (const [i, key] of Object.keys(FILES).entries()) ids[key] = results[i]?.documentId ?? "";
    expect(results.every((r) => r.status === "ok")).toBe(true);
  }, 600_000);

  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("links DORA Article 19 to the articles it cites, and keeps citations of other acts unresolved", async () => {
    const a19 = await sectionByLabel("dora", "Article 19");
    const a20 = await sectionByLabel("dora", "Article 20");
    const refs = (await store.getCrossReferences([a19.id])).filter((r) => r.fromSectionId === a19.id);
    expect(refs.some((r) => r.toSectionId === a20.id && r.resolved)).toBe(true);
    const external = refs.find((r) => r.raw.includes("Directive (EU) 2022/2555"));
    expect(external).toMatchObject({ toSectionId: null, resolved: false });
    for (const r of refs) expect(a19.text.slice(r.start, r.end)).toBe(r.raw);
  });

  it("finds GDPR Article 4's definition of 'personal data' and the sections using it", async () => {
    const a4 = await sectionByLabel("gdpr", "Article 4");
    const [term] = (await store.getTermsByNormalized(["personal data"])).filter((t) => t.documentId === ids.gdpr);
    expect(term?.sectionId).toBe(a4.id);
    expect(term?.definition).toMatch(/identified or identifiable natural person/);
    expect(term?.mentionedIn.length).toBeGreaterThan(10);
  });

  it("resolves the HIPAA guide's citations into the HIPAA regulation's § 164.308", async () => {
    const s308 = await sectionByLabel("hipaa", "§ 164.308");
    const fromGuide = (await store.getCrossReferences([s308.id])).filter((r) => r.documentId === ids.guide);
    expect(fromGuide.length).toBeGreaterThan(0);
    expect(fromGuide.every((r) => r.toDocumentId === ids.hipaa && r.resolved)).toBe(true);
  });

  it("reports the graph in stats, and deleting a document removes its part of the graph", async () => {
    const before = await engine.stats();
    expect(before.crossReferences).toBeGreaterThan(1000);
    expect(before.resolvedCrossReferences).toBeGreaterThan(500);
    expect(before.terms).toBeGreaterThan(100);
    const guideSections = (await engine.getSections(ids.guide ?? "")).map((s) => s.id);
    const intoHipaa = async () => (await store.getCrossReferences(guideSections)).filter((r) => r.toDocumentId === ids.hipaa);
    const resolvedBefore = await intoHipaa();
    expect(resolvedBefore.some((r) => r.resolved)).toBe(true);
    expect((await engine.deleteDocument(ids.hipaa ?? "")).deleted).toBe(true);
    const after = await engine.stats();
    expect(after.terms).toBeLessThan(before.terms);
    expect(after.crossReferences).toBeLessThan(before.crossReferences);
    // The guide's citations stay, pointing nowhere until the regulation is imported again.
    const unresolvedAfter = await intoHipaa();
    expect(unresolvedAfter).toHaveLength(resolvedBefore.length);
    expect(unresolvedAfter.every((r) => !r.resolved && r.toSectionId === null)).toBe(true);
  });
});
