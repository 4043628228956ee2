import { chmod, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LibraryCheck } from "../../core/model/store-records.ts";
import { OPEN_CHECKS_AFTER_MS, scheduleOpenChecks } from "../../core/usecases/open-library.ts";

// The checks at open (owner-only files, a damaged library reported) wait for a quiet moment: a
// question asked at once does not wait behind them. `now` runs them at once, the close ends them.

const posix = process.platform !== "win32";

describe("checks at open", () => {
  let dir: string;
  let checks: number;
  let logs: string[];
  const store = {
    checkLibrary: (): Promise<LibraryCheck> => {
      checks++;
      return Promise.resolve({ documents: 1, damaged: [{ documentId: "abc", problem: "lost", rows: { Section: 1 } }] });
    },
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-open-checks-"));
    await writeFile(path.join(dir, "graph.kuzu"), "");
    await chmod(path.join(dir, "graph.kuzu"), 0o644);
    checks = 0;
    logs = [];
  });

  afterEach(async () => {
    vi.useRealTimers();
    await rm(dir, { recursive: true, force: true });
  });

  it("run after a quiet moment, once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const scheduled = scheduleOpenChecks(dir, store, (m) => logs.push(m));
    expect(checks).toBe(0);
    await vi.advanceTimersByTimeAsync(OPEN_CHECKS_AFTER_MS);
    await scheduled.now();
    expect(checks).toBe(1);
    expect(logs.some((m) => m.includes("1 damaged document(s): abc (lost)"))).toBe(true);
    await scheduled.close();
    expect(checks).toBe(1);
  });

  it("run at once when asked, and not again when their time comes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const scheduled = scheduleOpenChecks(dir, store, (m) => logs.push(m));
    await Promise.all([scheduled.now(), scheduled.now()]);
    expect(checks).toBe(1);
    await vi.advanceTimersByTimeAsync(OPEN_CHECKS_AFTER_MS * 2);
    expect(checks).toBe(1);
    if (posix) expect((await stat(path.join(dir, "graph.kuzu"))).mode & 0o777).toBe(0o600);
  });

  it.runIf(posix)("closed before their time: the files are still made owner-only, the rows not counted", async () => {
    const scheduled = scheduleOpenChecks(dir, store, (m) => logs.push(m));
    await scheduled.close();
    expect(checks).toBe(0);
    expect((await stat(path.join(dir, "graph.kuzu"))).mode & 0o777).toBe(0o600);
  });
});
