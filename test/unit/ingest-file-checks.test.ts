import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devZeroLink, fifoTxt, sparseTxt } from "../../bench/lib/hostile-pdf-fixtures.ts";
import { sha256OfFile } from "../../core/engine.ts";
import { checkFileBeforeReading } from "../../core/ingest/file-checks.ts";

// Nothing is read or hashed before the file is known to be a regular file within the
// size limits (/dev/zero, a .txt link to it and a FIFO used to hang the import while being hashed;
// a 20 GB sparse .txt took 57 s to reach TOO_LARGE), and hashing stops when the import is cancelled.

describe("checks before a file is read", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-file-checks-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses devices, links to them and FIFOs as FILE_UNREADABLE, at once", async () => {
    for (const file of ["/dev/zero", await devZeroLink(dir), fifoTxt(dir)]) {
      const started = performance.now();
      await expect(checkFileBeforeReading(file)).rejects.toMatchObject({
        code: "FILE_UNREADABLE",
        file,
        message: expect.stringMatching(/is not a regular file/),
      });
      expect(performance.now() - started).toBeLessThan(15_000);
    }
  });

  it("refuses a 20 GB sparse text file by its size, without reading it", async () => {
    const file = await sparseTxt(dir, 20 * 1024 ** 3);
    const started = performance.now();
    await expect(checkFileBeforeReading(file)).rejects.toMatchObject({ code: "TOO_LARGE", file });
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it("accepts a regular file and gives its size", async () => {
    const file = path.join(dir, "ok.txt");
    await writeFile(file, "Article 1\n");
    expect(await checkFileBeforeReading(file)).toBe(10);
  });

  it("hashes with the abort signal: a cancelled import stops hashing with CANCELLED", async () => {
    const file = path.join(dir, "big.bin");
    await writeFile(file, Buffer.alloc(32 * 1024 * 1024, 7));
    const controller = new AbortController();
    const hashing = sha256OfFile(file, controller.signal);
    controller.abort();
    await expect(hashing).rejects.toMatchObject({ code: "CANCELLED", file });
    expect(await sha256OfFile(file)).toMatch(/^[0-9a-f]{64}$/);
  });
});
