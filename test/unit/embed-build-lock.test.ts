import { mkdir, mkdtemp, rm, stat, utimes } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withDirLock } from "../../core/embed/build-lock.ts";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cg-lock-"));
});

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("withDirLock", () => {
  it("runs concurrent holders one at a time and releases the lock", async () => {
    const lock = path.join(dir, "a.lock");
    let inside = 0;
    let maxInside = 0;
    const work = async (): Promise<void> => {
      inside++;
      maxInside = Math.max(maxInside, inside);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inside--;
    };
    await Promise.all([1, 2, 3].map(() => withDirLock(lock, work, { pollMs: 5 })));
    expect(maxInside).toBe(1);
    await expect(stat(lock)).rejects.toThrow();
  });

  it("releases the lock when the work throws", async () => {
    const lock = path.join(dir, "b.lock");
    await expect(withDirLock(lock, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(stat(lock)).rejects.toThrow();
  });

  it("breaks a lock left behind by a crashed process once it is stale", async () => {
    const lock = path.join(dir, "c.lock");
    await mkdir(lock);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect(await withDirLock(lock, () => Promise.resolve("ran"), { staleMs: 1_000, pollMs: 5 })).toBe("ran");
  });
});
