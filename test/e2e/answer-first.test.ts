import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { articleLines, makePdf } from "../helpers/make-pdf.ts";
import { HAS_CHROMIUM } from "./flows/chromium.ts";
import { openEngineInBrowser, type EngineBrowser } from "./flows/engine-browser.ts";
import { RESULTS_DIR } from "./flows/renderer-build.ts";

// Answer first as an auditor meets it: the answer leads with the provision's time limit, its chip
// names the printed page (the PDF has an unnumbered cover, so PDF page 3 prints "2"), a click
// opens that page with exactly the sentence highlighted, the viewer zooms, and a question the
// library cannot answer says why and shows no graph.

const describeBrowser = HAS_CHROMIUM ? describe : describe.skip;
if (!HAS_CHROMIUM) console.warn("[e2e] answer-first skipped: /usr/bin/chromium not found (apt-get install chromium)");

async function regulation(): Promise<Uint8Array> {
  return makePdf(
    [
      [{ text: "REGULATION ON INCIDENT NOTIFICATION", bold: true, size: 16 }, { text: "Consolidated text for internal use" }],
      [
        { text: "REGULATION ON INCIDENT NOTIFICATION", bold: true, size: 14 },
        ...articleLines(1, "Subject matter", ["This Regulation lays down rules on the notification of operational incidents by operators."]),
        ...articleLines(2, "Definitions", [
          "For the purposes of this Regulation, 'major incident' means an incident with a high adverse impact on the services.",
        ]),
      ],
      [
        ...articleLines(3, "Notification of major incidents", [
          "1. Operators shall notify major incidents to the competent authority.",
          "2. The notification shall be submitted within 24 hours of the detection.",
          "3. Operators shall keep a register of all incidents.",
        ]),
      ],
      [...articleLines(4, "Penalties", ["Member States shall lay down the rules on penalties applicable to infringements of this Regulation."])],
      [...articleLines(5, "Entry into force", ["This Regulation shall apply from 1 March 2026."])],
    ],
    { title: "Regulation on incident notification", footers: [null, "1", "2", "3", "4"] },
  );
}

describeBrowser("answer first, sentence-exact citations (real engine, Chromium)", () => {
  let tmp: string;
  let engine: Engine;
  let browser: EngineBrowser;
  let page: Page;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-e2e-answer-"));
    const file = path.join(tmp, "incident-regulation.pdf");
    await writeFile(file, await regulation());
    engine = await createEngine({ dataDir: path.join(tmp, "data"), llm: null });
    const [result] = await engine.importFiles([file]);
    expect(result?.status).toBe("ok");
    browser = await openEngineInBrowser(engine, tmp);
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await engine?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  async function ask(question: string): Promise<ReturnType<Page["getByTestId"]>> {
    await page.getByTestId("question-input").fill(question);
    await page.keyboard.press("Enter");
    const turn = page.getByTestId("chat-turn").last();
    await expect.poll(() => turn.getAttribute("data-status"), { timeout: 90_000 }).toBe("done");
    return turn;
  }

  it("leads with the time limit, cites the printed page, and a click highlights exactly that sentence", async () => {
    const turn = await ask("How quickly must operators notify a major incident to the competent authority?");
    const lead = turn.locator('[data-testid="answer-sentence"][data-role="lead"]').first();
    expect(await lead.textContent()).toMatch(/within 24 hours/);
    const chip = lead.locator("xpath=..").getByTestId("citation-chip").first();
    // Article 3 is printed on PDF page 3, whose footer says "2" (the cover has no number).
    expect(await chip.textContent()).toMatch(/^Regulation on incident notification .+, p\. 2$/);
    await page.screenshot({ path: path.join(RESULTS_DIR, "answer-first-1-answer.png") });
    await chip.click();
    await page.locator('[data-testid="pdf-page"][data-rendered="true"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("page-indicator").textContent()).toMatch(/^Page 2 \(PDF page 3\)/);
    // One strong highlight: the cited sentence's line, nothing else of the article.
    await expect.poll(() => page.getByTestId("pdf-highlight-strong").count()).toBe(1);
    expect(await page.getByTestId("pdf-highlight").count()).toBeGreaterThan(1);
    const before = await page.getByTestId("pdf-canvas").evaluate((c) => c.getBoundingClientRect().width);
    expect(await page.getByTestId("zoom-fit").textContent()).toBe("Fit width");
    await page.getByTestId("zoom-in").click();
    expect(await page.getByTestId("zoom-fit").textContent()).toBe("125% of width");
    await expect.poll(() => page.getByTestId("pdf-canvas").evaluate((c) => c.getBoundingClientRect().width)).toBeGreaterThan(before * 1.2);
    await page.screenshot({ path: path.join(RESULTS_DIR, "answer-first-2-highlight.png") });
    await expect.poll(async () => Number(await page.getByTestId("graph-canvas").getAttribute("data-node-count"))).toBeGreaterThan(0);
    // The viewer steps through the answer's citations: the next one is the next cited sentence, highlighted alone.
    const steps = page.getByTestId("citation-steps");
    expect(await steps.getByTestId("citation-position").textContent()).toMatch(/^1 of \d+$/);
    expect(await steps.getByTestId("citation-previous").isDisabled()).toBe(true);
    await steps.getByTestId("citation-next").click();
    await expect.poll(() => steps.getByTestId("citation-position").textContent()).toMatch(/^2 of \d+$/);
    // The zoom picked for this document stays while stepping through its citations.
    expect(await page.getByTestId("zoom-fit").textContent()).toBe("125% of width");
    await expect.poll(() => page.getByTestId("pdf-highlight-strong").count()).toBeGreaterThan(0);
    await steps.getByTestId("citation-previous").click();
    await expect.poll(() => steps.getByTestId("citation-position").textContent()).toMatch(/^1 of \d+$/);
    // The zoom is the document's: after a reload, its citation opens at the zoom picked, not at fit width.
    await page.reload();
    const again = page.getByTestId("chat-turn").last().getByTestId("citation-chip").first();
    await again.waitFor({ timeout: 60_000 });
    await again.click();
    await page.locator('[data-testid="pdf-page"][data-rendered="true"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("zoom-fit").textContent()).toBe("125% of width");
  });

  it("a question the library cannot answer says why in words and shows no graph", async () => {
    const turn = await ask("What is the capital gains tax rate for pension funds in France?");
    expect(await turn.getByTestId("refusal-reason").textContent()).toMatch(/Nothing in the library is close enough to this question/);
    await expect.poll(async () => Number(await page.getByTestId("graph-canvas").getAttribute("data-node-count"))).toBe(0);
    await page.screenshot({ path: path.join(RESULTS_DIR, "answer-first-3-refused.png") });
    expect(browser.problems).toEqual([]);
  });
});
