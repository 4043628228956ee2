import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkStoreConsistency } from "../../bench/lib/store-consistency.ts";
import type { Crosswalk } from "../../core/model/compare-schemas.ts";
import { createEngine, databasePath } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import type { JobProgress } from "../../core/model/job.ts";
import { PROTECTION_ACT, RESILIENCE_ACT, scriptedVerdictLlm, writeActPdf } from "../helpers/compare-fixtures.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";

// Comparing two regulations through the engine: the crosswalk's rows, reasons and
// rule-based flags on generated acts; a refresh that rewrites nothing; verdicts cached by the
// pair's content (a re-imported, edited side only costs its changed sections); exports citing
// document, paragraph and page; cancel; and comparisons leaving with either document.

let dir: string;
let engine: Engine;
let llm: ReturnType<typeof scriptedVerdictLlm>;
let actA = "";
let actB = "";
let fileB = "";

function row(crosswalk: Crosswalk, label: string): Crosswalk["rows"][number] {
  const found = crosswalk.rows.find((r) => r.aLabel === label);
  if (!found) throw new Error(`no row ${label}`);
  return found;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cg-compare-engine-"));
  const a = await writeActPdf(dir, "resilience.pdf", "Operational Resilience Act", RESILIENCE_ACT);
  fileB = await writeActPdf(dir, "protection.pdf", "Data Protection Act", PROTECTION_ACT);
  llm = scriptedVerdictLlm();
  engine = await createEngine({ dataDir: path.join(dir, "library"), embedder: hashEmbedder("hash-64", 64), llm });
  const results = await engine.importFiles([a, fileB]);
  expect(results.map((r) => r.status)).toEqual(["ok", "ok"]);
  actA = results[0]?.documentId ?? "";
  actB = results[1]?.documentId ?? "";
}, 120_000);

afterAll(async () => {
  await engine?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("engine: comparing two regulations", () => {
  it("aligns every article of A with its k best of B, with reasons and flags, examining about k·n pairs", async () => {
    const events: JobProgress[] = [];
    const result = await engine.compareDocuments(actA, actB, { k: 2, onProgress: (p) => events.push(p) });
    expect(result.comparison.id).toBe(`${actA}~${actB}`);
    expect(result.comparison.documentB?.fileName).toBe("protection.pdf");
    expect(result.comparison.status).toBe("complete");
    const crosswalk = await engine.getComparison(result.comparison.id);
    expect(crosswalk.rows.map((r) => r.aLabel)).toEqual(["Article 1", "Article 2", "Article 3", "Article 4", "Article 5", "Article 6"]);
    // At most three searches of k each (vectors, words, headings) plus citations, per section.
    expect(result.pairsExamined).toBeLessThanOrEqual(3 * 2 * crosswalk.rows.length);
    expect(events.at(-1)?.status).toBe("done");
    expect(new Set(events.map((e) => e.step))).toEqual(new Set(["queued", "reading", "neighbours", "scoring", "analysing", "storing", "done"]));

    const expected: Record<string, string> = { "Article 2": "Article 11", "Article 3": "Article 12", "Article 4": "Article 13", "Article 5": "Article 14" };
    for (const [a, b] of Object.entries(expected)) expect(row(crosswalk, a).matches[0]?.bLabel, a).toBe(b);
    for (const r of crosswalk.rows) {
      expect(r.matches.length).toBeLessThanOrEqual(2);
      expect(r.matches.map((m) => m.rank)).toEqual(r.matches.map((_, i) => i + 1));
      for (const m of r.matches) expect(m.score).toBeGreaterThanOrEqual(0);
    }
    const reporting = row(crosswalk, "Article 2").matches[0];
    expect(reporting?.reasons.sharedWords.length).toBeGreaterThan(0);
    expect(reporting?.reasons.foundBy.length).toBeGreaterThan(0);
    expect(Object.keys(reporting?.reasons.contributions ?? {})).toContain("lexical");
    // "within 4 hours" (A) against "within 72 hours" (B): A is stricter on time.
    expect(reporting?.flags).toContainEqual(expect.objectContaining({ kind: "deadline", stricter: "a" }));
    // "shall keep backup copies" (A) against "may keep backup copies" (B).
    expect(row(crosswalk, "Article 3").matches[0]?.flags).toContainEqual(expect.objectContaining({ kind: "modality", a: "shall", b: "may", stricter: "a" }));
    expect(reporting?.evidence.sentences.length).toBeGreaterThan(0);
    // The penetration-testing article has nothing to match in B.
    expect(row(crosswalk, "Article 6").unmatched).toBe(true);
    expect(row(crosswalk, "Article 2").unmatched).toBe(false);
    expect((await engine.listComparisons()).map((c) => c.id)).toContain(result.comparison.id);
  });

  it("rewrites nothing when compared again (rows already stored as computed)", async () => {
    const again = await engine.compareDocuments(actA, actB, { k: 2 });
    expect(again.rowsWritten).toBe(0);
    expect(again.rowsKept).toBe(6);
  });

  it("opens a pair side by side: obligations, matching sentences, graph", async () => {
    const crosswalk = await engine.getComparison(`${actA}~${actB}`);
    const r = row(crosswalk, "Article 2");
    const pair = await engine.getComparisonPair(crosswalk.comparison.id, r.aSectionId, r.matches[0]?.bSectionId ?? "");
    expect(pair.a.label).toBe("Article 2");
    expect(pair.b.label).toBe("Article 11");
    expect(pair.obligations.some((o) => o.a?.modality === "shall" && o.a.deadline?.includes("4 hours"))).toBe(true);
    expect(pair.obligations.some((o) => o.b?.deadline?.includes("72 hours"))).toBe(true);
    const [first] = pair.match.evidence.sentences;
    expect(pair.a.text.slice(first?.a.start, first?.a.end)).toMatch(/report/);
    expect(
      pair.subgraph.nodes
        .filter((n) => n.kind === "section")
        .map((n) => n.id)
        .sort(),
    ).toEqual([`section:${pair.a.id}`, `section:${pair.b.id}`].sort());
    expect(pair.subgraph.edges.some((e) => e.kind === "triplet")).toBe(true);
    await expect(engine.getComparisonPair(crosswalk.comparison.id, r.aSectionId, "nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("exports CSV and Markdown citing document, paragraph and page on both sides", async () => {
    const id = `${actA}~${actB}`;
    const csv = await engine.exportComparison(id, "csv");
    expect(csv.fileName).toBe("crosswalk-resilience-vs-protection.csv");
    const lines = csv.text
      .replace(/^\ufeff/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toMatch(/^A document,A provision,A heading,A citation,A page,rank,B document/);
    const reporting = lines.find((l) => l.startsWith("resilience.pdf,Article 2,") && l.includes(",1,protection.pdf,Article 11,"));
    // Cited at the paragraph the matching sentences sit in.
    expect(reporting).toMatch(/,Article 2\(\d\),p\. 1,/);
    expect(reporting).toMatch(/,Article 11\(\d\),p\. 1,/);
    const md = await engine.exportComparison(id, "md");
    expect(md.text).toContain("| A provision | Best matches in B | Score | Flags / verdict |");
    expect(md.text).toMatch(/— resilience\.pdf, Article 2\(\d\), p\. 1/);
    expect(md.text).toMatch(/— protection\.pdf, Article 11\(\d\), p\. 1/);
    expect(md.text).toContain("stricter on time");
  });

  it("asks the model once per stored pair (k·n, said before the first call) and caches each verdict", async () => {
    const plans: Array<{ pairs: number; cached: number; modelCalls: number }> = [];
    const before = llm.calls;
    const judged = await engine.compareDocuments(actA, actB, { k: 2, verdicts: true, onVerdictPlan: (p) => plans.push(p) });
    const pairs = (await engine.getComparison(judged.comparison.id)).rows.reduce((n, r) => n + r.matches.length, 0);
    expect(plans).toEqual([{ pairs, cached: 0, modelCalls: pairs }]);
    expect(judged.verdicts).toEqual({ pairs, cached: 0, modelCalls: pairs, failed: 0 });
    expect(llm.calls - before).toBe(pairs);
    expect(judged.comparison.llmModel).toBe("scripted-verdicts");
    const crosswalk = await engine.getComparison(judged.comparison.id);
    const verdict = row(crosswalk, "Article 2").matches[0]?.verdict;
    expect(verdict?.label).toBe("equivalent");
    // The quoted sentences are the sections' own, with their places.
    const a = await engine.getSection(row(crosswalk, "Article 2").aSectionId);
    expect(a?.text.slice(verdict?.quoteA.start, verdict?.quoteA.end)).toBe(verdict?.quoteA.text);
    const again = await engine.compareDocuments(actA, actB, { k: 2, verdicts: true });
    expect(again.verdicts).toEqual({ pairs, cached: pairs, modelCalls: 0, failed: 0 });
    expect(llm.calls - before).toBe(pairs);
  });

  it("after B is deleted and an edited B imported, only pairs touching the changed article cost model calls", async () => {
    const old = await engine.getComparison(`${actA}~${actB}`);
    expect((await engine.deleteDocument(actB)).deleted).toBe(true);
    expect(await engine.listComparisons()).toEqual([]);
    const edited = PROTECTION_ACT.map((a) =>
      a.n === 13 ? { ...a, body: ["1. A controller shall train its staff on data protection and information security every year."] } : a,
    );
    const fileB2 = await writeActPdf(dir, "protection-2.pdf", "Data Protection Act", edited);
    const [imported] = await engine.importFiles([fileB2]);
    const actB2 = imported?.documentId ?? "";
    actB = actB2;
    const before = llm.calls;
    const result = await engine.compareDocuments(actA, actB2, { k: 2, verdicts: true });
    const crosswalk = await engine.getComparison(result.comparison.id);
    const touched = crosswalk.rows.flatMap((r) => r.matches.filter((m) => m.bLabel === "Article 13")).length;
    expect(touched).toBeGreaterThan(0);
    expect(result.verdicts.modelCalls).toBe(touched);
    expect(llm.calls - before).toBe(touched);
    expect(result.verdicts.cached).toBe(result.verdicts.pairs - touched);
    // Matched rows whose matches did not involve the edited article find the same best match as before
    // (scores move a little: the edited article changes the weights of the words it holds).
    for (const r of crosswalk.rows) {
      const was = old.rows.find((o) => o.aLabel === r.aLabel);
      if (r.unmatched || r.matches.some((m) => m.bLabel === "Article 13") || was?.matches.some((m) => m.bLabel === "Article 13")) continue;
      expect(r.matches[0]?.bLabel, r.aLabel).toBe(was?.matches[0]?.bLabel);
      expect(r.matches[0]?.score ?? 0).toBeCloseTo(was?.matches[0]?.score ?? 0, 1);
    }
  });

  it("deleting B and importing the same file again brings the same crosswalk back, every verdict from the cache", async () => {
    const id = `${actA}~${actB}`;
    const before = await engine.getComparison(id);
    const file = (await engine.listDocuments()).find((d) => d.id === actB)?.file ?? "";
    expect((await engine.deleteDocument(actB)).deleted).toBe(true);
    await expect(engine.getComparison(id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    const [again] = await engine.importFiles([file]);
    expect(again?.documentId).toBe(actB);
    const calls = llm.calls;
    const result = await engine.compareDocuments(actA, actB, { k: 2, verdicts: true });
    expect(result.comparison.id).toBe(id);
    expect(result.verdicts).toEqual({ pairs: result.verdicts.pairs, cached: result.verdicts.pairs, modelCalls: 0, failed: 0 });
    expect(llm.calls).toBe(calls);
    const after = await engine.getComparison(id);
    expect(after.rows).toEqual(before.rows);
  });

  it("a cancel before the edges are written leaves the stored comparison as it was", async () => {
    const id = `${actA}~${actB}`;
    const before = await engine.getComparison(id);
    const controller = new AbortController();
    await expect(
      engine.compareDocuments(actA, actB, {
        k: 1,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.step === "analysing") controller.abort();
        },
      }),
    ).rejects.toMatchObject({ code: "CANCELLED" });
    const after = await engine.getComparison(id);
    expect(after.comparison.k).toBe(2);
    expect(after.rows).toEqual(before.rows);
  });

  it("compares one document with the whole library, and says when the library changed since", async () => {
    const result = await engine.compareDocuments(actA, null, { k: 2 });
    expect(result.comparison.id).toBe(`${actA}~library`);
    expect(result.comparison.documentB).toBeNull();
    expect(result.comparison.libraryDocuments.map((d) => d.id)).toEqual([actB]);
    expect(result.comparison.stale).toBeNull();
    const [third] = await engine.importFiles([fileB]);
    const listed = (await engine.listComparisons()).find((c) => c.id === `${actA}~library`);
    expect(listed?.stale).toMatch(/1 document\(s\) added/);
    await engine.deleteDocument(third?.documentId ?? "");
  });

  it("refuses a document compared with itself, an unknown document, and verdicts without a model", async () => {
    await expect(engine.compareDocuments(actA, actA)).rejects.toMatchObject({ code: "VALIDATION" });
    await expect(engine.compareDocuments(actA, "no-such-document")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(engine.getComparison("nope~nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
    const bare = await createEngine({ dataDir: path.join(dir, "bare"), embedder: null, llm: null });
    try {
      await expect(bare.compareDocuments("x", "y", { verdicts: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    } finally {
      await bare.close();
    }
  });

  it("deleting A removes every comparison of it; the library stays consistent", async () => {
    expect((await engine.listComparisons()).length).toBeGreaterThan(0);
    await engine.deleteDocument(actA);
    expect(await engine.listComparisons()).toEqual([]);
    await engine.close();
    const report = await checkStoreConsistency(databasePath(path.join(dir, "library")), { edgesBothWays: true });
    expect(report.problems).toEqual([]);
    engine = await createEngine({ dataDir: path.join(dir, "library"), embedder: hashEmbedder("hash-64", 64), llm });
  });
});
