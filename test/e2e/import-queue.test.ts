import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";
import { regulationPdfOfPages } from "../helpers/regulation-pdf.ts";
import { dropFiles } from "./flows/auditor-flow.ts";
import { HAS_CHROMIUM } from "./flows/chromium.ts";
import { openEngineInBrowser, type EngineBrowser } from "./flows/engine-browser.ts";
import { RESULTS_DIR } from "./flows/renderer-build.ts";

// The import queue, in the browser against the real engine behind the web host: four files
// dropped at once are imported in drop order, one at a time; the first enters the library (document
// list, searchable) as soon as it is done, before the later ones; the second is cancelled while its
// pages are read (it issued "readPdf after task.destroy()" and every later import stayed "Waiting"
// until the server restarted); the fourth is cancelled while it waits and is never sent; the third
// imports; no finished row keeps a Cancel button.

const NAMES = ["first.pdf", "second-large.pdf", "third.pdf", "fourth.pdf"] as const;

(HAS_CHROMIUM ? describe : describe.skip)("import queue in the browser (web host, Chromium)", () => {
  let tmp: string;
  let engine: Engine;
  let browser: EngineBrowser;
  let page: Page;
  const files: string[] = [];
  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: path.join(RESULTS_DIR, `import-queue-${name}.png`) });
  const row = (name: string) => page.getByTestId("import-row").filter({ hasText: name });
  const documentRow = (name: string) => page.getByTestId("document-row").filter({ hasText: name });

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-import-queue-"));
    // 400 generated pages take a few seconds to read, so the cancel lands in the middle of it.
    const pages = [3, 400, 3, 3];
    for (const [index, name] of NAMES.entries()) {
      const file = path.join(tmp, name);
      await writeFile(file, await regulationPdfOfPages(`queueword${index}x`, pages[index] ?? 3));
      files.push(file);
    }
    engine = await createEngine({ dataDir: path.join(tmp, "data"), embedder: hashEmbedder("hash-32", 32), llm: null });
    browser = await openEngineInBrowser(engine, tmp);
    page = browser.page;
    await page.getByTestId("library-empty").waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await engine?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("imports in drop order, each file entering the library when done; cancels while reading and while waiting; the queue goes on", async () => {
    expect(await dropFiles(page, files)).toBe("uploads");
    // The fourth waits behind the others: cancelled there, it is never sent.
    await row(NAMES[3]).waitFor();
    expect(await row(NAMES[3]).getAttribute("data-state")).toBe("queued");
    await row(NAMES[3]).getByTestId("import-cancel").click();
    await expect.poll(() => row(NAMES[3]).getAttribute("data-state")).toBe("cancelled");

    // The second is being read: the first is already in the library, the third still waits.
    const second = row(NAMES[1]);
    await expect.poll(() => second.locator(".row-meta").textContent(), { timeout: 60_000, interval: 50 }).toMatch(/Reading pages · \d+ of 400 pages/);
    // Already stored or about to be: the wait only allows for a busy machine drawing the row.
    await documentRow(NAMES[0]).waitFor({ timeout: 15_000 });
    expect(await row(NAMES[0]).count()).toBe(0);
    // Sent and waiting in the engine behind the second (so the engine skips an index rebuild between them).
    expect(await row(NAMES[2]).locator(".row-meta").textContent()).toBe("Waiting");
    await shot("1-reading-second");
    await second.getByTestId("import-cancel").click();

    await expect.poll(() => second.getAttribute("data-state"), { timeout: 15_000 }).toBe("cancelled");
    await expect(second.getByTestId("import-cancelled").textContent()).resolves.toMatch(/Cancelled/);
    await documentRow(NAMES[2]).waitFor({ timeout: 60_000 });
    await shot("2-after-queue");

    // Exactly the first and third are in the library; no row offers Cancel any more.
    expect(await page.getByTestId("document-file").allTextContents()).toEqual(expect.arrayContaining([NAMES[0], NAMES[2]]));
    expect(await page.getByTestId("document-row").count()).toBe(2);
    expect(await page.getByTestId("import-cancel").count()).toBe(0);
    expect((await engine.listDocuments()).map((d) => d.fileName).sort()).toEqual([NAMES[0], NAMES[2]].sort());
    const { results } = await engine.search("queueword2x", { k: 1 });
    expect(results[0]?.file).toMatch(/third\.pdf$/);
    expect(browser.problems).toEqual([]);
  }, 180_000);
});
