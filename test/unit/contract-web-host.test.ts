import { request } from "node:http";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createApi } from "../../core/contract/contract.ts";
import type { ApiTransport, WireEvent } from "../../core/contract/contract.ts";
import { startWebHost } from "../../core/host/web-host.ts";
import type { WebHost } from "../../core/host/web-host.ts";
import { createFakeEngine, DOC } from "./contract-fake-engine.ts";
import type { FakeEngine } from "./contract-fake-engine.ts";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(url: string, rawPath: string, headers: Record<string, string> = {}): Promise<Reply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: rawPath, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

function connect(url: string, origin: string): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace("http:", "ws:")}api`, { origin });
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** Buffers every message: several can arrive in one chunk, before a late `once` listener exists. */
function messages(ws: WebSocket): () => Promise<unknown> {
  const queue: unknown[] = [];
  const waiting: ((value: unknown) => void)[] = [];
  ws.on("message", (data) => {
    const value: unknown = JSON.parse(String(data));
    const waiter = waiting.shift();
    if (waiter) waiter(value);
    else queue.push(value);
  });
  return () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiting.push(resolve)));
}

describe("web host (fake engine)", () => {
  let dir: string;
  let host: WebHost;
  let engine: FakeEngine;
  let origin: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-host-"));
    const staticDir = path.join(dir, "static");
    await mkdir(path.join(staticDir, "assets"), { recursive: true });
    await writeFile(path.join(staticDir, "index.html"), "<!doctype html><title>ClauseGraph</title>");
    await writeFile(path.join(staticDir, "assets", "app.js"), "console.log(1)");
    await writeFile(path.join(dir, "secret.txt"), "do not serve");
    engine = createFakeEngine();
    host = await startWebHost({ dataDir: path.join(dir, "data"), port: 0, staticDir, engine });
    origin = host.url.replace(/\/$/, "");
  });

  afterAll(async () => {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("listens on the loopback interface and serves the renderer with a strict CSP", async () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get(host.url, "/");
    expect(page.status).toBe(200);
    expect(page.body).toContain("<title>ClauseGraph</title>");
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    expect(csp).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)/);
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    const script = await get(host.url, "/assets/app.js");
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toContain("text/javascript");
  });

  it("never serves files outside the static folder", async () => {
    for (const attempt of ["/../secret.txt", "/%2e%2e/secret.txt", "/assets/..%2f..%2fsecret.txt", "/%00", "/%E0%A4%A"]) {
      const reply = await get(host.url, attempt);
      expect(reply.status, attempt).toBe(404);
      expect(reply.body).not.toContain("do not serve");
    }
  });

  it("refuses requests addressed to another host name (DNS rebinding)", async () => {
    const reply = await get(host.url, "/", { Host: "evil.example:80" });
    expect(reply.status).toBe(421);
  });

  it("refuses WebSocket connections from other origins", async () => {
    await expect(connect(host.url, "http://evil.example")).rejects.toThrow();
    await expect(connect(host.url, "null")).rejects.toThrow();
  });

  it("answers requests, rejects malformed messages and pushes events", async () => {
    const ws = await connect(host.url, origin);
    const nextMessage = messages(ws);
    try {
      ws.send(JSON.stringify({ id: 1, channel: "documents.list", payload: {} }));
      expect(await nextMessage()).toEqual({ id: 1, result: { ok: true, value: [DOC] } });

      ws.send("{not json");
      expect(await nextMessage()).toMatchObject({ id: null, result: { ok: false, error: { code: "VALIDATION" } } });

      ws.send(JSON.stringify({ id: 2, channel: "search", payload: { query: 3 } }));
      expect(await nextMessage()).toMatchObject({ id: 2, result: { ok: false, error: { code: "VALIDATION" } } });

      ws.send(JSON.stringify({ id: 3, channel: "no.such.channel", payload: {} }));
      expect(await nextMessage()).toMatchObject({ id: 3, result: { ok: false, error: { code: "VALIDATION" } } });

      ws.send(JSON.stringify({ id: { nested: 1 }, channel: "stats", payload: {} }));
      expect(await nextMessage()).toMatchObject({ id: null, result: { ok: false, error: { code: "VALIDATION" } } });

      ws.send(Buffer.from([1, 2, 3]), { binary: true });
      expect(await nextMessage()).toMatchObject({ id: null, result: { ok: false, error: { code: "VALIDATION" } } });

      engine.importImpl = async (files, options) => {
        options.onProgress?.({ jobId: "j1", status: "done", step: "done", current: 1, total: 1, subject: files[0] ?? "" });
        return [];
      };
      const event = nextMessage();
      ws.send(JSON.stringify({ id: "imp", channel: "documents.import", payload: { files: ["/tmp/x.pdf"] } }));
      expect(await event).toEqual({
        event: "job.progress",
        payload: { jobId: "j1", status: "done", step: "done", current: 1, total: 1, subject: "/tmp/x.pdf" },
      });
      expect(await nextMessage()).toEqual({ id: "imp", result: { ok: true, value: [] } });
    } finally {
      ws.close();
    }
  });
});

describe("createApi", () => {
  function transport(answer: unknown, events: WireEvent[] = []): ApiTransport {
    return {
      invoke: async () => answer,
      subscribe(listener) {
        for (const e of events) listener(e);
        return () => {};
      },
    };
  }

  it("returns validated results and turns malformed responses into INTERNAL errors", async () => {
    expect(await createApi(transport({ ok: true, value: [DOC] })).listDocuments({})).toEqual({ ok: true, value: [DOC] });
    expect(await createApi(transport({ ok: true, value: [{ id: 1 }] })).listDocuments({})).toMatchObject({
      ok: false,
      error: { code: "INTERNAL" },
    });
    expect(await createApi(transport("garbage")).stats({})).toMatchObject({ ok: false, error: { code: "INTERNAL" } });
    const failing: ApiTransport = { invoke: () => Promise.reject(new Error("gone")), subscribe: () => () => {} };
    expect(await createApi(failing).stats({})).toMatchObject({ ok: false, error: { code: "INTERNAL" } });
  });

  it("delivers only well-formed job.progress events", () => {
    const good = { jobId: "j", status: "running", step: "reading", current: 1, total: 2 };
    const seen: unknown[] = [];
    createApi(
      transport(null, [
        { event: "job.progress", payload: good },
        { event: "job.progress", payload: { jobId: 5 } },
        { event: "other", payload: good },
      ]),
    ).onJobProgress((p) => seen.push(p));
    expect(seen).toEqual([good]);
  });
});
