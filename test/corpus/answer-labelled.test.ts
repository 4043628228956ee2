import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ANSWER_TYPES, type AnswerQuestion, baseLabel, loadAnswerQuestions, operativeWordsIn, paragraphSpan } from "../../bench/lib/answer-questions.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import type { Section } from "../../core/model/section-types.ts";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";

// The labelled auditor questions bench:answer measures answers against must themselves be right:
// each names a real provision of its PDF, as the engine labels it after an import, and operative
// words printed in that provision (in the named paragraph when there is one). Answer quality is
// not asserted here: those are bench figures (npm run bench:answer -- --set labelled).

let questions: AnswerQuestion[] = [];
let engine: Engine | null = null;
let dataDir = "";
/** File name → the sections the engine stored for it. */
const sectionsOf = new Map<string, Section[]>();

/** The provision's parts, in document order: long sections are stored as "§ 164.512 (part 2)" etc. */
function provisionSections(q: AnswerQuestion): Section[] {
  return (sectionsOf.get(q.document) ?? []).filter((s) => baseLabel(s.label) === q.provision.label).sort((a, b) => a.ordinal - b.ordinal);
}

describeCorpus("labelled answer questions (test/corpus/answer-questions.json)", () => {
  beforeAll(async () => {
    questions = await loadAnswerQuestions();
    const documents = [...new Set(questions.map((q) => q.document))].filter((d) => existsSync(corpusPath(`regulatory/${d}`)));
    dataDir = await mkdtemp(path.join(os.tmpdir(), "clausegraph-labelled-test-"));
    // No vectors and no model: only the stored sections are read, and the import stays quick.
    engine = await createEngine({ dataDir, embedder: null, llm: null });
    const results = await engine.importFiles(documents.map((d) => corpusPath(`regulatory/${d}`)));
    expect(results.filter((r) => r.status === "error").map((r) => `${r.file}: ${r.error?.message ?? ""}`)).toEqual([]);
    for (const doc of await engine.listDocuments()) sectionsOf.set(doc.fileName, await engine.getSections(doc.id));
  }, 600_000);

  afterAll(async () => {
    await engine?.close();
    if (dataDir !== "") await rm(dataDir, { recursive: true, force: true });
  });

  it("has at least 120 questions over the ten PDFs, 15 or more in Italian, every answer type", () => {
    expect(questions.length).toBeGreaterThanOrEqual(120);
    expect(questions.filter((q) => q.language === "it").length).toBeGreaterThanOrEqual(15);
    expect(new Set(questions.map((q) => q.document)).size).toBe(10);
    expect(new Set(questions.map((q) => q.answerType))).toEqual(new Set(ANSWER_TYPES));
  });

  it("names documents that exist in ../shared/corpus/regulatory", () => {
    expect(questions.filter((q) => !existsSync(corpusPath(`regulatory/${q.document}`))).map((q) => `${q.id}: ${q.document}`)).toEqual([]);
  });

  it("names provisions the engine labels as sections of that document", () => {
    const wrong = questions.filter((q) => provisionSections(q).length === 0).map((q) => `${q.id}: no section "${q.provision.label}" in ${q.document}`);
    expect(wrong).toEqual([]);
  });

  it("has operative words printed in the document and in the answering provision", () => {
    const wrong: string[] = [];
    for (const q of questions) {
      const all = (sectionsOf.get(q.document) ?? []).map((s) => `${s.heading}\n${s.text}`).join("\n");
      const inDocument = operativeWordsIn(all, q.operativeWords).missing;
      if (inDocument.length > 0) wrong.push(`${q.id}: not in ${q.document}: ${inDocument.join(" | ")}`);
      const inProvision = operativeWordsIn(
        provisionSections(q)
          .map((s) => s.text)
          .join("\n"),
        q.operativeWords,
      ).missing;
      if (inProvision.length > 0) wrong.push(`${q.id}: not in ${q.provision.label}: ${inProvision.join(" | ")}`);
    }
    expect(wrong).toEqual([]);
  });

  it("has every named paragraph printed in its provision, holding the operative words", () => {
    const wrong: string[] = [];
    for (const q of questions) {
      const paragraph = q.provision.paragraph;
      if (paragraph === undefined) continue;
      const text = provisionSections(q)
        .map((s) => s.text)
        .join("\n");
      const span = paragraphSpan(text, paragraph);
      if (span === null) {
        wrong.push(`${q.id}: paragraph ${paragraph} not found in ${q.provision.label}`);
        continue;
      }
      const missing = operativeWordsIn(text.slice(span.start, span.end), q.operativeWords).missing;
      if (missing.length > 0) wrong.push(`${q.id}: not in ${q.provision.label} ${paragraph}: ${missing.join(" | ")}`);
    }
    expect(wrong).toEqual([]);
  });
});
