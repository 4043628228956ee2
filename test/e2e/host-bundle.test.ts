import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHost, type HostClient } from "../../bench/lib/host-client.ts";
import { regulationPdf } from "../../bench/lib/trust-fixtures.ts";
import { ROOT, buildHost } from "../../scripts/build.mjs";

// `npm start` without Electron runs the web host from its esbuild bundle (dist/host), not through
// tsx. This proves the bundle as it is built: it finds its externals, forks its own parse child,
// builds the default embedder from the packages, imports an upload and answers it with a citation.

function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      const value = probe();
      if (value !== undefined) resolve(value);
      else if (Date.now() - started > timeoutMs) reject(new Error(`timed out waiting for ${what}`));
      else setTimeout(tick, 100);
    };
    tick();
  });
}

describe("the web host bundle", () => {
  // Inside the checkout, two folders down as dist/host is, so the externals resolve from node_modules.
  const outDir = path.join(ROOT, "test-results", "host-bundle");
  let dir: string;
  let proc: ChildProcess;
  let client: HostClient;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-host-bundle-"));
    await buildHost({ outDir });
    const staticDir = path.join(dir, "static");
    await mkdir(staticDir, { recursive: true });
    await writeFile(path.join(staticDir, "index.html"), "<!doctype html><title>ClauseGraph</title>");
    proc = spawn(process.execPath, [path.join(outDir, "serve.js"), "--port", "0", "--data-dir", path.join(dir, "data"), "--static-dir", staticDir, "--quiet"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    const url = await waitFor("the bundled host to print its address", () => /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out)?.[0], 120_000);
    // The address's token is exchanged for the session cookie, as a browser does.
    const cookie = await new Promise<string>((resolve, reject) => {
      const { hostname, port, pathname, search } = new URL(url);
      request({ hostname, port, path: `${pathname}${search}` }, (res) => {
        res.resume();
        resolve(String(res.headers["set-cookie"] ?? "").split(";")[0] ?? "");
      })
        .on("error", reject)
        .end();
    });
    client = await connectHost({ url, origin: new URL(url).origin, cookie, close: async () => undefined });
  }, 300_000);

  afterAll(async () => {
    client?.close();
    if (proc?.exitCode === null) {
      const exited = new Promise((resolve) => proc.once("exit", resolve));
      proc.kill("SIGTERM");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
    await rm(outDir, { recursive: true, force: true });
  });

  it("imports an upload and answers it with a citation", { timeout: 300_000 }, async () => {
    const imported = await client.upload("archive-regulation.pdf", Buffer.from(await regulationPdf()));
    expect(imported).toMatchObject({ ok: true, value: [{ file: "archive-regulation.pdf", status: "ok" }] });
    const answer = await client.call("ask", { question: "How long are records of processing kept?" }, 240_000);
    expect(answer).toMatchObject({ ok: true });
    expect(JSON.stringify(answer)).toMatch(/five years/);
    expect(answer).toMatchObject({ value: { citations: [{ file: "archive-regulation.pdf", pageStart: 4 }] } });
  });

  it("stops on SIGTERM with exit code 0", { timeout: 120_000 }, async () => {
    const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
