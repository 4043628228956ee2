import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hexNestedStatesPdf } from "../../bench/lib/hostile-pdf-fixtures.ts";
import { killParseChildren } from "../../bench/lib/rss-sampler.ts";
import { regulationPdf } from "../../bench/lib/trust-fixtures.ts";
import { createParsePool } from "../../core/ingest/parse-isolated.ts";
import { resolveParseLimits } from "../../core/ingest/parse-limits.ts";
import { isClauseGraphError } from "../../core/model/errors.ts";

// A parsing child that dies before it answers (a native crash on the file, or the system's
// out-of-memory killer) is the file's typed refusal, TOO_COMPLEX in words, never INTERNAL; the
// next file gets a new child and reads.

describe("a parsing child that dies", () => {
  let dir: string;
  const pool = createParsePool();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-parse-death-"));
  });

  afterAll(async () => {
    pool.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("is TOO_COMPLEX naming the file, and the next file reads", { timeout: 180_000 }, async () => {
    const slow = path.join(dir, "nested.pdf");
    await writeFile(slow, hexNestedStatesPdf(100_000));
    const parsing = pool.parse(slow, { limits: resolveParseLimits() });
    // Killed from outside once it is at work, as the out-of-memory killer would.
    const killer = setInterval(killParseChildren, 100);
    const error = await parsing.then(
      () => null,
      (err: unknown) => err,
    );
    clearInterval(killer);
    expect(isClauseGraphError(error) ? error.code : String(error)).toBe("TOO_COMPLEX");
    expect(String((error as Error).message)).toMatch(/nested\.pdf could not be read: the reading process stopped before it finished \(it was killed \(SIGKILL/);

    const good = path.join(dir, "good.pdf");
    await writeFile(good, await regulationPdf());
    const document = await pool.parse(good, { limits: resolveParseLimits() });
    expect(document.pages.length).toBe(4);
  });
});
