import { expect, it } from "vitest";
import { loadObliqaQuestions, loadPassages, loadXrefQuestions } from "../../bench/lib/obliqa-corpus.ts";
import { adaptCorpus } from "../../bench/lib/obliqa-sections.ts";
import { corpusPath, describeCorpus } from "../helpers/corpus.ts";

// The retrieval benchmark's adapter: every gold passage of ObliQA and XRefRAG-ADGM must map to
// exactly one section, or the benchmark's figures would silently undercount.
describeCorpus("ObliQA corpus adapter", () => {
  it("maps every passage and every gold id to one section, with a sound hierarchy", async () => {
    const passages = await loadPassages(corpusPath("qa/obliqa/StructuredRegulatoryDocuments.zip"));
    expect(passages).toHaveLength(13_705);
    const corpus = adaptCorpus(passages);
    const sections = corpus.documents.flatMap((d) => d.sections);
    expect(sections).toHaveLength(13_705);
    const ids = new Set(sections.map((s) => s.id));
    for (const s of sections) if (s.parentId !== null) expect(ids.has(s.parentId)).toBe(true);
    const rule = sections.find((s) => s.documentId === "obliqa01" && s.label === "1.1.1.(1)");
    expect(rule?.path).toEqual(["1.", "1.1", "1.1.1", "1.1.1.(1)"]);
    const heading = sections.find((s) => s.documentId === "obliqa01" && s.label === "1.1");
    expect(heading?.heading).toBe("Jurisdiction");

    const dev = await loadObliqaQuestions(corpusPath("qa/obliqa/ObliQA_dev.json"));
    expect(dev.length).toBeGreaterThan(2_700);
    for (const q of dev) for (const key of q.gold) expect(corpus.sectionOfKey.has(key)).toBe(true);

    const uidToKey = new Map<string, string>();
    for (const p of passages) for (const uid of p.uids) uidToKey.set(uid, `${p.documentId}|${p.passageId}`);
    const xref = await loadXrefQuestions(corpusPath("qa/xrefrag/XRefRAG-ADGM-ALL-dev.jsonl"), uidToKey);
    expect(xref.length).toBeGreaterThan(80);
    for (const q of xref) {
      expect(q.source).toBeDefined();
      expect(q.target).toBeDefined();
    }
  });
});
