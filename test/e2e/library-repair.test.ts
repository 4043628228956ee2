import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHost } from "../../core/host/web-host.ts";
import type { WebHost } from "../../core/host/web-host.ts";
import { makeDamagedLibrary } from "../helpers/damaged-library.ts";
import { HAS_CHROMIUM, launchChromium } from "./flows/chromium.ts";
import { watchProblems } from "./flows/page-problems.ts";
import { buildRendererInto, RESULTS_DIR } from "./flows/renderer-build.ts";

// A user opening a library that a storage bug damaged (test/helpers/damaged-library.ts) sees what
// happened in words above the documents and repairs it with one click.

const describeBrowser = HAS_CHROMIUM ? describe : describe.skip;
if (!HAS_CHROMIUM) console.warn("[e2e] library repair skipped: /usr/bin/chromium not found (apt-get install chromium)");

describeBrowser("library repair in the browser (real engine, Chromium)", () => {
  let tmp: string;
  let host: WebHost;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-e2e-repair-"));
    const staticDir = path.join(tmp, "renderer");
    await buildRendererInto(staticDir);
    const damaged = await makeDamagedLibrary(tmp);
    expect(damaged.lost).toBe(true);
    host = await startWebHost({ dataDir: damaged.dataDir, port: 0, staticDir });
    await mkdir(RESULTS_DIR, { recursive: true });
    context = await launchChromium(path.join(tmp, "chromium-profile"));
    page = context.pages()[0] ?? (await context.newPage());
    problems = await watchProblems(page);
  });

  afterAll(async () => {
    await context?.close();
    await host?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("shows the damage in words, rebuilds the library on Repair, and lists both documents", async () => {
    await page.goto(host.url);
    const banner = page.getByTestId("library-damaged");
    await banner.waitFor({ timeout: 60_000 });
    expect(await banner.textContent()).toMatch(/One document of this library was damaged by a storage error.*no longer listed, but the library still holds parts of it.*Repair re-imports it/);
    await page.screenshot({ path: path.join(RESULTS_DIR, "library-repair-1-damaged.png") });
    await page.getByTestId("library-repair").click();
    await page.getByTestId("library-repaired").waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("library-repaired").textContent()).toMatch(/Library rebuilt: 2 of 2 documents/);
    await expect.poll(() => page.getByTestId("document-row").count(), { timeout: 30_000 }).toBe(2);
    expect(await page.getByTestId("library-damaged").count()).toBe(0);
    await page.screenshot({ path: path.join(RESULTS_DIR, "library-repair-2-repaired.png") });
    expect(problems).toEqual([]);
  });
});
