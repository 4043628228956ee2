import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerLogPath, answerLogRecord, createAnswerLogWriter, readAnswerLog } from "../../core/answer/history/answer-log.ts";
import { answerLogRecordSchema } from "../../core/model/answer-log-schema.ts";
import { REFUSAL, type AskResult } from "../../core/model/answer-types.ts";
import { createEngine } from "../../core/engine.ts";
import type { LlmClient, LlmGenerateOptions } from "../../core/model/llm-client.ts";

// The answer log is the audit trail of a library: every answer appended as one JSON line, fsynced,
// readable after a crash that tore the last line, and never interleaved by concurrent answers.

function result(answer: string, sectionIds: string[]): AskResult {
  return {
    answer,
    mode: "extractive",
    citations: sectionIds.map((sectionId, i) => ({
      key: `S${i + 1}`,
      sectionId,
      documentId: "doc",
      file: "doc.pdf",
      label: `Doc Art. ${i + 1}, p. 2`,
      pageStart: 2,
      pageEnd: 2,
    })),
    sentences: [{ text: answer, citationKeys: sectionIds.map((_, i) => `S${i + 1}`), supported: sectionIds.length > 0 }],
    triplets: [],
    subgraph: { nodes: [], edges: [] },
    timings: { retrieveMs: 3.5, promptTokens: 0, firstTokenMs: null, totalMs: 9.25 },
  };
}

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cg-answer-log-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("answer log file", () => {
  it("appends records and reads back the newest, oldest first, with since and limit", async () => {
    const data = path.join(dir, "basic");
    const writer = createAnswerLogWriter(data);
    for (let i = 0; i < 5; i++) {
      await writer.append(answerLogRecord(`question ${i}`, ["doc:a", "doc:b"], result(`answer ${i}.`, ["doc:a"]), null, new Date(Date.UTC(2025, 0, 1 + i))));
    }
    const all = await readAnswerLog(data);
    expect(all.map((r) => r.question)).toEqual(["question 0", "question 1", "question 2", "question 3", "question 4"]);
    expect(all[0]).toMatchObject({
      evidenceSectionIds: ["doc:a", "doc:b"],
      citedSectionIds: ["doc:a"],
      mode: "extractive",
      model: null,
      unsupportedSentences: 0,
      refused: false,
    });
    expect((await readAnswerLog(data, { limit: 2 })).map((r) => r.question)).toEqual(["question 3", "question 4"]);
    expect((await readAnswerLog(data, { since: "2025-01-04T00:00:00Z" })).map((r) => r.question)).toEqual(["question 3", "question 4"]);
    expect(await readAnswerLog(path.join(dir, "never-written"))).toEqual([]);
    // One line per record, each a valid record on its own.
    const lines = (await readFile(answerLogPath(data), "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(answerLogRecordSchema.safeParse(JSON.parse(line)).success).toBe(true);
  });

  it("marks refusals and unsupported sentences", () => {
    const refusal = answerLogRecord(
      "about HIPAA?",
      ["doc:a"],
      {
        ...result(REFUSAL, []),
        sentences: [{ text: REFUSAL, citationKeys: [], supported: true }],
        analysis: "None of the imported documents mentions “HIPAA”.",
      },
      null,
    );
    expect(refusal).toMatchObject({
      refused: true,
      citedSectionIds: [],
      unsupportedSentences: 0,
      analysis: "None of the imported documents mentions “HIPAA”.",
    });
    const flagged = answerLogRecord(
      "q",
      ["doc:a"],
      { ...result("x [S1].", ["doc:a"]), sentences: [{ text: "x", citationKeys: ["S1"], supported: false }] },
      { id: "m", sha256: null },
    );
    expect(flagged).toMatchObject({ refused: false, unsupportedSentences: 1, model: { id: "m", sha256: null } });
  });

  it("skips a torn last line and starts the next record on a fresh line", async () => {
    const data = path.join(dir, "torn");
    await createAnswerLogWriter(data).append(answerLogRecord("before the crash", [], result("a.", ["doc:a"]), null));
    // A crash in the middle of the next append leaves half a line without its newline.
    await appendFile(answerLogPath(data), '{"version":1,"id":"x","askedAt":"2025-');
    const skipped: number[] = [];
    expect((await readAnswerLog(data, { onSkipped: (n) => skipped.push(n) })).map((r) => r.question)).toEqual(["before the crash"]);
    expect(skipped).toEqual([2]);

    // The next process appends after the torn line, not onto it.
    await createAnswerLogWriter(data).append(answerLogRecord("after the restart", [], result("b.", ["doc:b"]), null));
    expect((await readAnswerLog(data)).map((r) => r.question)).toEqual(["before the crash", "after the restart"]);
  });

  it("skips lines that are JSON but not records", async () => {
    const data = path.join(dir, "foreign");
    await createAnswerLogWriter(data).append(answerLogRecord("kept", [], result("a.", ["doc:a"]), null));
    await appendFile(answerLogPath(data), '{"version":99}\n[]\n');
    await createAnswerLogWriter(data).append(answerLogRecord("also kept", [], result("b.", ["doc:b"]), null));
    expect((await readAnswerLog(data)).map((r) => r.question)).toEqual(["kept", "also kept"]);
  });

  it("writes concurrent appends as whole lines, none lost", async () => {
    const data = path.join(dir, "concurrent");
    const writer = createAnswerLogWriter(data);
    const other = createAnswerLogWriter(data);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? writer : other).append(answerLogRecord(`q${i}`, [`doc:${i}`], result(`a ${"long ".repeat(i * 50)}.`, [`doc:${i}`]), null)),
      ),
    );
    const records = await readAnswerLog(data, { limit: 1000, onSkipped: (n) => expect.fail(`line ${n} is not a record`) });
    expect(records.map((r) => r.question).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `q${i}`).sort());
  });

  it("rejects an unparseable since date", async () => {
    await expect(readAnswerLog(dir, { since: "not a date" })).rejects.toMatchObject({ code: "VALIDATION" });
  });
});

/** A model that answers every question with the first source key it was given. */
function scriptedLlm(): LlmClient & { closed: number } {
  const llm = {
    modelId: "scripted-test-model",
    contextSize: 4096,
    closed: 0,
    async generate(options: LlmGenerateOptions) {
      const key = /key="\[(S\d+)\]"/.exec(options.prompt)?.[1] ?? "S1";
      const text = `Answer: Operators shall notify the authority of a major incident within 24 hours [${key}].\nAnalysis: Fully answered.\nSources: ${key}`;
      options.onToken?.(text);
      return { text, promptTokens: 100, completionTokens: 20, firstTokenMs: 1, totalMs: 2, stopReason: "end" as const };
    },
    countTokens: (text: string) => Math.ceil(text.length / 4),
    async close() {
      llm.closed += 1;
    },
  };
  return llm;
}

describe("engine answer log", () => {
  it("records every ask, concurrent ones included, with evidence, citations and the model", async () => {
    const data = path.join(dir, "engine");
    const source = path.join(dir, "rules.txt");
    await writeFile(
      source,
      "Incident rules\n\nArticle 1\nIncident notification\nOperators shall notify the authority of a major incident within 24 hours.\n\nArticle 2\nRecords\nOperators shall keep records of every incident for five years.\n",
    );
    const engine = await createEngine({ dataDir: data, embedder: null, llm: null });
    try {
      expect((await engine.importFiles([source]))[0]?.status).toBe("ok");
      const [a, b] = await Promise.all([
        engine.ask("Within how many hours must operators notify a major incident?"),
        engine.ask("How long must operators keep records of incidents?"),
      ]);
      const records = await engine.answerLog();
      expect(records).toHaveLength(2);
      const byQuestion = new Map(records.map((r) => [r.question, r]));
      const first = byQuestion.get("Within how many hours must operators notify a major incident?");
      expect(first).toMatchObject({ mode: "extractive", model: null, answer: a?.answer, refused: false });
      expect(first?.citedSectionIds).toEqual([...new Set(a?.citations.map((c) => c.sectionId))]);
      expect(first?.evidenceSectionIds.length).toBeGreaterThanOrEqual(first?.citedSectionIds.length ?? 0);
      expect(first?.citedSectionIds.every((id) => first.evidenceSectionIds.includes(id))).toBe(true);
      expect(byQuestion.get("How long must operators keep records of incidents?")?.answer).toBe(b?.answer);
      expect(Date.parse(first?.askedAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
      expect(await engine.answerLog({ limit: 1 })).toHaveLength(1);
    } finally {
      await engine.close();
    }

    // With a model the record names it; the caller's model has no import record, so no hash.
    const llm = scriptedLlm();
    const withModel = await createEngine({ dataDir: data, embedder: null, llm });
    try {
      const answer = await withModel.ask("Within how many hours must operators notify a major incident?");
      expect(answer.mode).toBe("llm");
      const last = (await withModel.answerLog({ limit: 1 }))[0];
      expect(last).toMatchObject({ mode: "llm", model: { id: "scripted-test-model", sha256: null }, timings: { promptTokens: 100 } });
      expect(await withModel.answerLog()).toHaveLength(3);
    } finally {
      await withModel.close();
    }
    // The caller owns its model: the engine never closes it.
    expect(llm.closed).toBe(0);
  });
});
