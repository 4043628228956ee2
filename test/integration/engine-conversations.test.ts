import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAnswerLog } from "../../core/answer/history/answer-log.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { parseJson, runCli } from "../helpers/cli.ts";
import { articleLines as article, makePdf } from "../helpers/make-pdf.ts";

// Conversations through the real engine: turns recorded in the library, follow-ups retrieved with
// the previous scope, reopened answers identical to the ones given (also after a restart), deleted
// documents named in words, exports from the answer log, and deletion.

describe("engine: conversations and workpaper exports", () => {
  let dir: string;
  let data: string;
  let engine: Engine;
  let conversationId: string;
  const open = (): Promise<Engine> => createEngine({ dataDir: data, embedder: null, llm: null });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-engine-conv-"));
    data = path.join(dir, "data");
    const pdf = path.join(dir, "regulation.pdf");
    await writeFile(
      pdf,
      await makePdf(
        [
          [
            { text: "REGULATION ON SAMPLE MATTERS", bold: true, size: 14 },
            ...article(1, "Subject matter", ["This Regulation lays down rules on the keeping of records by operators."]),
            ...article(2, "Incident notification", ["Operators shall notify the authority of a major incident within 24 hours."]),
          ],
          [...article(3, "Microenterprises", ["Microenterprises shall notify the authority of a major incident within 72 hours."])],
        ],
        { title: "Sample Regulation" },
      ),
    );
    engine = await open();
    const [imported] = await engine.importFiles([pdf]);
    expect(imported?.status).toBe("ok");
  });

  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("records each answer as a turn, and a follow-up is retrieved with the previous question's scope", async () => {
    conversationId = (await engine.createConversation()).id;
    const first = await engine.ask("When must operators notify a major incident?", { conversationId });
    expect(first.logId).toBeDefined();
    expect(first.conversationId).toBe(conversationId);
    expect(first.followUp).toBeUndefined();
    expect(first.citations.length).toBeGreaterThan(0);

    const second = await engine.ask("and for microenterprises?", { conversationId });
    expect(second.followUp?.question).toContain("When must operators notify a major incident");
    expect(second.followUp?.question).toContain("microenterprises");
    const [firstLogged, logged] = await readAnswerLog(data);
    expect(logged).toMatchObject({ question: "and for microenterprises?", askedAs: second.followUp?.question, conversationId, appVersion: expect.any(String) });
    // The log alone can reproduce and export the answer: documents by name and hash, the quoted sentences, the sentences shown.
    const [doc] = await engine.listDocuments();
    expect(firstLogged?.citations[0]).toMatchObject({ documentId: doc?.id, file: "regulation.pdf", documentSha256: doc?.sha256 });
    expect(firstLogged?.citations[0]?.quotes?.join(" ")).toMatch(/notify the authority of a major incident/);
    expect(firstLogged?.sentences?.map((x) => x.text)).toEqual(first.sentences.map((x) => x.text));
    expect(firstLogged?.askedAs).toBeUndefined();
    expect(firstLogged?.subgraph).toEqual(first.subgraph);

    await expect(engine.ask("anything?", { conversationId: "0f6a1c2e-0000-4000-8000-00000000beef" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await engine.listConversations()).toMatchObject([{ id: conversationId, turnCount: 2, title: "When must operators notify a major incident?" }]);
  });

  it("reopens every answer exactly as it was given, after a restart too", async () => {
    const log = await readAnswerLog(data);
    const before = await engine.getConversation(conversationId);
    await engine.close();
    engine = await open();
    const after = await engine.getConversation(conversationId);
    expect(after.turns.map((t) => t.question)).toEqual(["When must operators notify a major incident?", "and for microenterprises?"]);
    expect(after.turns.map((t) => t.result?.answer)).toEqual(before.turns.map((t) => t.result?.answer));
    const reopened = after.turns[0]?.result;
    expect(reopened?.answer).toBe(log[0]?.answer);
    expect(reopened?.sentences.length).toBeGreaterThan(0);
    expect(reopened?.citations.map((c) => [c.key, c.label, c.file, c.pageStart, c.pageEnd])).toEqual(
      log[0]?.citations.map((c) => [c.key, c.label, "regulation.pdf", c.pageStart, c.pageEnd]),
    );
    expect(reopened?.subgraph.nodes.length).toBeGreaterThan(0);
    // The graph shown with the answer, node for node and link for link, not one drawn again.
    expect(log[0]?.subgraph).toBeDefined();
    expect(reopened?.subgraph).toEqual(log[0]?.subgraph);
    expect(after.turns[1]?.followUpReason).toContain("follow-up");
    expect(after.turns[1]?.result?.followUp?.reason).toContain("follow-up");
    expect(after.turns.every((t) => t.notes.length === 0)).toBe(true);
  });

  it("finds conversations by the words of their questions and answers", async () => {
    expect((await engine.listConversations({ query: "microenterprises" })).map((c) => c.id)).toEqual([conversationId]);
    expect((await engine.listConversations({ query: "24 HOURS operators" })).map((c) => c.id)).toEqual([conversationId]);
    expect(await engine.listConversations({ query: "satellites" })).toEqual([]);
  });

  it("exports a conversation and one answer from the answer log, the same bytes twice", async () => {
    const conversation = await engine.getConversation(conversationId);
    const docs = await engine.listDocuments();
    const md = await engine.exportConversation(conversationId, "md");
    expect((await engine.exportConversation(conversationId, "md")).text).toBe(md.text);
    expect(md.text).toContain("When must operators notify a major incident?");
    expect(md.text).toContain("regulation.pdf");
    expect(md.text).toContain(docs[0]?.sha256 ?? "no sha");
    expect(md.text).toContain("Extractive");
    const logId = conversation.turns[0]?.logId ?? "";
    const html = await engine.exportAnswer(logId, "html");
    expect(html.fileName).toMatch(/^clausegraph-answer-\d{8}-[0-9a-f]{8}\.html$/);
    expect(html.text).toContain("<!doctype html>");
    await expect(engine.exportAnswer("no-such-answer", "md")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("the CLI lists conversations and writes a workpaper of a conversation or an answer", async () => {
    const logId = (await engine.getConversation(conversationId)).turns[0]?.logId ?? "";
    const expected = (await engine.exportConversation(conversationId, "md")).text;
    await engine.close();
    try {
      const listed = await runCli(["conversations", "microenterprises", "--db", data, "--json"]);
      expect(listed.code).toBe(0);
      expect(parseJson<{ conversations: Array<{ id: string }> }>(listed).conversations.map((c) => c.id)).toEqual([conversationId]);
      const out = path.join(dir, "workpaper.md");
      const written = await runCli(["export", "--conversation", conversationId, "--out", out, "--db", data]);
      expect(written.code).toBe(0);
      // The CLI and the app export the same bytes.
      expect(await readFile(out, "utf8")).toBe(expected);
      expect((await stat(out)).mode & 0o777).toBe(0o600);
      const html = await runCli(["export", "--answer", logId, "--format", "html", "--db", data]);
      expect(html.code).toBe(0);
      expect(html.stdout).toContain("<!doctype html>");
      expect((await runCli(["export", "--db", data])).code).toBe(2);
      expect((await runCli(["export", "--answer", logId, "--format", "pdf", "--db", data])).code).toBe(2);
      expect((await runCli(["export", "--answer", "no-such-answer", "--db", data])).code).toBe(1);
      // `ask --conversation` adds a turn, and a follow-up keeps the scope there too.
      const asked = await runCli(["ask", "what about microenterprises?", "--conversation", conversationId, "--db", data, "--json"]);
      expect(asked.code).toBe(0);
      expect(parseJson<{ conversationId: string; followUp?: { question: string } }>(asked)).toMatchObject({
        conversationId,
        followUp: { question: expect.stringContaining("notify a major incident") },
      });
    } finally {
      engine = await open();
    }
  }, 120_000);

  it("says in words that a cited document was deleted, with the date, never its id", async () => {
    const [doc] = await engine.listDocuments();
    await engine.deleteDocument(doc?.id ?? "");
    const conversation = await engine.getConversation(conversationId);
    const notes = conversation.turns.flatMap((t) => t.notes);
    expect(notes.length).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    for (const note of notes) {
      expect(note).toBe(`This answer cites regulation.pdf, which was deleted from the library on ${today}.`);
      expect(note).not.toContain(doc?.id ?? "no id");
    }
    // The answer is still shown as it was given; its graph keeps nothing of the deleted document.
    expect(conversation.turns[0]?.result?.citations[0]?.file).toBe("regulation.pdf");
    expect(conversation.turns[0]?.result?.subgraph).toEqual({ nodes: [], edges: [] });
    // And the export still names the document and its hash.
    expect((await engine.exportConversation(conversationId, "md")).text).toContain(doc?.sha256 ?? "no sha");
  });

  it("deletes a conversation; its answers stay in the answer log", async () => {
    expect(await engine.deleteConversation(conversationId)).toEqual({ deleted: true });
    expect(await engine.listConversations()).toEqual([]);
    await expect(engine.getConversation(conversationId)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await readAnswerLog(data)).toHaveLength(3);
  });
});
