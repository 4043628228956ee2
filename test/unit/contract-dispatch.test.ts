import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHANNELS, LIMITS } from "../../core/contract/contract.ts";
import type { Channel, Result, WireEvent } from "../../core/contract/contract.ts";
import { createDispatcher } from "../../core/contract/dispatch.ts";
import type { Dispatcher } from "../../core/contract/dispatch.ts";
import { ClauseGraphError } from "../../core/model/errors.ts";
import { createUploadStore, uploadsDir } from "../../core/host/upload-store.ts";
import { COMPARISON, CONVERSATION, createFakeEngine, DOC, LOG_RECORD, okImport, SECTION } from "../helpers/contract-fake-engine.ts";
import type { FakeEngine } from "../helpers/contract-fake-engine.ts";

const HUGE = "x".repeat(LIMITS.uploadBase64 + 10);

/** A valid payload per channel: every malformed variant below is derived from or beside it. */
const GOOD: Record<Channel, Record<string, unknown>> = {
  "documents.import": { files: ["/tmp/a.pdf"], password: "pw" },
  "documents.upload": { files: [{ name: "a.txt", bytesBase64: Buffer.from("hello").toString("base64") }] },
  "documents.list": {},
  "ocr.preference": {},
  "ocr.setPreference": { mode: "auto", language: "ita" },
  "documents.delete": { id: DOC.id },
  "documents.aliases": { id: DOC.id, aliases: ["GDPR", "the privacy regulation"] },
  search: { query: "personal data", k: 5 },
  "graph.neighbors": { nodeId: "section:doc:article-1" },
  "graph.entityFacts": { nodeId: "entity:doc:e:controller" },
  ask: { question: "who must notify a breach?", k: 5, askId: "ask-1" },
  "documents.source": { id: "doc" },
  "sections.get": { id: SECTION.id },
  "sections.list": { documentId: DOC.id },
  stats: {},
  "library.check": {},
  "library.repair": { jobId: "repair-1" },
  "jobs.cancel": { jobId: "job-1" },
  "models.list": {},
  "models.select": { modelId: "qwen2.5-1.5b-instruct-q4_k_m", threads: 2, contextSize: 2048 },
  "models.import": { path: "/tmp/model.gguf" },
  "models.limits": { maxTokens: 256, maxSeconds: 60 },
  "answers.log": { limit: 10 },
  "triplets.extract": { documentIds: [DOC.id], jobId: "extract-1" },
  "conversations.create": {},
  "conversations.list": { query: "breach notify" },
  "conversations.get": { id: CONVERSATION.id },
  "conversations.delete": { id: CONVERSATION.id },
  "export.answer": { logId: LOG_RECORD.id, format: "html" },
  "export.conversation": { id: CONVERSATION.id, format: "md" },
  "compare.run": { documentA: DOC.id, documentB: null, k: 3, verdicts: false, jobId: "compare-1" },
  "compare.list": {},
  "compare.get": { id: COMPARISON.id },
  "compare.pair": { id: COMPARISON.id, aSectionId: SECTION.id, bSectionId: SECTION.id },
  "compare.export": { id: COMPARISON.id, format: "csv" },
  "compare.delete": { id: COMPARISON.id },
};

const NON_OBJECTS: unknown[] = [null, undefined, 0, 42, "text", true, [], [GOOD], () => 1, Symbol("s"), 10n];

/** Wrong types, missing fields and oversized strings, per channel. */
const MALFORMED: Record<Channel, unknown[]> = {
  "documents.import": [
    {},
    { files: [] },
    { files: "/tmp/a.pdf" },
    { files: [42] },
    { files: [""] },
    { files: [null] },
    { files: ["/tmp/a.pdf"], password: 1234 },
    { files: ["x".repeat(LIMITS.path + 1)] },
    { files: Array.from({ length: LIMITS.filesPerImport + 1 }, (_, i) => `/tmp/${i}.pdf`) },
    { files: ["/tmp/a.pdf"], password: HUGE },
    { files: ["/tmp/a.pdf"], ocr: "sometimes" },
    { files: ["/tmp/a.pdf"], ocrLanguage: "deu" },
  ],
  "ocr.preference": [{ mode: "auto" }, null, "x"],
  "ocr.setPreference": [
    {},
    { mode: "always", language: "auto" },
    { mode: "auto", language: "fra" },
    { mode: "ask" },
    { mode: "ask", language: "auto", extra: 1 },
  ],
  "documents.upload": [
    {},
    { files: [] },
    { files: [{ name: "a.pdf" }] },
    { files: [{ bytesBase64: "AAAA" }] },
    { files: [{ name: "../../etc/passwd", bytesBase64: "AAAA" }] },
    { files: [{ name: "dir/a.pdf", bytesBase64: "AAAA" }] },
    { files: [{ name: "..\\a.pdf", bytesBase64: "AAAA" }] },
    { files: [{ name: "..", bytesBase64: "AAAA" }] },
    { files: [{ name: "a\0.pdf", bytesBase64: "AAAA" }] },
    { files: [{ name: "a.pdf", bytesBase64: "not base64!!" }] },
    { files: [{ name: "a.pdf", bytesBase64: 12 }] },
    { files: [{ name: "a.pdf", bytesBase64: "AAAA", path: "/etc" }] },
    { files: [{ name: "x".repeat(LIMITS.fileName + 1), bytesBase64: "AAAA" }] },
    { files: [{ name: "a.pdf", bytesBase64: HUGE }] },
  ],
  "documents.list": [{ all: true }],
  "library.check": [{ repair: true }],
  "library.repair": [{ jobId: "../x" }, { jobId: 3 }, { documentId: "a" }],
  "documents.delete": [{}, { id: "" }, { id: 7 }, { id: null }, { id: ["a"] }, { id: HUGE }, { idOrFile: "a" }],
  "documents.aliases": [
    {},
    { id: DOC.id },
    { id: DOC.id, aliases: "GDPR" },
    { id: DOC.id, aliases: [7] },
    { id: DOC.id, aliases: ["x".repeat(121)] },
    { id: DOC.id, aliases: Array.from({ length: 51 }, (_, i) => `a${i}`) },
    { id: "", aliases: [] },
  ],
  ask: [
    {},
    { question: "" },
    { question: 3 },
    { question: HUGE },
    { question: "x", k: 21 },
    { question: "x", askId: "../../x" },
    { question: "x", askId: "a".repeat(65) },
    { question: "x", conversationId: "../x" },
    { question: "x", conversationId: 5 },
  ],
  "graph.neighbors": [{}, { nodeId: "" }, { nodeId: 3 }, { nodeId: HUGE }, { id: "x" }],
  "graph.entityFacts": [{}, { nodeId: "" }, { nodeId: 3 }, { nodeId: HUGE }, { id: "x" }],
  "documents.source": [{}, { id: "" }, { id: null }, { id: HUGE }, { path: "/etc/passwd" }],
  search: [
    {},
    { query: "" },
    { query: "   " },
    { query: 5 },
    { query: "x".repeat(LIMITS.query + 1) },
    { query: HUGE },
    { query: "gdpr", k: 0 },
    { query: "gdpr", k: 1.5 },
    { query: "gdpr", k: "10" },
    { query: "gdpr", k: LIMITS.k + 1 },
    { query: "gdpr", k: Number.NaN },
    { query: "gdpr", k: Number.POSITIVE_INFINITY },
  ],
  "sections.get": [{}, { id: "" }, { id: 1 }, { id: HUGE }, { sectionId: SECTION.id }],
  "sections.list": [{}, { documentId: "" }, { documentId: {} }, { documentId: HUGE }, { id: DOC.id }],
  stats: [{ verbose: true }],
  "jobs.cancel": [{}, { jobId: "" }, { jobId: 3 }, { jobId: HUGE }],
  "models.list": [{ all: true }],
  "models.select": [
    {},
    { modelId: "" },
    { modelId: 3 },
    { modelId: HUGE },
    { modelId: "m", threads: 0 },
    { modelId: "m", threads: 1.5 },
    { modelId: "m", threads: "2" },
    { modelId: "m", contextSize: 10 },
    { modelId: "m", gpuLayers: 99 },
  ],
  "models.import": [{}, { path: "" }, { path: 1 }, { path: HUGE }, { file: "/tmp/model.gguf" }],
  "models.limits": [{ maxTokens: 0 }, { maxTokens: 1.5 }, { maxSeconds: 1 }, { maxSeconds: 100_000 }, { maxTokens: "512" }, { timeout: 60 }],
  "conversations.create": [{ title: "x" }],
  "conversations.list": [{ query: 3 }, { query: HUGE }, { q: "x" }],
  // Conversation ids name files in the library: nothing that could climb out of its folder.
  "conversations.get": [
    {},
    { id: "" },
    { id: 3 },
    { id: "../../etc/passwd" },
    { id: "a/b" },
    { id: "a.jsonl" },
    { id: "x".repeat(65) },
    { conversationId: "x" },
  ],
  "conversations.delete": [{}, { id: "" }, { id: null }, { id: "../x" }, { id: "x".repeat(65) }],
  "export.answer": [{}, { logId: "" }, { logId: "../x" }, { logId: LOG_RECORD.id, format: "pdf" }, { logId: LOG_RECORD.id, format: 1 }, { id: LOG_RECORD.id }],
  "export.conversation": [{}, { id: "../x" }, { id: CONVERSATION.id, format: "docx" }, { logId: CONVERSATION.id }],
  "compare.run": [
    {},
    { documentA: DOC.id },
    { documentA: "", documentB: null },
    { documentA: DOC.id, documentB: 3 },
    { documentA: HUGE, documentB: null },
    { documentA: DOC.id, documentB: null, k: 0 },
    { documentA: DOC.id, documentB: null, k: 21 },
    { documentA: DOC.id, documentB: null, k: 2.5 },
    { documentA: DOC.id, documentB: null, verdicts: "yes" },
    { documentA: DOC.id, documentB: null, jobId: "../x" },
  ],
  "compare.list": [{ all: true }],
  "compare.get": [{}, { id: "" }, { id: 3 }, { id: HUGE }, { comparisonId: "x" }],
  "compare.pair": [
    {},
    { id: COMPARISON.id },
    { id: COMPARISON.id, aSectionId: SECTION.id },
    { id: COMPARISON.id, aSectionId: "", bSectionId: SECTION.id },
    { id: COMPARISON.id, aSectionId: SECTION.id, bSectionId: HUGE },
  ],
  "compare.export": [{}, { id: COMPARISON.id }, { id: COMPARISON.id, format: "xlsx" }, { id: "", format: "csv" }],
  "compare.delete": [{}, { id: "" }, { id: null }, { id: HUGE }],
  "answers.log": [{ limit: 0 }, { limit: 1001 }, { limit: 2.5 }, { limit: "10" }, { since: "2020-01-01" }],
  "triplets.extract": [
    { documentIds: [] },
    { documentIds: "doc" },
    { documentIds: [""] },
    { documentIds: [3] },
    { documentIds: [HUGE] },
    { documentIds: Array.from({ length: LIMITS.filesPerImport + 1 }, (_, i) => `doc-${i}`) },
    { jobId: "../../x" },
    { jobId: "a".repeat(65) },
  ],
};

function expectValidation(result: Result<unknown>): void {
  expect(result.ok).toBe(false);
  if (!result.ok) {
    expect(result.error.code).toBe("VALIDATION");
    expect(typeof result.error.message).toBe("string");
    // Never echo a huge payload back.
    expect(result.error.message.length).toBeLessThan(2000);
  }
}

describe("contract dispatcher", () => {
  let engine: FakeEngine;
  let events: WireEvent[];
  let dispatcher: Dispatcher;

  beforeEach(() => {
    engine = createFakeEngine();
    events = [];
    // The paths the good payloads name stand for files the user chose.
    dispatcher = createDispatcher({ engine, emit: (e) => events.push(e), allowPathImport: (file) => file.startsWith("/tmp/") });
  });

  it("covers every channel in these tests", () => {
    expect(Object.keys(GOOD).sort()).toEqual([...CHANNELS].sort());
    expect(Object.keys(MALFORMED).sort()).toEqual([...CHANNELS].sort());
  });

  describe.each(CHANNELS)("%s", (channel) => {
    it("rejects non-object payloads with VALIDATION", async () => {
      for (const payload of NON_OBJECTS) expectValidation(await dispatcher.dispatch(channel, payload));
      expect(engine.calls).toEqual([]);
    });

    it("rejects extra junk fields with VALIDATION", async () => {
      expectValidation(await dispatcher.dispatch(channel, { ...GOOD[channel], junk: "<script>" }));
      expectValidation(await dispatcher.dispatch(channel, { ...GOOD[channel], __proto__: { polluted: true }, constructor: 1 }));
      expect(engine.calls).toEqual([]);
    });

    it("rejects wrong types, missing fields and huge strings with VALIDATION", async () => {
      for (const payload of MALFORMED[channel]) {
        const result = await dispatcher.dispatch(channel, payload);
        if (result.ok) throw new Error(`accepted ${JSON.stringify(payload).slice(0, 200)}`);
        expectValidation(result);
      }
      expect(engine.calls).toEqual([]);
    });
  });

  it("answers VALIDATION for unknown or non-string channels", async () => {
    for (const channel of ["nope", "", "documents", "__proto__", "constructor", "toString", 1, null, undefined, {}, ["search"], HUGE]) {
      expectValidation(await dispatcher.dispatch(channel, {}));
    }
    expect(engine.calls).toEqual([]);
  });

  it("passes good payloads to the engine", async () => {
    const imported = await dispatcher.dispatch("documents.import", GOOD["documents.import"]);
    expect(imported).toEqual({ ok: true, value: [okImport("/tmp/a.pdf")] });
    const importCall = engine.calls[0];
    expect(importCall?.method).toBe("importFiles");
    expect(importCall?.args[0]).toEqual(["/tmp/a.pdf"]);
    expect(importCall?.args[1]).toMatchObject({ password: "pw" });

    expect(await dispatcher.dispatch("documents.list", {})).toEqual({ ok: true, value: [DOC] });
    expect(await dispatcher.dispatch("documents.delete", { id: DOC.id })).toEqual({
      ok: true,
      value: { deleted: true, documentId: DOC.id, file: DOC.file },
    });
    expect(await dispatcher.dispatch("documents.aliases", { id: DOC.id, aliases: ["GDPR"] })).toEqual({ ok: true, value: { ...DOC, userAliases: ["GDPR"] } });
    expect(engine.calls.at(-1)).toEqual({ method: "setDocumentAliases", args: [DOC.id, ["GDPR"]] });
    const search = await dispatcher.dispatch("search", { query: "  personal data ", k: 5 });
    expect(search.ok).toBe(true);
    expect(engine.calls.at(-1)).toEqual({ method: "search", args: ["personal data", { k: 5 }] });
    await dispatcher.dispatch("search", { query: "data" });
    expect(engine.calls.at(-1)).toEqual({ method: "search", args: ["data", {}] });
    expect(await dispatcher.dispatch("sections.get", { id: SECTION.id })).toEqual({ ok: true, value: SECTION });
    expect(await dispatcher.dispatch("sections.list", { documentId: DOC.id })).toEqual({ ok: true, value: [SECTION] });
    expect(await dispatcher.dispatch("stats", {})).toMatchObject({
      ok: true,
      value: { documents: 1, sections: 1, crossReferences: 0, resolvedCrossReferences: 0, terms: 0 },
    });
    expect(await dispatcher.dispatch("jobs.cancel", { jobId: "unknown" })).toEqual({ ok: true, value: { cancelled: false } });
  });

  it("passes conversations and exports to the engine, md by default", async () => {
    expect(await dispatcher.dispatch("conversations.create", {})).toMatchObject({ ok: true, value: { turnCount: 0 } });
    expect(await dispatcher.dispatch("conversations.list", { query: "breach" })).toEqual({ ok: true, value: [CONVERSATION] });
    expect(engine.calls.at(-1)).toEqual({ method: "listConversations", args: [{ query: "breach" }] });
    await dispatcher.dispatch("conversations.list", {});
    expect(engine.calls.at(-1)).toEqual({ method: "listConversations", args: [{}] });
    expect(await dispatcher.dispatch("conversations.get", { id: CONVERSATION.id })).toMatchObject({
      ok: true,
      value: { id: CONVERSATION.id, turns: [{ logId: LOG_RECORD.id }] },
    });
    expect(await dispatcher.dispatch("conversations.delete", { id: CONVERSATION.id })).toEqual({ ok: true, value: { deleted: true } });
    expect(await dispatcher.dispatch("export.answer", { logId: LOG_RECORD.id })).toMatchObject({ ok: true, value: { fileName: "answer.md" } });
    expect(engine.calls.at(-1)).toEqual({ method: "exportAnswer", args: [LOG_RECORD.id, "md"] });
    expect(await dispatcher.dispatch("export.conversation", { id: CONVERSATION.id, format: "html" })).toMatchObject({
      ok: true,
      value: { fileName: "conversation.html" },
    });
    expect(engine.calls.at(-1)).toEqual({ method: "exportConversation", args: [CONVERSATION.id, "html"] });
    await dispatcher.dispatch("ask", { question: "and for processors?", conversationId: CONVERSATION.id });
    expect(engine.calls.at(-1)).toEqual({ method: "ask", args: ["and for processors?", undefined, CONVERSATION.id] });
  });

  it("passes comparisons to the engine; a run's progress is forwarded and its job id cancels it", async () => {
    const run = await dispatcher.dispatch("compare.run", { documentA: DOC.id, documentB: null, jobId: "compare-1" });
    expect(run).toMatchObject({ ok: true, value: { comparison: { id: COMPARISON.id }, pairsExamined: 1 } });
    expect(engine.calls.at(-1)).toEqual({ method: "compareDocuments", args: [DOC.id, null, { k: undefined, verdicts: undefined, jobId: "compare-1" }] });
    expect(events.some((e) => e.event === "job.progress" && (e.payload as { jobId: string }).jobId === "compare-1")).toBe(true);
    expect(await dispatcher.dispatch("compare.list", {})).toEqual({ ok: true, value: [COMPARISON] });
    expect(await dispatcher.dispatch("compare.get", { id: COMPARISON.id })).toMatchObject({ ok: true, value: { rows: [] } });
    expect(await dispatcher.dispatch("compare.pair", { id: COMPARISON.id, aSectionId: SECTION.id, bSectionId: "nope" })).toMatchObject({
      ok: false,
      error: { code: "NOT_FOUND" },
    });
    expect(await dispatcher.dispatch("compare.export", { id: COMPARISON.id, format: "md" })).toMatchObject({ ok: true, value: { fileName: "crosswalk.md" } });
    expect(await dispatcher.dispatch("compare.delete", { id: COMPARISON.id })).toEqual({ ok: true, value: { deleted: true } });
    expect(await dispatcher.dispatch("jobs.cancel", { jobId: "compare-1" })).toEqual({ ok: true, value: { cancelled: false } });
  });

  it("answers NOT_FOUND for a missing section", async () => {
    const result = await dispatcher.dispatch("sections.get", { id: "nope" });
    expect(result).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
  });

  it("maps a thrown ClauseGraphError to its code and file, and anything else to INTERNAL", async () => {
    engine.failWith = new ClauseGraphError("DB_LOCKED", "locked by another process", { file: "/data/graph.kuzu" });
    expect(await dispatcher.dispatch("stats", {})).toMatchObject({
      ok: false,
      error: { code: "DB_LOCKED", message: "locked by another process", file: "/data/graph.kuzu" },
    });
    engine.failWith = new TypeError("boom");
    expect(await dispatcher.dispatch("documents.list", {})).toEqual({ ok: false, error: { code: "INTERNAL", message: "boom" } });
    engine.failWith = "a string";
    expect(await dispatcher.dispatch("search", { query: "x" })).toMatchObject({ ok: false, error: { code: "INTERNAL" } });
  });

  it("forwards job progress as events and cancels a running job by id", async () => {
    engine.importImpl = (files, options) =>
      new Promise((resolve) => {
        options.onProgress?.({ jobId: "job-1", status: "running", step: "reading", current: 1, total: 9, subject: files[0] ?? "" });
        options.signal?.addEventListener("abort", () =>
          resolve([{ ...okImport(files[0] ?? ""), status: "error", error: { code: "CANCELLED", message: "cancelled" } }]),
        );
      });
    const running = dispatcher.dispatch("documents.import", { files: ["/tmp/big.pdf"] });
    await new Promise((r) => setTimeout(r, 0));
    expect(events).toEqual([
      {
        event: "job.progress",
        payload: { jobId: "job-1", status: "running", step: "reading", current: 1, total: 9, subject: "/tmp/big.pdf" },
      },
    ]);
    expect(await dispatcher.dispatch("jobs.cancel", { jobId: "job-1" })).toEqual({ ok: true, value: { cancelled: true } });
    const result = await running;
    expect(result).toMatchObject({ ok: true, value: [{ status: "error", error: { code: "CANCELLED" } }] });
    // Finished jobs are forgotten.
    expect(await dispatcher.dispatch("jobs.cancel", { jobId: "job-1" })).toEqual({ ok: true, value: { cancelled: false } });
  });

  it("imports by path only what the front end allows, and nothing by default (FORBIDDEN)", async () => {
    const refused = await dispatcher.dispatch("documents.import", { files: ["/tmp/a.pdf", "/home/other/.ssh/id_rsa"] });
    expect(refused).toMatchObject({ ok: false, error: { code: "FORBIDDEN", file: "/home/other/.ssh/id_rsa" } });
    if (!refused.ok) expect(refused.error.message).toMatch(/not chosen/);
    const strict = createDispatcher({ engine, emit: () => {} });
    expect(await strict.dispatch("documents.import", GOOD["documents.import"])).toMatchObject({ ok: false, error: { code: "FORBIDDEN" } });
    expect(engine.calls).toEqual([]);
  });

  it("refuses uploads where the host has no upload store", async () => {
    expectValidation(await dispatcher.dispatch("documents.upload", GOOD["documents.upload"]));
  });
});

describe("contract dispatcher uploads", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "cg-upload-"));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("writes uploads under the data dir, imports them by path, reports the uploaded names and cleans up", async () => {
    const engine = createFakeEngine();
    const seen: { file: string; text: string }[] = [];
    engine.importImpl = async (files) => {
      for (const file of files) seen.push({ file, text: await readFile(file, "utf8") });
      return files.map((file, i) => (i === 0 ? okImport(file) : { ...okImport(file), status: "error", error: { code: "EMPTY", message: "empty", file } }));
    };
    const dispatcher = createDispatcher({ engine, emit: () => {}, uploads: createUploadStore(dataDir) });
    const result = await dispatcher.dispatch("documents.upload", {
      files: [
        { name: "notes.txt", bytesBase64: Buffer.from("Article 1 hello").toString("base64") },
        { name: "notes.txt", bytesBase64: "" },
      ],
    });
    expect(seen).toHaveLength(2);
    expect(seen[0]?.text).toBe("Article 1 hello");
    expect(seen[1]?.text).toBe("");
    for (const { file } of seen) {
      expect(file.startsWith(uploadsDir(dataDir) + path.sep)).toBe(true);
      expect(path.basename(file)).toBe("notes.txt");
    }
    expect(seen[0]?.file).not.toBe(seen[1]?.file);
    expect(result).toMatchObject({
      ok: true,
      value: [
        { file: "notes.txt", status: "ok" },
        { file: "notes.txt", status: "error", error: { code: "EMPTY", file: "notes.txt" } },
      ],
    });
    expect(await readdir(uploadsDir(dataDir))).toEqual([]);
  });
});
