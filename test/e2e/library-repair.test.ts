import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { makeDamagedLibrary } from "../helpers/damaged-library.ts";
import { HAS_CHROMIUM } from "./flows/chromium.ts";
import { openEngineInBrowser, type EngineBrowser } from "./flows/engine-browser.ts";
import { RESULTS_DIR } from "./flows/renderer-build.ts";

// A user opening a library that a storage bug damaged (test/helpers/damaged-library.ts) sees what
// happened in words above the documents and repairs it with one click.

const describeBrowser = HAS_CHROMIUM ? describe : describe.skip;
if (!HAS_CHROMIUM) console.warn("[e2e] library repair skipped: /usr/bin/chromium not found (apt-get install chromium)");

describeBrowser("library repair in the browser (real engine, Chromium)", () => {
  let tmp: string;
  let engine: Engine;
  let browser: EngineBrowser;
  let page: Page;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-e2e-repair-"));
    const damaged = await makeDamagedLibrary(tmp);
    expect(damaged.lost).toBe(true);
    engine = await createEngine({ dataDir: damaged.dataDir, modelRoot: path.join(tmp, "models") });
    browser = await openEngineInBrowser(engine, tmp);
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await engine?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("shows the damage in words, rebuilds the library on Repair, and lists both documents", async () => {
    const banner = page.getByTestId("library-damaged");
    await banner.waitFor({ timeout: 60_000 });
    expect(await banner.textContent()).toMatch(
      /One document of this library was damaged by a storage error.*no longer listed, but the library still holds parts of it.*Repair re-imports it/,
    );
    await page.screenshot({ path: path.join(RESULTS_DIR, "library-repair-1-damaged.png") });
    await page.getByTestId("library-repair").click();
    await page.getByTestId("library-repaired").waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("library-repaired").textContent()).toMatch(/Library rebuilt: 2 of 2 documents/);
    await expect.poll(() => page.getByTestId("document-row").count(), { timeout: 30_000 }).toBe(2);
    expect(await page.getByTestId("library-damaged").count()).toBe(0);
    await page.screenshot({ path: path.join(RESULTS_DIR, "library-repair-2-repaired.png") });
    expect(browser.problems).toEqual([]);
  });
});
