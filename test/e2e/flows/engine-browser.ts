import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { Engine } from "../../../core/model/engine-types.ts";
import { startWebHost } from "../../../core/host/web-host.ts";
import type { WebHost } from "../../../core/host/web-host.ts";
import { launchChromium } from "./chromium.ts";
import { watchProblems } from "./page-problems.ts";
import { buildRendererInto, RESULTS_DIR } from "./renderer-build.ts";

// The renderer built from the working tree, served by the web host over an engine the test made
// (its own embedder or scripted model), and opened in Chromium with the session's key, the page's
// problems collected. For the flows (import queue, answers under control).

export interface EngineBrowser {
  host: WebHost;
  context: BrowserContext;
  page: Page;
  /** Page errors, console errors and CSP violations so far. */
  problems: string[];
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A renderer already built there (e.g. while the test's library was imported). */
  builtRenderer?: string;
}

export async function openEngineInBrowser(engine: Engine, tmp: string, options: OpenOptions = {}): Promise<EngineBrowser> {
  const staticDir = options.builtRenderer ?? path.join(tmp, "renderer");
  if (options.builtRenderer === undefined) await buildRendererInto(staticDir);
  const host = await startWebHost({ dataDir: engine.dataDir, port: 0, staticDir, engine });
  await mkdir(RESULTS_DIR, { recursive: true });
  const context = await launchChromium(path.join(tmp, "profile"));
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = await watchProblems(page);
  await page.goto(host.url);
  return {
    host,
    context,
    page,
    problems,
    async close() {
      await context.close();
      await host.close();
    },
  };
}
