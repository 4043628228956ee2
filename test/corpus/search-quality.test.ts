import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";

// Questions phrased as an auditor would ask them (not the document's wording), each with the
// section a lawyer would cite. BM25 alone must put that section in the top 10.
const QUESTIONS: Array<{ q: string; file: string; label: string }> = [
  { q: "how quickly must a personal data breach be notified to the supervisory authority?", file: "eu_gdpr", label: "Article 33" },
  { q: "reporting major ICT-related incidents to the competent authority", file: "eu_dora", label: "Article 19" },
  { q: "who has to appoint a data protection officer?", file: "eu_gdpr", label: "Article 37" },
  { q: "limit system access to authorized users", file: "us_nist_sp800-171", label: "3.1.1" },
  { q: "importo della garanzia provvisoria", file: "it_disciplinare", label: "Par. 10" },
  { q: "right to have personal data erased without undue delay", file: "eu_gdpr", label: "Article 17" },
  { q: "threat-led penetration testing", file: "eu_dora", label: "Article 26" },
  { q: "security management process: risk analysis, risk management and sanction policy", file: "us_hhs_hipaa", label: "§ 164.308" },
  { q: "encryption and decryption of electronic protected health information", file: "us_hhs_hipaa", label: "§ 164.312" },
  { q: "key contractual provisions with ICT third-party service providers", file: "eu_dora", label: "Article 30" },
  { q: "transferring personal data to a third country without an adequacy decision", file: "eu_gdpr", label: "Article 49" },
  { q: "amount of civil money penalties for HIPAA violations", file: "us_hhs_hipaa", label: "§ 160.404" },
];

const BEYOND_BM25: Array<{ q: string; file: string; label: string }> = [
  { q: "What is a business associate under HIPAA?", file: "us_hhs_hipaa", label: "§ 160.103" },
  { q: "What fines can be imposed for breaking data protection rules?", file: "eu_gdpr", label: "Article 83" },
  { q: "Who supervises critical IT service providers to banks?", file: "eu_dora", label: "Article 31" },
];

describeCorpus("search: paraphrased auditor questions over the regulatory corpus", () => {
  let dir: string;
  let engine: Engine;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-search-"));
    engine = await createEngine({ dataDir: dir });
    const folder = corpusPath("regulatory");
    const files = (await readdir(folder)).filter((f) => f.endsWith(".pdf")).map((f) => path.join(folder, f));
    const results = await engine.importFiles(files);
    expect(results.every((r) => r.status === "ok")).toBe(true);
  }, 600_000);

  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  const rankOf = (results: Array<{ file: string; label: string }>, file: string, label: string): number =>
    results.findIndex((r) => path.basename(r.file).startsWith(file) && (r.label === label || r.label.startsWith(`${label} (part`)));

  it.each(QUESTIONS)("$q → $label", async ({ q, file, label }) => {
    const { results } = await engine.search(q, { k: 10 });
    const rank = rankOf(results, file, label);
    expect(rank, results.map((r) => `${r.label} ${path.basename(r.file)}`).join("\n")).toBeGreaterThanOrEqual(0);
    const hit = results[rank];
    expect(hit?.pageStart).toBeGreaterThan(0);
  });

  // Lay wording, a definition question, a paraphrase: BM25 alone does not reach the section,
  // the full pipeline (vectors, triplets, graph expansion with defined terms, re-scoring) does.
  it.each(BEYOND_BM25)("beyond BM25: $q → $label", async ({ q, file, label }) => {
    const bm25Only = await engine.search(q, { k: 10, stages: { sectionVectors: false, tripletVectors: false, graphExpansion: false, rescore: false } });
    expect(rankOf(bm25Only.results, file, label)).toBe(-1);
    const { results } = await engine.search(q, { k: 10 });
    expect(rankOf(results, file, label), results.map((r) => `${r.label} ${path.basename(r.file)}`).join("\n")).toBeGreaterThanOrEqual(0);
  });
});
