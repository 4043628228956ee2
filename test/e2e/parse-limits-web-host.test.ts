import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHost } from "../../bench/lib/host-client.ts";
import type { HostClient } from "../../bench/lib/host-client.ts";
import { contentBombPdf, hexNestedStatesPdf } from "../../bench/lib/hostile-pdf-fixtures.ts";
import { RESPONSIVE_MS } from "../../bench/lib/hostile-parse.ts";
import { parseChildPids } from "../../bench/lib/rss-sampler.ts";
import { regulationPdf } from "../../bench/lib/trust-fixtures.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { startWebHost } from "../../core/host/web-host.ts";
import type { WebHost } from "../../core/host/web-host.ts";
import { PROJECT_DIR } from "../helpers/cli.ts";
import { alive, parseChildrenOf } from "../helpers/process-tree.ts";

// While a hostile file is being parsed (q nested 100,000 deep under
// a filter the pre-scan does not decode: pdf.js would need many minutes; a Flate bomb past the
// pre-scan's caps), `GET /` and search keep answering, jobs.cancel really stops the import (its
// parsing child is killed), later uploads work, and SIGTERM / SIGINT stop `npm run serve` (and
// no parsing child outlives it, even after SIGKILL).

const GB = 1024 ** 3;

function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      const value = probe();
      if (value !== undefined) resolve(value);
      else if (Date.now() - started > timeoutMs) reject(new Error(`timed out waiting for ${what}`));
      else setTimeout(tick, 50);
    };
    tick();
  });
}

/** The id of the running import job whose file name ends with `name`. */
function runningJob(client: HostClient, name: string): string | undefined {
  for (const event of client.events) {
    const payload = (event as { payload?: { jobId?: string; status?: string; step?: string; subject?: string } }).payload;
    if (payload?.status === "running" && payload.step === "reading" && payload.subject?.endsWith(name)) return payload.jobId;
  }
  return undefined;
}

/** GET / and a search answer within RESPONSIVE_MS, `times` times in a row. */
async function expectResponsive(client: HostClient, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const [page, search] = await Promise.all([client.get("/"), client.call("search", { query: "operator notify", k: 3 })]);
    expect(page.status).toBe(200);
    expect(search).toMatchObject({ ok: true });
    expect(performance.now() - started).toBeLessThan(RESPONSIVE_MS);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("web host while a hostile file is parsed", () => {
  let dir: string;
  let engine: Engine;
  let host: WebHost;
  let client: HostClient;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-parse-host-"));
    const staticDir = path.join(dir, "static");
    await mkdir(staticDir, { recursive: true });
    await writeFile(path.join(staticDir, "index.html"), "<!doctype html><title>ClauseGraph</title>");
    // The bomb must get past the pre-scan to reach the memory watchdog: its inflate caps are lifted.
    engine = await createEngine({
      dataDir: path.join(dir, "data"),
      llm: null,
      embedder: null,
      parseLimits: { inflatedBytesPerStream: 1e12, inflatedBytesPerFile: 1e12, childRssMb: 600 },
    });
    host = await startWebHost({ dataDir: path.join(dir, "data"), port: 0, staticDir, engine });
    client = await connectHost(host);
    const baseline = path.join(dir, "baseline.pdf");
    await writeFile(baseline, await regulationPdf());
    expect((await engine.importFiles([baseline]))[0]?.status).toBe("ok");
  });

  afterAll(async () => {
    client.close();
    await host.close();
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers GET / and search during a parse that would take minutes, and jobs.cancel stops it", async () => {
    const started = performance.now();
    const reply = client.upload("nested-q-hex.pdf", hexNestedStatesPdf(100_000));
    const jobId = await waitFor("the import to start reading", () => runningJob(client, "nested-q-hex.pdf"));
    const children = await waitFor("the parsing child", () => (parseChildPids().length > 0 ? parseChildPids() : undefined));
    await expectResponsive(client, 8);

    expect(await client.call("jobs.cancel", { jobId })).toEqual({ ok: true, value: { cancelled: true } });
    expect(await reply).toMatchObject({ ok: true, value: [{ file: "nested-q-hex.pdf", status: "error", error: { code: "CANCELLED" } }] });
    expect(performance.now() - started).toBeLessThan(30_000);
    // The child was killed, not left parsing.
    await waitFor("the child to be gone", () => (children.every((pid) => !parseChildPids().includes(pid)) ? true : undefined), 5000);

    // The queue is not blocked: the next upload imports.
    const next = await client.upload("next.pdf", Buffer.from(await regulationPdf(undefined, "Next Regulation")));
    expect(next).toMatchObject({ ok: true, value: [{ status: "ok" }] });
  });

  it("answers during a Flate bomb and refuses it as TOO_COMPLEX when the child passes its memory limit", async () => {
    const before = (await engine.listDocuments()).length;
    const reply = client.upload("bomb.pdf", contentBombPdf(1.5 * GB));
    await expectResponsive(client, 3);
    const result = await reply;
    expect(result).toMatchObject({ ok: true, value: [{ status: "error", error: { code: "TOO_COMPLEX" } }] });
    expect(JSON.stringify(result)).toMatch(/bomb\.pdf is too complex to read safely: reading took [\d,]+ MB of memory.*the limit is 600 MB/);
    expect((await engine.listDocuments()).length).toBe(before);
  });
});

/** Starts `npm run serve` on a fresh library; resolves with its process and a session. */
async function startServe(dir: string): Promise<{ proc: ReturnType<typeof spawn>; host: WebHost }> {
  const staticDir = path.join(dir, "static");
  await mkdir(staticDir, { recursive: true });
  await writeFile(path.join(staticDir, "index.html"), "<!doctype html><title>ClauseGraph</title>");
  const proc = spawn(
    process.execPath,
    ["bin/run-ts.mjs", "core/host/serve.ts", "--port", "0", "--data-dir", path.join(dir, "data"), "--static-dir", staticDir, "--quiet"],
    {
      cwd: PROJECT_DIR,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  proc.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  const url = await waitFor("serve to print its address", () => /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out)?.[0], 60_000);
  const origin = new URL(url).origin;
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
  return { proc, host: { url, origin, cookie, close: async () => undefined } };
}

// SIGKILL cannot be handled: the parsing child, busy inside pdf.js, notices its parent is gone and
// kills itself (parse-child.ts) instead of parsing on, orphaned, for minutes.
describe.each([
  ["SIGTERM", 0],
  ["SIGINT", 0],
  ["SIGKILL", null],
] as const)("npm run serve and %s during a hostile parse", (signal, exitCode) => {
  it("stops within seconds and takes its parsing child with it", { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "cg-parse-signal-"));
    const { proc, host } = await startServe(dir);
    try {
      const client = await connectHost(host);
      // The first search of a fresh library builds the default embedding model: not what is timed.
      await client.call("search", { query: "warm up" }, 90_000);
      void client.upload("nested-q-hex.pdf", hexNestedStatesPdf(100_000)).catch(() => undefined);
      await waitFor("the import to start reading", () => runningJob(client, "nested-q-hex.pdf"));
      const pid = proc.pid ?? -1;
      const children = await waitFor("the parsing child", () => (parseChildrenOf(pid).length > 0 ? parseChildrenOf(pid) : undefined));
      await expectResponsive(client, 2);
      const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
      const sent = performance.now();
      proc.kill(signal);
      expect(await exited).toBe(exitCode);
      expect(performance.now() - sent).toBeLessThan(15_000);
      await waitFor("the parsing child to be gone", () => (children.every((c) => !alive(c)) ? true : undefined), 5000);
      client.close();
    } finally {
      if (proc.exitCode === null) proc.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });
});
