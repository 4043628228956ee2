import { describe, expect, it } from "vitest";
import type { AnswerLogRecord } from "../../core/model/answer-log-schema.ts";
import { answerLogRecord } from "../../core/answer/history/answer-log.ts";
import { askResultSchema } from "../../core/model/answer-schemas.ts";
import type { AskResult } from "../../core/model/answer-types.ts";
import { type LibraryDocuments, deletedDocumentNotes, reopenedResult } from "../../core/answer/history/reopen-answer.ts";

// A reopened answer is rebuilt from its answer-log record: what the view shows (sentences and
// their roles, the verdict, the model's name, a notice, citations with their printed pages and
// highlights) comes back unchanged; display values this version no longer knows are dropped
// rather than failing the whole conversation; deleted documents are named in words.

const RESULT: AskResult = {
  answer: "Yes, within 72 hours [S1].",
  mode: "llm",
  citations: [
    {
      key: "S1",
      sectionId: "0123456789abcdef:article-33",
      documentId: "0123456789abcdef",
      file: "gdpr.pdf",
      label: "GDPR Art. 33(1), p. 52",
      pageStart: 52,
      pageEnd: 52,
      printedPages: "51",
      spans: [{ start: 3, end: 18 }],
    },
  ],
  sentences: [{ text: "Yes, within 72 hours.", citationKeys: ["S1"], supported: true, evidence: [{ key: "S1", start: 3, end: 18 }], role: "lead" }],
  triplets: [],
  subgraph: { nodes: [], edges: [] },
  analysis: "The controller notifies.",
  verdict: "yes",
  model: { id: "qwen", name: "Qwen2.5 3B" },
  notice: { reason: "token-limit", quoted: false, message: "The model's answer was cut at 512 tokens." },
  timings: { retrieveMs: 1, promptTokens: 10, firstTokenMs: 5, totalMs: 20 },
};

const LIBRARY: LibraryDocuments = {
  live: new Map([["0123456789abcdef", { id: "0123456789abcdef", fileName: "gdpr.pdf", title: "GDPR", sha256: "a".repeat(64) }]]),
  deleted: new Map(),
};

function record(): AnswerLogRecord {
  const sections = new Map([["0123456789abcdef:article-33", { text: "An Within 72 hours, notify.", documentSha256: "a".repeat(64) }]]);
  return answerLogRecord(
    "Must a breach be notified?",
    ["0123456789abcdef:article-33"],
    RESULT,
    { id: "qwen", sha256: null },
    new Date("2026-11-25T06:00:00Z"),
    { sections, appVersion: "0.1.0" },
  );
}

describe("reopened answers", () => {
  it("come back exactly as shown, with the log's id", () => {
    const reopened = reopenedResult(record(), LIBRARY);
    const { triplets, subgraph, timings, ...shown } = RESULT;
    expect(reopened).toMatchObject({ ...shown, logId: expect.any(String) });
    expect(reopened.timings).toEqual(timings);
    expect(triplets).toEqual(reopened.triplets);
    expect(subgraph).toEqual(reopened.subgraph);
    expect(askResultSchema.safeParse(reopened).success).toBe(true);
  });

  it("records the quoted sentences from the citation's spans", () => {
    expect(record().citations[0]?.quotes).toEqual(["Within 72 hours"]);
  });

  it("drop display values this version does not know instead of failing", () => {
    const old = { ...record(), verdict: "perhaps", sentences: [{ text: "x", citationKeys: ["S1"], supported: true, role: "aside" }] };
    const reopened = reopenedResult(old, LIBRARY);
    expect(reopened.verdict).toBeUndefined();
    expect(reopened.sentences[0]?.role).toBeUndefined();
    expect(askResultSchema.safeParse(reopened).success).toBe(true);
  });

  it("name deleted documents in words, with the date when it is known", () => {
    expect(deletedDocumentNotes(record(), LIBRARY)).toEqual([]);
    const gone: LibraryDocuments = {
      live: new Map(),
      deleted: new Map([
        [
          "0123456789abcdef",
          { documentId: "0123456789abcdef", fileName: "gdpr.pdf", title: "GDPR", sha256: "a".repeat(64), deletedAt: "2026-11-24T10:00:00.000Z" },
        ],
      ]),
    };
    expect(deletedDocumentNotes(record(), gone)).toEqual(["This answer cites gdpr.pdf, which was deleted from the library on 2026-11-24."]);
    expect(deletedDocumentNotes(record(), { live: new Map(), deleted: new Map() })).toEqual(["This answer cites gdpr.pdf, which is no longer in the library."]);
  });
});
