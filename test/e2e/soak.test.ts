import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runSoak } from "../../bench/lib/soak-run.ts";
import { regulationPdf } from "../../bench/lib/trust-fixtures.ts";
import { corpusPath, HAS_CORPUS } from "../helpers/corpus.ts";

// The soak's behaviour in the suite (the full 10,000 searches + 500 asks are
// `npm run bench:soak`; figures belong there): full-text, HNSW-vector and hybrid searches and asks
// in one engine process while a document is deleted and re-imported alongside. No call errors or
// hangs, no search comes back empty, and after all those index rebuilds every full-text ranking is
// exactly what it was before (vector rankings through the approximate HNSW index keep their top 10
// within a margin, see soak-run.ts). Real regulations when ../shared is present, generated ones otherwise.

const tmpDirs: string[] = [];

afterAll(async () => {
  for (const dir of tmpDirs) await rm(dir, { recursive: true, force: true });
});

async function generatedLibrary(): Promise<{ library: string[]; churnFile: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "cg-soak-fixtures-"));
  tmpDirs.push(dir);
  const library = path.join(dir, "archive-regulation.pdf");
  const churnFile = path.join(dir, "incident-rules.pdf");
  await writeFile(library, await regulationPdf());
  await writeFile(
    churnFile,
    await regulationPdf(
      [
        { n: 1, heading: "Incident reporting", body: ["Operators shall report a major incident to the authority within 24 hours."] },
        { n: 2, heading: "Testing", body: ["Operators shall test their recovery plans once a year."] },
      ],
      "Incident Rules",
    ),
  );
  return { library: [library], churnFile };
}

describe("soak: queries with imports alongside", () => {
  it("no error, hang, empty result or ranking drift", { timeout: 10 * 60_000 }, async () => {
    if (!HAS_CORPUS) console.warn("[soak] ../shared/corpus not found: soaking generated documents instead of the regulatory PDFs");
    const files = HAS_CORPUS
      ? {
          library: [corpusPath("regulatory/us_nist_sp800-30r1_risk_assessment.pdf"), corpusPath("regulatory/us_nist_sp800-66r1_hipaa_security_rule_guide.pdf")],
          churnFile: corpusPath("regulatory/it_allegato_E_tabella_lotti_A3_table.pdf"),
        }
      : await generatedLibrary();
    const summary = await runSoak({
      ...files,
      searches: 240,
      asks: 12,
      queries: HAS_CORPUS
        ? ["risk assessment likelihood and impact", "contingency plan data backup", "security awareness and training", "threat sources and events"]
        : ["personal data breach notification", "records of processing activities", "supervisory authority"],
      questions: HAS_CORPUS
        ? ["How should likelihood be determined in a risk assessment?", "What must a contingency plan include?"]
        : ["When must a personal data breach be notified?", "How long must records of processing be kept?"],
      vectorPath: "index",
      timeoutMs: 60_000,
      churnPauseMs: 250,
    });
    console.log(
      `[soak] ${summary.searches} searches + ${summary.asks} asks, ${summary.reimports} re-imports alongside; ` +
        `search p50 ${summary.searchP50Ms} ms; RSS ${summary.trace.map((t) => t.rssMb).join(" ")} MB`,
    );
    expect(summary.hang).toBeNull();
    expect(summary.firstErrors).toEqual([]);
    expect(summary.errors).toBe(0);
    expect(summary.searches).toBe(240);
    expect(summary.asks).toBe(12);
    expect(summary.reimports).toBeGreaterThanOrEqual(3);
    expect(summary.emptySearches).toBe(0);
    expect(summary.rankingDiffs).toEqual([]);
    expect(summary.rankingsStable).toBe(true);
    expect(summary.consistencyProblems).toEqual([]);
  });
});
