import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { JobProgress } from "../../core/model/job.ts";
import { alive, parseChildrenOf } from "../helpers/process-tree.ts";
import { scannedPdf } from "../helpers/scanned-pdf.ts";

// OCR is cancellable and resumable. An import cancelled while its scanned pages are read,
// and an engine killed with SIGKILL at the same point (its parsing child, which runs Tesseract,
// notices and exits), leave the finished pages in <data dir>/ocr-cache; the next import of the file
// takes those from the cache and reads only the others, and imports it whole.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const KILL_CHILD = path.join(ROOT, "bench/lib/kill-child.ts");
const RUN_TS = path.join(ROOT, "bin/run-ts.mjs");
const PAGES = 3;

/** A scanned regulation of PAGES short pages; `marker` makes each file (and its pictures) distinct. */
async function scannedRegulation(marker: string): Promise<Uint8Array> {
  const pages = Array.from({ length: PAGES }, (_, i) => ({
    scan: true,
    lines: [
      { text: `Article ${i + 1}`, bold: true, size: 11 },
      { text: `Keeping of the ${marker} register, part ${i + 1}`, bold: true, size: 11 },
      { text: `1. The keeper shall keep the ${marker} register for ${i + 5} years after the last entry.` },
      { text: "2. The keeper shall notify the competent authority of any loss within 72 hours." },
    ],
  }));
  return (await scannedPdf(pages)).pdf;
}

async function cacheEntries(dataDir: string): Promise<string[]> {
  return (await readdir(path.join(dataDir, "ocr-cache")).catch(() => [] as string[])).filter((f) => f.endsWith(".json"));
}

/** Runs an import in a child engine process and SIGKILLs it once `when` matches a progress line. */
function importAndKill(dataDir: string, file: string, when: RegExp): Promise<{ lines: string[]; orphans: number[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUN_TS, KILL_CHILD, "--data", dataDir, "--models", dataDir, file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const lines: string[] = [];
    let orphans: number[] = [];
    let pending = "";
    let killed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (!killed && when.test(line)) {
          killed = true;
          // The parsing child (Tesseract's workers are its threads) is left to notice on its own.
          orphans = parseChildrenOf(child.pid ?? -1);
          child.kill("SIGKILL");
        }
      }
    });
    child.once("error", reject);
    child.once("exit", () => (killed ? resolve({ lines, orphans }) : reject(new Error(`the import ended before it was killed: ${lines.join(" | ")}`))));
  });
}

describe("OCR: cancel and SIGKILL in the middle, then resume", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-ocr-resume-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("a cancelled import keeps its finished pages and the next one reads only the rest", async () => {
    const file = path.join(dir, "cancelled.pdf");
    await writeFile(file, await scannedRegulation("cancelled"));
    const dataDir = path.join(dir, "cancel-data");
    const engine = await createEngine({ dataDir, embedder: null, llm: null });
    try {
      const controller = new AbortController();
      const onProgress = (p: JobProgress): void => {
        if (p.step === "ocr" && p.current >= 1) controller.abort();
      };
      const [cancelled] = await engine.importFiles([file], { signal: controller.signal, onProgress });
      expect(cancelled?.error?.code).toBe("CANCELLED");
      expect(await engine.listDocuments()).toEqual([]);
      const finished = await cacheEntries(dataDir);
      expect(finished.length).toBeGreaterThanOrEqual(1);
      expect(finished.length).toBeLessThan(PAGES);
      for (const entry of finished) expect((await stat(path.join(dataDir, "ocr-cache", entry))).mode & 0o077).toBe(0);

      const ocrSteps: JobProgress[] = [];
      const [resumed] = await engine.importFiles([file], { onProgress: (p) => p.step === "ocr" && ocrSteps.push(p) });
      expect(resumed?.status, JSON.stringify(resumed?.error)).toBe("ok");
      expect(resumed?.ocr?.pages).toEqual([1, 2, 3]);
      // The pages finished before the cancel came from the cache, not from Tesseract again.
      expect(resumed?.warnings.join(" ")).toContain(`${finished.length} page(s) read with OCR by an earlier`);
      expect(await cacheEntries(dataDir)).toHaveLength(PAGES);
      expect(ocrSteps.at(-1)).toMatchObject({ current: PAGES, total: PAGES });
      // Every page's text is there, the cached pages' as well as the ones read after the cancel.
      const text = (await engine.getSections(resumed?.documentId ?? "")).map((s) => `${s.heading}\n${s.text}`).join("\n");
      // (Spaces aside: at 144 dpi Tesseract sometimes sets "for6" for "for 6".)
      const letters = text.replace(/\s/g, "");
      for (let page = 1; page <= PAGES; page++) expect(letters).toContain(`for${page + 4}yearsafterthelastentry`);
    } finally {
      await engine.close();
    }
  });

  it("an engine killed with SIGKILL during OCR: its parsing child exits, the re-run resumes from the cache", async () => {
    const file = path.join(dir, "killed.pdf");
    await writeFile(file, await scannedRegulation("killed"));
    const dataDir = path.join(dir, "kill-data");
    const { lines, orphans } = await importAndKill(dataDir, file, /^progress running ocr [1-9]\d*\/\d+$/);
    expect(lines.some((l) => l.startsWith("progress running ocr"))).toBe(true);
    expect(orphans.length).toBeGreaterThanOrEqual(1);
    // The orphaned parsing child checks its parent every 0.5 s.
    const deadline = Date.now() + 10_000;
    while (orphans.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(orphans.filter(alive)).toEqual([]);
    const finished = await cacheEntries(dataDir);
    expect(finished.length).toBeGreaterThanOrEqual(1);

    const engine = await createEngine({ dataDir, embedder: null, llm: null });
    try {
      const [resumed] = await engine.importFiles([file]);
      expect(resumed?.status, JSON.stringify(resumed?.error)).toBe("ok");
      expect(resumed?.warnings.join(" ")).toContain(`${finished.length} page(s) read with OCR by an earlier`);
      expect(resumed?.ocr?.pages).toEqual([1, 2, 3]);
      expect(await engine.listDocuments()).toHaveLength(1);
    } finally {
      await engine.close();
    }
  });
});
