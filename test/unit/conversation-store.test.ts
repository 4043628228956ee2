import { appendFile, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversationsDir, createConversationStore, type NewTurn } from "../../core/answer/history/conversation-store.ts";

// Conversations are append-only JSON-lines files in the library: each turn fsynced on its own
// line, so a crash tears at most the last line, which is skipped while every earlier turn stays.

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cg-conversations-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function turn(question: string, at: string, logId: string | null = `log-${question.length}`): NewTurn {
  return { at, question, askedAs: null, followUpReason: null, scope: question, logId };
}

describe("conversation store", () => {
  it("creates, appends turns in order, lists and reads back after a new store (restart)", async () => {
    const data = path.join(dir, "basic");
    const store = createConversationStore(data);
    const a = await store.create(new Date("2026-01-01T10:00:00Z"));
    const b = await store.create(new Date("2026-01-02T10:00:00Z"));
    await store.appendTurn(a.id, turn("first?", "2026-01-01T10:00:01.000Z"));
    await store.appendTurn(a.id, {
      ...turn("and for processors?", "2026-01-01T10:00:02.000Z"),
      askedAs: "first — for processors?",
      followUpReason: "a follow-up",
      scope: "first?",
    });

    const again = createConversationStore(data);
    const read = await again.read(a.id);
    expect(read?.createdAt).toBe("2026-01-01T10:00:00.000Z");
    expect(read?.turns.map((t) => t.question)).toEqual(["first?", "and for processors?"]);
    expect(read?.turns[1]).toMatchObject({ askedAs: "first — for processors?", followUpReason: "a follow-up", scope: "first?" });
    expect((await again.list()).map((c) => c.id).sort()).toEqual([a.id, b.id].sort());
    expect(await again.read("00000000-0000-4000-8000-000000000000")).toBeNull();
  });

  it("keeps files owner-only", async () => {
    const data = path.join(dir, "modes");
    const store = createConversationStore(data);
    const c = await store.create();
    await store.appendTurn(c.id, turn("q?", new Date().toISOString()));
    const file = path.join(conversationsDir(data), `${c.id}.jsonl`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(conversationsDir(data))).mode & 0o777).toBe(0o700);
  });

  it("ignores a torn last line, keeps every earlier turn, and appends the next turn on a fresh line", async () => {
    const data = path.join(dir, "torn");
    const store = createConversationStore(data);
    const c = await store.create();
    await store.appendTurn(c.id, turn("before the crash?", "2026-01-01T10:00:01.000Z"));
    await store.appendTurn(c.id, turn("also before?", "2026-01-01T10:00:02.000Z"));
    const file = path.join(conversationsDir(data), `${c.id}.jsonl`);
    // A crash in the middle of the third append leaves half a line without its newline.
    await appendFile(file, '{"v":1,"kind":"turn","at":"2026-01-01T10:00:03.000Z","question":"torn');

    const restarted = createConversationStore(data);
    expect((await restarted.read(c.id))?.turns.map((t) => t.question)).toEqual(["before the crash?", "also before?"]);
    await restarted.appendTurn(c.id, turn("after the restart?", "2026-01-01T10:00:04.000Z"));
    expect((await restarted.read(c.id))?.turns.map((t) => t.question)).toEqual(["before the crash?", "also before?", "after the restart?"]);
    const lines = (await readFile(file, "utf8")).split("\n");
    expect(lines.filter((l) => l.includes("after the restart?"))).toHaveLength(1);
    expect(lines.find((l) => l.includes("after the restart?"))?.startsWith("{")).toBe(true);
  });

  it("a conversation whose creation was torn is not listed", async () => {
    const data = path.join(dir, "torn-create");
    const store = createConversationStore(data);
    const ok = await store.create();
    await appendFile(path.join(conversationsDir(data), "0f6a1c2e-0000-4000-8000-00000000dead.jsonl"), '{"v":1,"kind":"cre');
    expect((await store.list()).map((c) => c.id)).toEqual([ok.id]);
  });

  it("deletes a conversation for good: it is not listed, not readable, and an append does not bring it back", async () => {
    const data = path.join(dir, "delete");
    const store = createConversationStore(data);
    const c = await store.create();
    await store.appendTurn(c.id, turn("q?", new Date().toISOString()));
    expect(await store.remove(c.id)).toBe(true);
    expect(await store.remove(c.id)).toBe(false);
    expect(await store.read(c.id)).toBeNull();
    expect(await store.list()).toEqual([]);
    await expect(store.appendTurn(c.id, turn("late answer?", new Date().toISOString()))).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await store.list()).toEqual([]);
  });

  it("refuses ids that are not conversation ids (they name files)", async () => {
    const store = createConversationStore(path.join(dir, "ids"));
    await expect(store.read("../../etc/passwd")).rejects.toMatchObject({ code: "VALIDATION" });
    await expect(store.remove("a/b")).rejects.toMatchObject({ code: "VALIDATION" });
  });
});
