import os from "node:os";
import { describe, expect, it } from "vitest";
import { isClauseGraphError } from "../../core/model/errors.ts";
import { ensureFreeSpace, freeBytes } from "../../core/store/free-space.ts";
import { toStoreError } from "../../core/store/kuzu/store-errors.ts";

// The real disk-full and read-only cases run on real file systems in test/e2e/disk-faults.test.ts;
// these pin the pieces: the free-space guard and how Kuzu's OS errors are worded for the user.

describe("free-space guard", () => {
  it("measures the free space of a real folder", async () => {
    expect(await freeBytes(os.tmpdir())).toBeGreaterThan(0);
    expect(await freeBytes("/no/such/folder/anywhere")).toBeNull();
  });

  it("refuses a write below the margin with WRITE_FAILED naming the folder and the figures", async () => {
    const err = await ensureFreeSpace(os.tmpdir(), Number.MAX_SAFE_INTEGER, "storing gdpr.pdf").then(
      () => null,
      (e: unknown) => e,
    );
    expect(isClauseGraphError(err) && err.code).toBe("WRITE_FAILED");
    expect(isClauseGraphError(err) && err.file).toBe(os.tmpdir());
    expect(err instanceof Error && err.message).toMatch(
      /could not start storing gdpr\.pdf: the disk holding .* is almost full \(\d+ MB free; .*nothing was changed/,
    );
  });

  it("lets writes through above the margin, when turned off, and when the figure is unknown", async () => {
    await expect(ensureFreeSpace(os.tmpdir(), 1, "x")).resolves.toBeUndefined();
    await expect(ensureFreeSpace(os.tmpdir(), 0, "x")).resolves.toBeUndefined();
    await expect(ensureFreeSpace("/no/such/folder/anywhere", Number.MAX_SAFE_INTEGER, "x")).resolves.toBeUndefined();
  });
});

describe("Kuzu's disk errors in words", () => {
  it("no space left → WRITE_FAILED 'the disk is full'", () => {
    const e = toStoreError(
      new Error("IO exception: Cannot write to file. path: /d/graph.kuzu … Error: No space left on device"),
      "/d/graph.kuzu",
      "storing a.pdf",
    );
    expect(e.code).toBe("WRITE_FAILED");
    expect(e.message).toMatch(/^the disk is full: .*\/d\/graph\.kuzu while storing a\.pdf/);
    expect(e.file).toBe("/d/graph.kuzu");
  });

  it("read-only file system (in words or as EROFS, also when wrapped) → WRITE_FAILED 'read-only'", () => {
    const words = toStoreError(new Error("IO exception: Cannot open file /d/graph.kuzu: Read-only file system"), "/d/graph.kuzu", "opening the database");
    expect(words.code).toBe("WRITE_FAILED");
    expect(words.message).toContain("read-only");
    const wrapped = toStoreError(new Error("outer", { cause: Object.assign(new Error("mkdir failed"), { code: "EROFS" }) }), "/d/graph.kuzu", "x");
    expect(wrapped.code).toBe("WRITE_FAILED");
  });

  it("other Kuzu errors stay DB_ERROR", () => {
    expect(toStoreError(new Error("Binder exception: table X does not exist"), "/d/graph.kuzu", "x").code).toBe("DB_ERROR");
  });
});
