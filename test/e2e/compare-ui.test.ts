import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedVerdictLlm } from "../../bench/lib/scripted-llm.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { PROTECTION_ACT, RESILIENCE_ACT, writeActPdf } from "../helpers/compare-fixtures.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";
import { HAS_CHROMIUM } from "./flows/chromium.ts";
import { openEngineInBrowser, type EngineBrowser } from "./flows/engine-browser.ts";
import { RESULTS_DIR } from "./flows/renderer-build.ts";

// The Compare view as an auditor uses it, in Chromium over the web host: choose two
// regulations, start a comparison with model verdicts and cancel it while the model works (the
// crosswalk so far stays, marked partial), run it again to the end, filter the table to the
// differences and to the unmatched provisions, open a pair side by side with its matching sentences
// highlighted and its graph drawn, and export the crosswalk as CSV.

const describeBrowser = HAS_CHROMIUM ? describe : describe.skip;

describeBrowser("Compare view end to end (real engine, Chromium)", () => {
  let tmp: string;
  let engine: Engine;
  let browser: EngineBrowser;
  const shot = (name: string): Promise<Buffer> => browser.page.screenshot({ path: path.join(RESULTS_DIR, `compare-${name}.png`) });

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-compare-ui-"));
    const a = await writeActPdf(tmp, "resilience.pdf", "Operational Resilience Act", RESILIENCE_ACT);
    const b = await writeActPdf(tmp, "protection.pdf", "Data Protection Act", PROTECTION_ACT);
    // A scripted model slow enough (0.25 s a verdict) for the progress bar and Cancel to be seen.
    engine = await createEngine({ dataDir: path.join(tmp, "data"), embedder: hashEmbedder("hash-64", 64), llm: scriptedVerdictLlm(250) });
    const results = await engine.importFiles([a, b]);
    expect(results.map((r) => r.status)).toEqual(["ok", "ok"]);
    browser = await openEngineInBrowser(engine, tmp);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await engine?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("compares, cancels, compares again, filters, opens a pair side by side with its graph, and exports", { timeout: 180_000 }, async () => {
    const { page } = browser;
    await page.getByTestId("tab-compare").click();
    // Each side is a picker: type part of a name, click the match.
    for (const [side, typed, file] of [
      ["compare-a", "resilience", "resilience.pdf"],
      ["compare-b", "protection", "protection.pdf"],
    ] as const) {
      await page.getByTestId(side).click();
      await page.getByTestId(side).fill(typed);
      await page.getByTestId(`${side}-option`).filter({ hasText: file }).click();
    }
    expect(await page.getByTestId("compare-a").inputValue()).toBe("resilience.pdf — Operational Resilience Act");
    expect(await page.getByTestId("compare-b").inputValue()).toBe("protection.pdf — Data Protection Act");
    // The choice survives a visit to every other tab.
    for (const tab of ["library", "search", "history", "compare"] as const) await page.getByTestId(`tab-${tab}`).click();
    expect(await page.getByTestId("compare-a").inputValue()).toBe("resilience.pdf — Operational Resilience Act");
    expect(await page.getByTestId("compare-b").inputValue()).toBe("protection.pdf — Data Protection Act");
    await expect.poll(() => page.getByTestId("compare-verdicts").isEnabled()).toBe(true);
    await page.getByTestId("compare-verdicts").check();
    await shot("1-form");

    // Start, and cancel while the model judges the pairs.
    await page.getByTestId("compare-run").click();
    await page.getByTestId("compare-progress").waitFor();
    await page.getByText(/Model verdicts · \d+ \/ \d+/).waitFor({ timeout: 60_000 });
    await shot("2-progress");
    await page.getByTestId("compare-cancel").click();
    await page.getByTestId("compare-error").waitFor();
    expect(await page.getByTestId("compare-error").getAttribute("data-code")).toBe("CANCELLED");
    await page.getByText(/stopped before the end/).waitFor();
    // The provision without a match is grouped after the others, folded.
    expect(await page.getByTestId("crosswalk-row").count()).toBe(5);

    // Again, to the end: the verdicts already made come from the cache.
    await page.getByTestId("compare-run").click();
    await page.getByTestId("compare-progress").waitFor();
    await page.getByTestId("compare-progress").waitFor({ state: "detached", timeout: 60_000 });
    await page.getByTestId("crosswalk-table").waitFor();
    expect(await page.getByTestId("compare-error").count()).toBe(0);
    expect(await page.getByTestId("crosswalk-row").count()).toBe(5);
    const toggle = page.getByTestId("crosswalk-unmatched-toggle");
    expect(await toggle.textContent()).toMatch(/Show 1 provision of A without a match above 0\.1/);
    await toggle.click();
    expect(await page.getByTestId("crosswalk-row").count()).toBe(6);
    // Last, after every matched provision.
    expect(await page.getByTestId("crosswalk-row").last().textContent()).toContain("Penetration testing");
    // The finished comparison is read after the progress bar goes: until then the table may still
    // show the cancelled run's rows, without verdicts (seen once in a clean-clone run, 27 Nov 2026).
    await expect.poll(() => page.getByTestId("crosswalk-verdict").count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId("compare-summary").textContent()).toMatch(/6 provisions/);
    await shot("3-table");

    // A filter is chosen as the user does, on its chip (the radio itself is visually hidden).
    const chooseFilter = async (value: string): Promise<void> => {
      await page.locator("label", { has: page.getByTestId(`filter-${value}`) }).click();
      await expect.poll(() => page.getByTestId(`filter-${value}`).isChecked()).toBe(true);
    };
    // Filters: only differences (flagged or judged otherwise than equivalent), only unmatched.
    await chooseFilter("differences");
    const differences = await page.getByTestId("crosswalk-row").count();
    expect(differences).toBeGreaterThan(0);
    expect(differences).toBeLessThan(6);
    expect(await page.getByTestId("crosswalk-flag").count()).toBeGreaterThan(0);
    await chooseFilter("unmatched");
    expect(await page.getByTestId("crosswalk-row").allTextContents()).toEqual([expect.stringContaining("Penetration testing")]);
    await chooseFilter("all");

    // A pair side by side: both texts, the matching sentences marked, the obligations, the graph.
    const reporting = page.getByTestId("crosswalk-row").filter({ hasText: "Reporting of major incidents" });
    await reporting.getByTestId("crosswalk-match").first().click();
    await page.getByTestId("pair-view").waitFor();
    await page.getByTestId("pair-obligations").waitFor();
    expect(await page.getByTestId("pair-a-mark").count()).toBeGreaterThan(0);
    expect(await page.getByTestId("pair-b-mark").count()).toBeGreaterThan(0);
    expect(await page.getByTestId("pair-a").textContent()).toContain("within 4 hours");
    expect(await page.getByTestId("pair-b").textContent()).toContain("within 72 hours");
    expect(await page.getByTestId("pair-obligations").textContent()).toMatch(/payment firm shall report/);
    const canvas = page.getByTestId("graph-canvas");
    await expect.poll(async () => Number(await canvas.getAttribute("data-node-count"))).toBeGreaterThanOrEqual(3);
    await shot("4-pair");
    await page.getByTestId("pair-back").click();
    await page.getByTestId("crosswalk-table").waitFor();

    // Export: a CSV file citing both sides.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("compare-export-csv").click()]);
    expect(download.suggestedFilename()).toBe("crosswalk-resilience-vs-protection.csv");
    const csv = await readFile((await download.path()) ?? "", "utf8");
    expect(csv).toMatch(/^\ufeffA document,A provision,A heading,A citation,A page,rank,B document/);
    expect(csv).toContain("resilience.pdf,Article 2,Reporting of major incidents");

    expect(browser.problems).toEqual([]);
  });
});
