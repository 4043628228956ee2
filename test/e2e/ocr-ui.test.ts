import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";
import { articleLines } from "../helpers/make-pdf.ts";
import { scannedPdf } from "../helpers/scanned-pdf.ts";
import { dropFiles } from "./flows/auditor-flow.ts";
import { HAS_CHROMIUM } from "./flows/chromium.ts";
import { openEngineInBrowser, type EngineBrowser } from "./flows/engine-browser.ts";
import { RESULTS_DIR } from "./flows/renderer-build.ts";

// OCR in the browser, against the real engine behind the web host: a scanned PDF dropped on
// the window asks once ("This PDF is scanned — read it with OCR (about N s)?"); read with OCR and
// "remember my choice", its pages show as OCR progress and it enters the library marked OCR; the
// next scan (a 50 dpi fax: Tesseract is unsure of it) is read without asking and is flagged "OCR,
// low confidence" in the library, and so is an answer's citation of it; a citation of the scan
// opens the scanned page with the cited sentence highlighted on it.

(HAS_CHROMIUM ? describe : describe.skip)("OCR in the browser (web host, Chromium)", () => {
  let tmp: string;
  let engine: Engine;
  let browser: EngineBrowser;
  let page: Page;
  let scanned: string;
  let fax: string;
  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: path.join(RESULTS_DIR, `ocr-${name}.png`) });
  const row = (name: string) => page.getByTestId("import-row").filter({ hasText: name });
  const documentRow = (name: string) => page.getByTestId("document-row").filter({ hasText: name });

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-ocr-ui-"));
    scanned = path.join(tmp, "scanned-regulation.pdf");
    fax = path.join(tmp, "fax-copy.pdf");
    const body = (n: number): string[] => [
      `1. The operator shall keep the incident register for ${n + 4} years after the last entry.`,
      "2. The operator shall notify the competent authority of any loss of the register within 72 hours.",
      "3. The competent authority may inspect the register at any time during working hours.",
    ];
    await writeFile(
      scanned,
      (
        await scannedPdf([
          { scan: true, lines: articleLines(1, "Incident register", body(1)) },
          { scan: true, lines: articleLines(2, "Inspection", body(2)) },
        ])
      ).pdf,
    );
    await writeFile(
      fax,
      (
        await scannedPdf([
          {
            scan: true,
            scale: 0.7,
            lines: articleLines(7, "Retention of fax records", [
              "1. The archivist shall retain every fax record for seven years after receipt.",
              "2. Fax records shall be destroyed securely once the retention period has ended.",
              "3. The archivist shall keep a log of every destruction of fax records.",
            ]),
          },
        ])
      ).pdf,
    );
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

  it("asks once, shows OCR progress, remembers the choice, and flags low confidence in the library and in citations", async () => {
    expect(await engine.ocrPreference()).toEqual({ mode: "ask", language: "auto" });
    await dropFiles(page, [scanned]);
    const prompt = row("scanned-regulation.pdf").getByTestId("ocr-prompt");
    await prompt.waitFor({ timeout: 60_000 });
    expect(await prompt.getByTestId("ocr-question").textContent()).toMatch(/^This PDF is scanned — read it with OCR \(about \d+ s\)\?$/);
    expect(await row("scanned-regulation.pdf").getAttribute("data-state")).toBe("needs-ocr");
    expect(await engine.listDocuments()).toEqual([]);
    await shot("1-question");

    // Yes, and remember it: the pages are read with OCR, one by one.
    await prompt.getByTestId("ocr-remember").check();
    await prompt.getByTestId("ocr-read").click();
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const meta =
            (await row("scanned-regulation.pdf")
              .locator(".row-meta")
              .textContent()
              .catch(() => null)) ?? "";
          if (/Reading scanned pages \(OCR\) · \d of 2 pages/.test(meta)) {
            if (!seen.has(meta)) await shot("2-progress");
            seen.add(meta);
          }
          return (await documentRow("scanned-regulation.pdf").count()) > 0;
        },
        { timeout: 120_000, interval: 50 },
      )
      .toBe(true);
    expect([...seen].join(" / ")).toMatch(/Reading scanned pages \(OCR\) · [01] of 2 pages/);
    expect(await documentRow("scanned-regulation.pdf").getByTestId("document-ocr").getAttribute("title")).toMatch(
      /2 pages read with OCR \(English\), mean confidence \d+/,
    );
    expect(await engine.ocrPreference()).toEqual({ mode: "auto", language: "auto" });
    expect(await page.getByTestId("ocr-setting-mode").inputValue()).toBe("auto");

    // The next scan is read without asking; Tesseract is unsure of the fax, and the library says so.
    await dropFiles(page, [fax]);
    await documentRow("fax-copy.pdf").waitFor({ timeout: 120_000 });
    expect(await page.getByTestId("ocr-prompt").count()).toBe(0);
    const low = documentRow("fax-copy.pdf").getByTestId("document-ocr-low");
    expect(await low.textContent()).toBe("OCR, low confidence · p. 1");
    expect(await low.getAttribute("title")).toMatch(/check the text against the scan/);
    await shot("3-library-low-confidence");

    // An answer citing the fax says "OCR, low confidence" on its chip.
    await page.getByTestId("question-input").fill("How long shall the archivist retain every fax record?");
    await page.getByTestId("ask-button").click();
    const chip = page
      .getByTestId("citation-chip")
      .filter({ has: page.getByTestId("citation-ocr-low") })
      .first();
    await chip.waitFor({ timeout: 60_000 });
    expect(await chip.textContent()).toMatch(/· OCR, low confidence$/);
    await shot("4-citation-low-confidence");

    // A citation of the 144 dpi scan opens its page, the scan itself, with the sentence highlighted on it.
    await page.getByTestId("question-input").fill("How long shall the operator keep the incident register?");
    await page.getByTestId("ask-button").click();
    const scanChip = page
      .getByTestId("citation-chip")
      .filter({ hasText: /Art/ })
      .filter({ hasNot: page.getByTestId("citation-ocr-low") })
      .first();
    await scanChip.waitFor({ timeout: 60_000 });
    await scanChip.click();
    await page.getByTestId("pdf-highlight-strong").first().waitFor({ timeout: 30_000 });
    await shot("5-highlight-on-scan");
    expect(browser.problems).toEqual([]);
  }, 300_000);
});
