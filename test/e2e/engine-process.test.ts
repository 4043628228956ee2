import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, buildElectron } from "../../scripts/build.mjs";

// Electron cannot run here, but its engine entry can: the esbuild bundle of
// electron/engine-process.ts runs under plain Node with a stand-in for process.parentPort. This
// proves the bundle resolves its externals and serves the contract over the port.

// Like Electron's port, it queues messages until the first "message" listener is attached.
const PARENT_PORT_SHIM = `
import { EventEmitter } from "node:events";
const port = new EventEmitter();
const queued = [];
let started = false;
port.postMessage = (message) => process.send(message);
port.on("newListener", (name) => {
  if (name !== "message" || started) return;
  started = true;
  setImmediate(() => { for (const data of queued.splice(0)) port.emit("message", { data, ports: [] }); });
});
process.on("message", (data) => {
  if (started) port.emit("message", { data, ports: [] });
  else queued.push(data);
});
process.parentPort = port;
`;

describe("electron engine process bundle", () => {
  // Inside the checkout so the externals (kuzu, pdf.js…) resolve from node_modules as in the app.
  const outDir = path.join(ROOT, "test-results", "electron-bundle");
  let tmp: string;
  let child: ChildProcess;
  const inbox: unknown[] = [];
  const waiters: (() => void)[] = [];

  function waitFor<T>(pick: (message: unknown) => T | undefined): Promise<T> {
    return new Promise((resolve) => {
      const check = (): void => {
        for (const message of inbox) {
          const hit = pick(message);
          if (hit !== undefined) {
            resolve(hit);
            return;
          }
        }
        waiters.push(check);
      };
      check();
    });
  }

  function response(id: number): Promise<unknown> {
    return waitFor((m) => (typeof m === "object" && m !== null && "id" in m && m.id === id && "result" in m ? m.result : undefined));
  }

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-engine-proc-"));
    await buildElectron({ outDir });
    const shim = path.join(tmp, "parent-port-shim.mjs");
    await writeFile(shim, PARENT_PORT_SHIM);
    // An upload folder a crash left behind: the engine process empties the folder when it starts.
    await mkdir(path.join(tmp, "data", "uploads", "left-by-a-crash"), { recursive: true });
    await writeFile(path.join(tmp, "data", "uploads", "left-by-a-crash", "private.pdf"), "%PDF-1.7");
    child = fork(path.join(outDir, "engine-process.js"), ["--data-dir", path.join(tmp, "data")], {
      execArgv: ["--import", pathToFileURL(shim).href],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child.on("message", (message) => {
      inbox.push(message);
      for (const waiter of waiters.splice(0)) waiter();
    });
  });

  afterAll(async () => {
    if (child.exitCode === null) child.kill();
    await rm(tmp, { recursive: true, force: true });
    await rm(outDir, { recursive: true, force: true });
  });

  it("imports by path only what main granted (files the user dropped or picked), and empties old uploads", async () => {
    const chosen = path.join(tmp, "chosen.txt");
    await writeFile(chosen, "Article 1\nScope\nA file the user dropped on the window.\n");
    child.send({ id: 101, channel: "documents.import", payload: { files: [chosen] } });
    expect(await response(101)).toMatchObject({ ok: false, error: { code: "FORBIDDEN", file: chosen } });
    expect(await readdir(path.join(tmp, "data", "uploads"))).toEqual([]);
    child.send({ control: "grant", paths: [chosen] });
    child.send({ id: 102, channel: "documents.import", payload: { files: [chosen] } });
    expect(await response(102)).toMatchObject({ ok: true, value: [{ status: "ok" }] });
    child.send({ id: 103, channel: "documents.delete", payload: { id: chosen } });
    expect(await response(103)).toMatchObject({ ok: true, value: { deleted: true } });
  });

  it("answers contract requests, pushes progress and shuts down cleanly", async () => {
    child.send({ id: 1, channel: "stats", payload: {} });
    expect(await response(1)).toMatchObject({ ok: true, value: { documents: 0, sections: 0, crossReferences: 0, terms: 0 } });

    child.send({ id: 2, channel: "stats", payload: { junk: 1 } });
    expect(await response(2)).toMatchObject({ ok: false, error: { code: "VALIDATION" } });

    const text = "Article 1\nScope\nThis text about interoperability is imported through the engine process.\n";
    child.send({
      id: 3,
      channel: "documents.upload",
      payload: { files: [{ name: "scope.txt", bytesBase64: Buffer.from(text).toString("base64") }] },
    });
    expect(await response(3)).toMatchObject({ ok: true, value: [{ file: "scope.txt", status: "ok" }] });
    const done = await waitFor((m) =>
      typeof m === "object" &&
      m !== null &&
      "event" in m &&
      m.event === "job.progress" &&
      "payload" in m &&
      typeof m.payload === "object" &&
      m.payload !== null &&
      "status" in m.payload &&
      m.payload.status === "done"
        ? m.payload
        : undefined,
    );
    expect(done).toMatchObject({ status: "done" });

    child.send({ id: 4, channel: "search", payload: { query: "interoperability" } });
    expect(await response(4)).toMatchObject({ ok: true, value: { results: [{ documentId: expect.any(String) }] } });

    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.send({ control: "shutdown" });
    expect(await exited).toBe(0);
  });
});
