import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { chromium } from "playwright-core";
import type { BrowserContext, Page } from "playwright-core";
import { build as viteBuild } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHost } from "../../core/host/web-host.ts";
import type { WebHost } from "../../core/host/web-host.ts";
import { CHROMIUM, CHROMIUM_FLAGS } from "./flows/chromium.ts";

// The whole slice as a user meets it: the web host with the real engine, the built renderer in
// headless Chromium, a PDF dropped on the window, a search, a section opened, a bad file refused.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const RESULTS = path.join(ROOT, "test-results");
const UNIQUE_WORD = "pseudonymisation";

async function makePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle("Test Data Protection Regulation");
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const articles: [string, string, string[]][] = [
    [
      "Article 1",
      "Subject matter and objectives",
      [
        "This Regulation lays down rules relating to the protection of natural persons",
        "with regard to the processing of personal data and rules relating to the free",
        "movement of personal data.",
      ],
    ],
    [
      "Article 2",
      "Security of processing",
      [
        "The controller and the processor shall implement appropriate technical measures,",
        `including the ${UNIQUE_WORD} and encryption of personal data, to ensure a level`,
        "of security appropriate to the risk.",
      ],
    ],
    [
      "Article 3",
      "Notification of a personal data breach",
      [
        "In the case of a personal data breach, the controller shall without undue delay",
        "notify the supervisory authority not later than 72 hours after having become aware of it.",
      ],
    ],
  ];
  for (const [label, heading, lines] of articles) {
    const page = pdf.addPage([595, 842]);
    let y = 780;
    page.drawText(label, { x: 72, y, size: 14, font: bold });
    y -= 20;
    page.drawText(heading, { x: 72, y, size: 12, font: bold });
    y -= 24;
    for (const line of lines) {
      page.drawText(line, { x: 72, y, size: 10, font: regular });
      y -= 14;
    }
  }
  return pdf.save();
}

/** A real drop: a DataTransfer holding a File, dispatched on the drop zone like the browser does. */
async function dropFile(page: Page, name: string, bytes: Uint8Array, type: string): Promise<void> {
  await page.evaluate(
    ({ name, base64, type }) => {
      const binary = atob(base64);
      const data = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) data[i] = binary.charCodeAt(i);
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type }));
      const zone = document.querySelector('[data-testid="drop-zone"]');
      if (zone === null) throw new Error("no drop zone");
      for (const kind of ["dragenter", "dragover", "drop"]) {
        zone.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      }
    },
    { name, base64: Buffer.from(bytes).toString("base64"), type },
  );
}

const describeBrowser = existsSync(CHROMIUM) ? describe : describe.skip;
if (!existsSync(CHROMIUM)) {
  console.warn(`[e2e] skipped: ${CHROMIUM} not found (apt-get install chromium)`);
}

describeBrowser("web host end to end (real engine, Chromium)", () => {
  let tmp: string;
  let host: WebHost;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-e2e-"));
    const staticDir = path.join(tmp, "renderer");
    // Build from the current sources, so the test never runs against a stale dist/.
    await viteBuild({
      configFile: path.join(ROOT, "vite.config.ts"),
      logLevel: "warn",
      // Vitest sets NODE_ENV=test, so React comes in its larger development build: fine here.
      build: { outDir: staticDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
    });
    host = await startWebHost({ dataDir: path.join(tmp, "data"), port: 0, staticDir });
    await mkdir(RESULTS, { recursive: true });
    context = await chromium.launchPersistentContext(path.join(tmp, "chromium-profile"), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1400, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
    });
  });

  afterAll(async () => {
    await context?.close();
    await host?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("imports a dropped PDF, finds it by search, opens the section and refuses an empty file", async () => {
    // The printed address carries the run's secret; the host trades it for an HttpOnly, SameSite=Strict
    // cookie and sends the browser on to the clean address, so the secret leaves the address bar.
    await page.goto(host.url);
    expect(page.url()).toBe(`${host.origin}/`);
    const [cookie] = await context.cookies(host.origin);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
    expect(await page.evaluate(() => document.cookie)).toBe("");
    await page.getByTestId("library-empty").waitFor();

    await dropFile(page, "test-regulation.pdf", await makePdf(), "application/pdf");
    const row = page.getByTestId("document-row").filter({ hasText: "test-regulation.pdf" });
    await row.waitFor({ timeout: 60_000 });
    expect(await row.getAttribute("data-status")).toBe("done");
    await expect.poll(() => page.getByTestId("import-row").count()).toBe(0);
    await expect.poll(() => page.getByTestId("library-stats").textContent()).toMatch(/^1 document/);
    await page.screenshot({ path: path.join(RESULTS, "web-host-1-imported.png") });

    await page.getByTestId("tab-search").click();
    await page.getByTestId("search-input").fill(UNIQUE_WORD);
    await page.getByTestId("search-button").click();
    const result = page.getByTestId("search-result").first();
    await result.waitFor();
    expect((await result.textContent())?.toLowerCase()).toContain(UNIQUE_WORD);
    await page.screenshot({ path: path.join(RESULTS, "web-host-2-search.png") });

    await result.click();
    const view = page.getByTestId("section-view");
    await view.waitFor();
    expect((await view.textContent())?.toLowerCase()).toContain(UNIQUE_WORD);
    expect(await page.getByTestId("section-label").textContent()).not.toBe("");
    await page.screenshot({ path: path.join(RESULTS, "web-host-3-section.png") });

    await dropFile(page, "empty.pdf", new Uint8Array(0), "application/pdf");
    const error = page.getByTestId("import-error");
    await error.waitFor({ timeout: 30_000 });
    expect(await error.getAttribute("data-code")).toBe("EMPTY");
    expect(await error.textContent()).toContain("This file is empty");
    expect(await page.getByTestId("document-row").count()).toBe(1);
    await expect.poll(() => page.getByTestId("library-stats").textContent()).toMatch(/^1 document/);
    await page.screenshot({ path: path.join(RESULTS, "web-host-4-empty-file.png") });

    // A CSP violation or a renderer exception shows up here.
    expect(problems).toEqual([]);
  });
});
