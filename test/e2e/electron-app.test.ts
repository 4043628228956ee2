import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { _electron } from "playwright-core";
import type { ElectronApplication, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, buildElectron } from "../../scripts/build.mjs";
import { describeCorpus } from "../helpers/corpus.ts";
import { runAuditorFlow } from "./flows/auditor-flow.ts";
import { corpusFlowOptions } from "./flows/corpus-flow-options.ts";
import { collectProblems, reportCspViolations, reportCspViolationsNow } from "./flows/page-problems.ts";
import { buildRendererInto } from "./flows/renderer-build.ts";

// The same auditor flow as ui-corpus.test.ts, through the real desktop app: main, the sandboxed
// preload and the engine in its utilityProcess. Runs only where an Electron runtime exists (our
// build machines cannot download one); says why in one line otherwise.
//
// Dropped files: the flow drops Files that Playwright put in a file input from disk
// (DOM.setFileInputFiles), so they are disk-backed like an OS drag and the preload's
// webUtils.getPathForFile resolves them to paths: the import goes through `documents.import` with
// paths, not through an upload. If a runtime ever hands the renderer path-less Files, the renderer
// falls back to uploading their bytes and the flow still holds; the test logs which one happened.

type ElectronLookup = { ok: true; executable: string } | { ok: false; reason: string };

/** ELECTRON_PATH, else the binary the `electron` package installed (its require() throws when none). */
function findElectron(): ElectronLookup {
  const fromEnv = process.env.ELECTRON_PATH;
  if (fromEnv !== undefined && fromEnv !== "") {
    return existsSync(fromEnv) ? { ok: true, executable: fromEnv } : { ok: false, reason: `ELECTRON_PATH=${fromEnv} does not exist` };
  }
  try {
    const binary: unknown = createRequire(import.meta.url)("electron");
    if (typeof binary === "string" && existsSync(binary)) return { ok: true, executable: binary };
    return { ok: false, reason: `the electron package names ${String(binary)}, which does not exist` };
  } catch {
    // The package's require() throws "Electron failed to install correctly" when its binary
    // download was skipped or failed, as on our build machines.
    return { ok: false, reason: "no ELECTRON_PATH, and the electron npm package has no runtime binary (its download is not possible here)" };
  }
}

/** Linux without a display server: Chromium's headless Ozone backend instead of X11/Wayland. */
function displayArgs(): string[] {
  if (process.platform !== "linux") return [];
  const hasDisplay = (process.env.DISPLAY ?? "") !== "" || (process.env.WAYLAND_DISPLAY ?? "") !== "";
  return hasDisplay ? [] : ["--ozone-platform=headless"];
}

const NAME = "auditor flow in the Electron app (GDPR + DORA)";
const electron = findElectron();

function suite(executable: string): void {
  let tmp: string | undefined;
  let outDir: string | undefined;
  let app: ElectronApplication | undefined;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-electron-"));
    // Inside the checkout so the bundles' externals (kuzu, pdf.js…) resolve from node_modules;
    // main.js loads ../renderer/index.html, so both builds sit side by side.
    outDir = await mkdtemp(path.join(ROOT, "test-results", "electron-app-"));
    await buildRendererInto(path.join(outDir, "renderer"));
    await buildElectron({ outDir: path.join(outDir, "electron") });
    app = await _electron.launch({
      executablePath: executable,
      cwd: ROOT,
      args: [
        path.join(outDir, "electron", "main.js"),
        "--data-dir",
        path.join(tmp, "data"),
        // A fresh profile: no state from a developer's own ClauseGraph, and no single-instance clash with it.
        `--user-data-dir=${path.join(tmp, "profile")}`,
        ...displayArgs(),
      ],
      timeout: 90_000,
    });
    await reportCspViolations(app.context());
    app.process().stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8").trim();
      if (text !== "") console.log(`[e2e electron stderr] ${text}`);
    });
    page = await app.firstWindow();
    collectProblems(page, problems);
    await reportCspViolationsNow(page);
  });

  afterAll(async () => {
    await app?.close();
    if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
    if (outDir !== undefined) await rm(outDir, { recursive: true, force: true });
  });

  it("imports, answers with a citation, opens it on its page, explores the graph and refuses bad files", { timeout: 300_000 }, async () => {
    const report = await runAuditorFlow(
      page,
      corpusFlowOptions("corpus-electron", (line) => console.log(`[e2e electron] ${line}`)),
    );
    console.log(`[e2e electron] dropped files were imported as ${report.droppedAs}`);
    console.log(`[e2e electron] citation ${report.citation.chip} → ${report.citation.label}, p. ${report.citation.page}`);
    console.log(`[e2e electron] screenshots: ${report.screenshots.map((s) => path.basename(s)).join(", ")}`);
  });

  it("raised no page error, console error or CSP violation", () => {
    expect(problems).toEqual([]);
  });

  it("refuses every request that is not one of the app's own files", async () => {
    // The session's onBeforeRequest (electron/request-policy.ts) cancels these before any socket
    // opens; the CSP would refuse most of them too, so both layers must hold.
    const outcomes = await page.evaluate(async () => {
      const urls = ["https://example.com/", "http://127.0.0.1:9/", "file:///etc/hostname"];
      const results: string[] = [];
      for (const url of urls) {
        try {
          await fetch(url);
          results.push(`${url} loaded`);
        } catch {
          results.push(`${url} refused`);
        }
      }
      return results;
    });
    expect(
      outcomes.every((o) => o.endsWith("refused")),
      outcomes.join("\n"),
    ).toBe(true);
  });
}

if (electron.ok) {
  describeCorpus(NAME, () => suite(electron.executable));
} else {
  console.warn(`[e2e] electron-app skipped: ${electron.reason}`);
  describe.skip(NAME, () => {
    it("needs an Electron runtime", () => undefined);
  });
}
