import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readSetting, writeSetting } from "../../core/files/settings-file.ts";
import { estimateOcrSeconds } from "../../core/ingest/ocr/ocr-needed.ts";
import { readOcrPace, recordOcrPace } from "../../core/ingest/ocr/ocr-pace.ts";

// The OCR prompt's "about N s" comes from this machine's own OCR imports once there are any: the
// median of the last five, a resumed import served from the page cache not counted, kept in
// settings.json beside the other settings, none of which a concurrent write loses.

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "cg-ocr-pace-"));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("OCR pace", () => {
  it("starts from the default and then follows the measured pages", async () => {
    expect(await readOcrPace(dataDir)).toBeNull();
    // Default: 4 s a page per worker, plus the start.
    expect(estimateOcrSeconds(4, 2)).toBe(10);
    await recordOcrPace(dataDir, 4, 37);
    const pace = await readOcrPace(dataDir);
    expect(pace).toBeCloseTo(9.25);
    expect(estimateOcrSeconds(4, 2, pace ?? undefined)).toBe(39);
  });

  it("takes the median of the last five runs and ignores runs served from the cache", async () => {
    for (const seconds of [30, 40, 8, 50, 60, 70]) await recordOcrPace(dataDir, 10, seconds);
    // Kept: 4, 0.8, 5, 6, 7 seconds a page (the first run dropped); median 5.
    expect(await readOcrPace(dataDir)).toBe(5);
    await recordOcrPace(dataDir, 10, 1);
    expect(await readOcrPace(dataDir)).toBe(5);
  });

  it("keeps the other settings, even written at the same time", async () => {
    await Promise.all([writeSetting(dataDir, "ocr", { mode: "auto", language: "eng" }), recordOcrPace(dataDir, 2, 10), writeSetting(dataDir, "other", 1)]);
    expect(await readSetting(dataDir, "ocr")).toEqual({ mode: "auto", language: "eng" });
    expect(await readSetting(dataDir, "other")).toBe(1);
    expect(JSON.parse(await readFile(path.join(dataDir, "settings.json"), "utf8")).ocrPace).toEqual({ secondsPerPage: [5] });
  });
});
