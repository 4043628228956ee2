import { describe, expect, it } from "vitest";
import type { AnswerLogRecord } from "../../core/model/answer-log-schema.ts";
import type { LibraryDocuments } from "../../core/answer/history/reopen-answer.ts";
import { renderWorkpaper } from "../../core/export/export-workpaper.ts";
import { type Workpaper, provisionOf, workpaperAnswer } from "../../core/export/workpaper-model.ts";

// Audit workpapers are built from answer-log records only: every field an auditor files (question,
// answer, each citation with its quoted sentence, document name and sha256, paragraph, page with
// its printed label, mode, model and its sha256, app version, date) and the same bytes every time.

const DOC_SHA = "a".repeat(64);
const MODEL_SHA = "b".repeat(64);

const RECORD: AnswerLogRecord = {
  version: 1,
  id: "6f1c2f4e-0000-4000-8000-000000000000",
  askedAt: "2026-11-25T06:01:02.345Z",
  question: "How quickly must a breach be notified?",
  mode: "llm",
  evidenceSectionIds: ["0123456789abcdef:article-33"],
  citedSectionIds: ["0123456789abcdef:article-33"],
  citations: [
    {
      key: "S1",
      sectionId: "0123456789abcdef:article-33",
      label: "GDPR Art. 33(1), p. 52",
      pageStart: 52,
      pageEnd: 52,
      documentId: "0123456789abcdef",
      file: "gdpr.pdf",
      documentSha256: DOC_SHA,
      printedPages: "51",
      spans: [{ start: 0, end: 40 }],
      quotes: ["The controller shall notify the breach without undue delay and within 72 hours."],
    },
  ],
  sentences: [{ text: "Within 72 hours.", citationKeys: ["S1"], supported: true }],
  model: { id: "qwen2.5-3b-instruct-q4_k_m", sha256: MODEL_SHA },
  timings: { retrieveMs: 10, promptTokens: 500, firstTokenMs: 100, totalMs: 900 },
  answer: "Within 72 hours [S1].",
  analysis: null,
  unsupportedSentences: 0,
  refused: false,
  appVersion: "0.1.0",
  answeredBy: { id: "qwen2.5-3b-instruct-q4_k_m", name: "Qwen2.5 3B Instruct" },
};

const NO_DOCUMENTS: LibraryDocuments = { live: new Map(), deleted: new Map() };

function paper(records: AnswerLogRecord[], documents: LibraryDocuments = NO_DOCUMENTS): Workpaper {
  return {
    kind: "conversation",
    id: "0f6a1c2e-0000-4000-8000-000000000001",
    title: records[0]?.question ?? "",
    exportedWith: "0.1.0",
    answers: records.map((r) => workpaperAnswer(r, documents)),
    gaps: [],
  };
}

describe("audit workpaper export", () => {
  it.each(["md", "html"] as const)("%s carries every required field", (format) => {
    const file = renderWorkpaper(paper([RECORD]), format);
    expect(file.fileName).toBe(`clausegraph-conversation-20261125-0f6a1c2e.${format}`);
    expect(file.mimeType).toContain(format === "md" ? "text/markdown" : "text/html");
    for (const field of [
      "How quickly must a breach be notified?",
      "Within 72 hours [S1].",
      "The controller shall notify the breach without undue delay and within 72 hours.",
      "gdpr.pdf",
      DOC_SHA,
      "GDPR Art. 33(1)",
      "printed page 51",
      "PDF page 52",
      "LLM",
      "qwen2.5-3b-instruct-q4_k_m",
      "Qwen2.5 3B Instruct",
      MODEL_SHA,
      "ClauseGraph 0.1.0",
      "2026-11-25 06:01:02 UTC",
      RECORD.id,
    ]) {
      expect(file.text, field).toContain(field);
    }
  });

  it("gives the same bytes for the same records, whatever the machine's clock", () => {
    const first = renderWorkpaper(paper([RECORD, { ...RECORD, id: "second", askedAt: "2026-11-25T06:05:00.000Z" }]), "md").text;
    const second = renderWorkpaper(paper([RECORD, { ...RECORD, id: "second", askedAt: "2026-11-25T06:05:00.000Z" }]), "md").text;
    expect(second).toBe(first);
    expect(renderWorkpaper(paper([RECORD]), "html").text).toBe(renderWorkpaper(paper([RECORD]), "html").text);
  });

  it("names documents of older records from the library or its deletion record, and says when nothing is known", () => {
    const older: AnswerLogRecord = {
      ...RECORD,
      citations: [{ key: "S1", sectionId: "0123456789abcdef:article-33", label: "GDPR Art. 33(1), p. 52", pageStart: 52, pageEnd: 52 }],
      appVersion: undefined,
    };
    const deleted: LibraryDocuments = {
      live: new Map(),
      deleted: new Map([
        [
          "0123456789abcdef",
          { documentId: "0123456789abcdef", fileName: "gdpr-old.pdf", title: "GDPR", sha256: DOC_SHA, deletedAt: "2026-11-20T00:00:00.000Z" },
        ],
      ]),
    };
    const md = renderWorkpaper(paper([older], deleted), "md").text;
    expect(md).toContain("gdpr-old.pdf");
    expect(md).toContain(DOC_SHA);
    expect(md).toContain("(version not recorded)");
    expect(renderWorkpaper(paper([older]), "md").text).toContain("Document sha256: not recorded");
  });

  it("escapes question and document text: no markup, no script", () => {
    const hostile = { ...RECORD, question: "<script>alert(1)</script> # [x](http://evil)" };
    const html = renderWorkpaper(paper([hostile]), "html").text;
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toMatch(/<script|src=|href=/i);
    const md = renderWorkpaper(paper([hostile]), "md").text;
    expect(md).not.toContain("<script>");
    expect(md).not.toContain("[x](http://evil)");
  });

  it("prints for paper: a print style sheet, and citations never split across pages", () => {
    const html = renderWorkpaper(paper([RECORD]), "html").text;
    expect(html).toContain("@media print");
    expect(html).toContain("break-inside: avoid");
  });

  it("prints a graph answer's rows as a table with each row's source, its summary above it", () => {
    const graph: AnswerLogRecord = {
      ...RECORD,
      mode: "extractive",
      question: "Which sections cite Article 19 of DORA?",
      answer: "2 sections cite DORA Art. 19. DORA Art. 11 — Response | recovery — Article 19 [S1] DORA Art. 58 — Review clause — Article 19 [S2]",
      sentences: [
        { text: "2 sections cite DORA Art. 19.", citationKeys: [], supported: true },
        { text: "DORA Art. 11 — Response | recovery — Article 19", citationKeys: ["S1"], supported: true },
        { text: "DORA Art. 58 — Review clause — Article 19", citationKeys: ["S2"], supported: true },
      ],
    };
    const table = {
      columns: ["Section", "Heading", "Citation"],
      rows: [
        { cells: ["DORA Art. 11", "Response | recovery", "Article 19"], key: "S1" },
        { cells: ["DORA Art. 58", "Review clause", "Article 19"], key: "S2" },
      ],
    };
    const filed: Workpaper = { ...paper([]), answers: [workpaperAnswer(graph, NO_DOCUMENTS, table)] };
    const md = renderWorkpaper(filed, "md").text;
    expect(md).toContain("2 sections cite DORA Art. 19.\n\n| Section | Heading | Citation | Source |\n| --- | --- | --- | --- |\n");
    // A pipe in a cell cannot split the row.
    expect(md).toContain("| DORA Art. 11 | Response \\| recovery | Article 19 | [S1] |");
    expect(md).not.toContain("Article 19 [S1] DORA Art. 58");
    const html = renderWorkpaper(filed, "html").text;
    expect(html).toContain("<th>Source</th>");
    expect(html).toContain("<tr><td>DORA Art. 58</td><td>Review clause</td><td>Article 19</td><td>[S2]</td></tr>");
    // Without a kept table the answer is printed as it was.
    expect(workpaperAnswer(graph, NO_DOCUMENTS).answer).toBe(graph.answer);
  });

  it("takes the page off a citation label to name the paragraph", () => {
    expect(provisionOf("DORA Art. 19(4), pp. 41–43")).toBe("DORA Art. 19(4)");
    expect(provisionOf("GDPR Art. 33(1), p. 52")).toBe("GDPR Art. 33(1)");
    expect(provisionOf("§ 164.310(c)")).toBe("§ 164.310(c)");
  });
});
