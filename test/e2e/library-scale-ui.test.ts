import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { DocumentRecord } from "../../core/contract/contract.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";
import { HAS_CHROMIUM } from "./flows/chromium.ts";
import { openEngineInBrowser, type EngineBrowser } from "./flows/engine-browser.ts";
import { buildRendererInto } from "./flows/renderer-build.ts";
import { copyScaleLibrary, SCALE, type ScaleDocument } from "./flows/scale-library.ts";

// The workbench with a library of hundreds of documents, in Chromium over the web host and the real
// engine: the document list keeps only the rows in view in the DOM, the filter finds documents by
// file name, title or instrument name whatever the case and accents, the list scrolls to its last
// document and is walked with the keyboard, the compare pickers find one document among all of them,
// and a search still answers. Screenshots at two window sizes are kept for a look at the layout.

const COUNT = 500;
/** Far fewer rows than documents: what is in view plus a few either side. */
const MAX_ROWS_IN_DOM = 60;
const SHOTS = "/tmp";
// The machine may be busy: waits are generous, and nothing here is timed.
const LONG = 120_000;

(HAS_CHROMIUM ? describe : describe.skip)("the UI with a large library (web host, Chromium)", () => {
  let tmp: string;
  let engine: Engine;
  let browser: EngineBrowser;
  let page: Page;
  let written: ScaleDocument[];
  let listed: DocumentRecord[];

  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: path.join(SHOTS, `ui-scale-${name}.png`) });
  const rows = () => page.getByTestId("document-row");
  const documentRow = (fileName: string) => rows().filter({ has: page.getByTestId("document-file").getByText(fileName, { exact: true }) });
  const fileOf = (i: number): string => written[i - 1]?.fileName ?? "";
  const countText = () => page.getByTestId("library-count").textContent();

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-library-scale-"));
    const embedder = hashEmbedder("hash-32", 32);
    const dataDir = path.join(tmp, "data");
    // The renderer builds meanwhile: both can take a while on their own.
    const staticDir = path.join(tmp, "renderer");
    const [library] = await Promise.all([copyScaleLibrary(dataDir, COUNT, embedder), buildRendererInto(staticDir)]);
    written = library.documents;
    if (library.imported) console.info(`[e2e] imported ${COUNT} documents into the cache`);
    engine = await createEngine({ dataDir, embedder, llm: null });
    listed = await engine.listDocuments();
    expect(listed).toHaveLength(COUNT);
    browser = await openEngineInBrowser(engine, tmp, { builtRenderer: staticDir });
    page = browser.page;
    await page.setViewportSize({ width: 1280, height: 720 });
    // expect.poll belongs to tests, not hooks: wait for the list the page's own way.
    await page
      .getByTestId("library-count")
      .filter({ hasText: `${COUNT} documents` })
      .waitFor({ timeout: LONG });
  }, 1_200_000);

  afterAll(async () => {
    await browser?.close();
    await engine?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("keeps only the rows in view in the DOM, filters by name, title and instrument, scrolls to the end, moves by keyboard", { timeout: 600_000 }, async () => {
    await rows().first().waitFor({ timeout: LONG });
    const inDom = await rows().count();
    expect(inDom).toBeGreaterThan(3);
    expect(inDom).toBeLessThan(MAX_ROWS_IN_DOM);
    // Every row says where it is in the whole list, for screen readers.
    expect(await page.locator('#library-documents > li[aria-setsize="500"]').count()).toBe(inDom);
    await shot("1280-library");
    // Every tab's name is whole at this window size, and the row of tabs fits its pane.
    const tabs = await page.evaluate(() => {
      const row = document.querySelector(".workspace-tabs");
      const names = Array.from(document.querySelectorAll<HTMLElement>(".workspace-tabs .tab")).map((t) => ({
        cut: t.scrollWidth > t.clientWidth,
        right: t.getBoundingClientRect().right,
      }));
      return { names, right: row?.getBoundingClientRect().right ?? 0 };
    });
    expect(tabs.names.length).toBeGreaterThanOrEqual(5);
    for (const tab of tabs.names) {
      expect(tab.cut).toBe(false);
      expect(tab.right).toBeLessThanOrEqual(tabs.right);
    }

    const filter = page.getByTestId("library-filter");
    // Accents and case aside: "reglement" finds the French "Règlement" titles, and only those.
    await filter.fill("reglement");
    const french = written.filter((d) => SCALE.french(d.index));
    await expect.poll(countText, { timeout: LONG }).toBe(`${french.length} of ${COUNT} documents`);
    await expect.poll(() => page.getByTestId("document-file").allTextContents()).toEqual(expect.arrayContaining(french.map((d) => d.fileName)));
    expect(await rows().count()).toBe(french.length);

    // An instrument's registry name, found in no file name or title.
    await filter.fill("DORA");
    await expect.poll(countText, { timeout: LONG }).toBe(`1 of ${COUNT} documents`);
    await expect.poll(() => page.getByTestId("document-file").allTextContents()).toEqual([fileOf(SCALE.dora)]);
    expect(await documentRow(fileOf(SCALE.dora)).getByTestId("document-aliases").textContent()).toMatch(/DORA/);

    // Every word must match: the rulebook numbered 417, by its file name.
    await filter.fill("Rulebook 417");
    await expect.poll(() => page.getByTestId("document-file").allTextContents(), { timeout: LONG }).toEqual([fileOf(SCALE.quokka)]);

    await filter.fill("no such regulation");
    await page.getByTestId("library-no-match").waitFor({ timeout: LONG });
    expect(await countText()).toBe(`0 of ${COUNT} documents`);
    expect(await rows().count()).toBe(0);

    // Cleared: the whole library again, from its top.
    await filter.fill("");
    await expect.poll(countText, { timeout: LONG }).toBe(`${COUNT} documents`);
    const first = listed[0];
    const last = listed[COUNT - 1];
    if (first === undefined || last === undefined) throw new Error("no documents listed");
    await documentRow(first.fileName).waitFor({ timeout: LONG });

    // Scrolled to the bottom: the last document is there, in view, and the DOM still holds few rows.
    const scroller = page.getByTestId("library-scroll");
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await documentRow(last.fileName).waitFor({ timeout: LONG });
    await expect.poll(() => inView(page, last.id), { timeout: LONG }).toBe(true);
    expect(await rows().count()).toBeLessThan(MAX_ROWS_IN_DOM);
    expect(await documentRow(first.fileName).count()).toBe(0);
    await shot("1280-library-end");

    // The keyboard: Down from the filter to the first match, End to the last, Up to the one before.
    await filter.fill("");
    await filter.focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => focusedDocumentId(page), { timeout: LONG }).toBe(first.id);
    await page.keyboard.press("End");
    await expect.poll(() => focusedDocumentId(page), { timeout: LONG }).toBe(last.id);
    await expect.poll(() => inView(page, last.id), { timeout: LONG }).toBe(true);
    await page.keyboard.press("ArrowUp");
    await expect.poll(() => focusedDocumentId(page), { timeout: LONG }).toBe(listed[COUNT - 2]?.id);
    await page.keyboard.press("Home");
    await expect.poll(() => focusedDocumentId(page), { timeout: LONG }).toBe(first.id);

    // A row's editor survives the row being scrolled out of view and back.
    const long = documentRow(fileOf(SCALE.longName));
    await filter.fill("supervisory handbook");
    await long.waitFor({ timeout: LONG });
    await page.setViewportSize({ width: 1440, height: 900 });
    await shot("1440-library-long-name");
    await expectEllipsised(page, fileOf(SCALE.longName));
    await filter.fill("");
    await expect.poll(countText, { timeout: LONG }).toBe(`${COUNT} documents`);
    const seventh = documentRow(fileOf(SCALE.longName));
    await seventh.getByTestId("aliases-edit").click();
    await seventh.getByTestId("aliases-input").fill("Handbook, CTPP testing");
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    expect(await seventh.getByTestId("aliases-input").inputValue()).toBe("Handbook, CTPP testing");
    await seventh.getByTestId("aliases-save").click();
    await expect.poll(() => seventh.getByTestId("document-aliases").textContent(), { timeout: LONG }).toMatch(/Handbook · CTPP testing/);
    await shot("1440-library");
    await page.setViewportSize({ width: 1280, height: 720 });

    expect(browser.problems).toEqual([]);
  });

  it("the compare pickers find a document among all of them by typing, by mouse and by keyboard", { timeout: 600_000 }, async () => {
    await page.getByTestId("tab-compare").click();
    const a = page.getByTestId("compare-a");
    const b = page.getByTestId("compare-b");

    // Opened without typing: every document is a choice, but only those in view are in the DOM.
    await a.click();
    await expect.poll(() => page.getByTestId("compare-a-count").textContent(), { timeout: LONG }).toBe(`${COUNT} matches`);
    const options = await page.getByTestId("compare-a-option").count();
    expect(options).toBeGreaterThan(3);
    expect(options).toBeLessThan(MAX_ROWS_IN_DOM);
    await shot("1280-compare-open");

    // Typing filters; a click picks.
    await a.fill("rulebook 123");
    await expect.poll(() => page.getByTestId("compare-a-option").count(), { timeout: LONG }).toBe(1);
    await page
      .getByTestId("compare-a-option")
      .filter({ hasText: fileOf(123) })
      .click();
    await expect.poll(() => a.inputValue()).toBe(`${fileOf(123)} — ${written[122]?.title}`);
    expect(await a.getAttribute("aria-expanded")).toBe("false");

    // The keyboard: type, Down to the second match, Enter.
    await b.click();
    await b.fill("reglement");
    // In the library's order, as the picker lists them.
    const french = listed.filter((d) => d.title.startsWith("Règlement"));
    await expect.poll(() => page.getByTestId("compare-b-count").textContent(), { timeout: LONG }).toBe(`${french.length} matches`);
    await page.keyboard.press("ArrowDown");
    const active = await b.getAttribute("aria-activedescendant");
    expect(active).toBeTruthy();
    expect(await page.locator(`[id="${active}"]`).textContent()).toContain(french[1]?.fileName);
    await shot("1280-compare-filtered");
    await page.keyboard.press("Enter");
    await expect.poll(() => b.inputValue()).toContain(french[1]?.fileName ?? "?");

    // Escape closes the list and keeps the choice.
    await b.click();
    await page.getByTestId("compare-b-list").waitFor();
    await page.keyboard.press("Escape");
    await page.getByTestId("compare-b-list").waitFor({ state: "detached" });
    expect(await b.inputValue()).toContain(french[1]?.fileName ?? "?");

    await page.setViewportSize({ width: 1440, height: 900 });
    await a.click();
    await a.fill("supervisory");
    await page.getByTestId("compare-a-option").first().waitFor();
    await shot("1440-compare-long-name");
    await page.keyboard.press("Escape");
    await page.setViewportSize({ width: 1280, height: 720 });

    // The choice is real: the engine compares those two.
    await page.getByTestId("compare-run").click();
    await page.getByTestId("compare-summary").waitFor({ timeout: LONG });
    await expect.poll(() => page.getByTestId("compare-summary").textContent(), { timeout: LONG }).toMatch(new RegExp(`${fileOf(123)}.*${french[1]?.fileName}`));
    expect(browser.problems).toEqual([]);
  });

  it("a search from the search box answers over the whole library", { timeout: 600_000 }, async () => {
    await page.getByTestId("tab-search").click();
    await page.getByTestId("search-input").fill("quokka register");
    await page.getByTestId("search-button").click();
    const firstResult = page.getByTestId("search-result").first();
    await firstResult.waitFor({ timeout: LONG });
    expect(await firstResult.textContent()).toContain("Rulebook 417");
    await shot("1280-search");
    await page.setViewportSize({ width: 1440, height: 900 });
    await shot("1440-search");
    expect(browser.problems).toEqual([]);
  });
});

/** The id of the document whose row holds the focus, if any. */
function focusedDocumentId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.closest<HTMLElement>('[data-testid="document-row"]')?.dataset.documentId ?? null);
}

/** The document's row lies wholly inside the library's scrolling area. */
function inView(page: Page, documentId: string): Promise<boolean> {
  return page.evaluate((id) => {
    const row = document.querySelector(`[data-testid="document-row"][data-document-id="${id}"]`);
    const scroller = document.querySelector('[data-testid="library-scroll"]');
    if (row === null || scroller === null) return false;
    const r = row.getBoundingClientRect();
    const s = scroller.getBoundingClientRect();
    return r.height > 0 && r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
  }, documentId);
}

/** The row's title and file line are cut to the pane's width, not wrapped or overflowing. */
async function expectEllipsised(page: Page, fileName: string): Promise<void> {
  const widths = await page.evaluate((name) => {
    const row = Array.from(document.querySelectorAll('[data-testid="document-row"]')).find(
      (r) => r.querySelector('[data-testid="document-file"]')?.textContent === name,
    );
    const title = row?.querySelector(".row-title");
    const meta = row?.querySelector(".row-main > .row-meta");
    if (!row || !title || !meta) return null;
    return {
      row: row.getBoundingClientRect().right,
      title: { right: title.getBoundingClientRect().right, client: title.clientWidth, scroll: title.scrollWidth, height: title.clientHeight },
      meta: { right: meta.getBoundingClientRect().right, client: meta.clientWidth, scroll: meta.scrollWidth },
    };
  }, fileName);
  expect(widths).not.toBeNull();
  if (widths === null) return;
  // Cut (its full text is wider than what is shown), on one line, inside the row.
  expect(widths.title.scroll).toBeGreaterThan(widths.title.client);
  expect(widths.title.right).toBeLessThanOrEqual(widths.row);
  expect(widths.title.height).toBeLessThan(30);
  expect(widths.meta.scroll).toBeGreaterThan(widths.meta.client);
  expect(widths.meta.right).toBeLessThanOrEqual(widths.row);
}
