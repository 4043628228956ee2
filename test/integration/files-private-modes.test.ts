import { chmod, link, lstat, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import { tightenDataDir } from "../../core/files/private-files.ts";
import { parseJson, runCli } from "../helpers/cli.ts";

// graph.kuzu and sources/* were created 0644 in 0755 folders, readable by every local
// user. The library must be owner-only: folders 0700, files 0600.

const posix = process.platform !== "win32";
const describePosix = posix ? describe : describe.skip;

const mode = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;

/** Every entry under dir (symlinks not followed) with its permission bits. */
async function modes(dir: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      found.set(path.relative(dir, full), (await lstat(full)).mode & 0o777);
      if (entry.isDirectory()) await walk(full);
    }
  };
  found.set(".", await mode(dir));
  await walk(dir);
  return found;
}

const ARTICLE = "Article 1\nScope\nThis regulation applies to the processing of personal data by auditors.\n";

describePosix("owner-only data directory", () => {
  let tmp: string;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-modes-"));
  });

  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("creates the library 0700 with graph.kuzu and source copies 0600, whatever the umask and the original's mode", async () => {
    const source = path.join(tmp, "world-readable.txt");
    await writeFile(source, ARTICLE);
    await chmod(source, 0o644);
    const dataDir = path.join(tmp, "data");
    // In-process (as the tests and the benches use it), with the usual 022 umask: the engine itself must tighten.
    const engine = await createEngine({ dataDir, embedder: null, llm: null });
    try {
      const [result] = await engine.importFiles([source]);
      expect(result?.status).toBe("ok");
    } finally {
      await engine.close();
    }
    expect(await mode(dataDir)).toBe(0o700);
    expect(await mode(path.join(dataDir, "graph.kuzu"))).toBe(0o600);
    expect(await mode(path.join(dataDir, "sources"))).toBe(0o700);
    const copies = [...(await modes(path.join(dataDir, "sources")))].filter(([name]) => name !== ".");
    expect(copies.length).toBeGreaterThan(0);
    for (const [name, bits] of copies) expect(bits & 0o077, name).toBe(0);
    expect(await mode(source)).toBe(0o644); // the user's own file is untouched
  });

  it("tightens an existing library of ours, and leaves hard-linked files (a linked model) alone", async () => {
    const dataDir = path.join(tmp, "old-library");
    await mkdir(path.join(dataDir, "sources"), { recursive: true, mode: 0o755 });
    await chmod(dataDir, 0o755);
    await writeFile(path.join(dataDir, "sources", "abc.pdf"), "%PDF-1.7", { mode: 0o644 });
    const usersModel = path.join(tmp, "model.gguf");
    await writeFile(usersModel, "GGUF", { mode: 0o644 });
    await mkdir(path.join(dataDir, "models", "m"), { recursive: true });
    await link(usersModel, path.join(dataDir, "models", "m", "model.gguf"));
    await tightenDataDir(dataDir);
    expect(await mode(dataDir)).toBe(0o700);
    expect(await mode(path.join(dataDir, "sources"))).toBe(0o700);
    expect(await mode(path.join(dataDir, "sources", "abc.pdf"))).toBe(0o600);
    expect(await mode(path.join(dataDir, "models", "m"))).toBe(0o700);
    expect(await mode(usersModel)).toBe(0o644);
  });

  it("the CLI (umask 077) leaves nothing readable by others: database, source copies, built model, answer log", { timeout: 120_000 }, async () => {
    const source = path.join(tmp, "regulation.txt");
    await writeFile(source, ARTICLE, { mode: 0o644 });
    const dataDir = path.join(tmp, "cli-data");
    const ingest = await runCli(["ingest", source, "--db", dataDir, "--json"]);
    expect(ingest.code, ingest.stderr).toBe(0);
    const ask = await runCli(["ask", "who does this regulation apply to?", "--db", dataDir, "--json"]);
    expect(ask.code, ask.stderr).toBe(0);
    parseJson<unknown>(ask);
    const found = await modes(dataDir);
    expect([...found.keys()]).toEqual(expect.arrayContaining([".", "graph.kuzu", "sources", "answer-log.jsonl"]));
    const open = [...found].filter(([, bits]) => (bits & 0o077) !== 0).map(([file, bits]) => `${file} ${bits.toString(8)}`);
    expect(open).toEqual([]);
  });
});
