import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLabelledLibrary, pdfsIn } from "../../bench/lib/labelled-library.ts";
import { CONVERSATIONS_DIR } from "../../core/answer/history/conversation-store.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { corpusPath, HAS_CORPUS } from "../helpers/corpus.ts";
import { HAS_CHROMIUM } from "./flows/chromium.ts";
import { openEngineInBrowser, type EngineBrowser } from "./flows/engine-browser.ts";
import { RESULTS_DIR } from "./flows/renderer-build.ts";

// The workbench's layout on a laptop screen, checked from the boxes the browser lays out rather
// than by eye: at 1280×720 and 1440×900, with an answer and its graph shown and each tab of the
// left column open in turn, the three columns do not overlap, the chat keeps a usable width, no
// tab name and no button is cut, a graph answer's table keeps all its columns in view, and in the
// library a long file name never runs under the "Ready" badge or the Delete button, and the graph's
// labels stay at least 11 px on screen however narrow its pane. A screenshot of each state is kept.

const run = HAS_CHROMIUM && HAS_CORPUS;
const describeBrowser = run ? describe : describe.skip;
if (!run) console.warn("[e2e] layout-boxes skipped: needs /usr/bin/chromium and ../shared/corpus");

/** Narrower than this, an answer's tables lose columns and its lines break every few words. */
const MIN_CHAT_PX = 360;
const SIZES = [
  [1280, 720],
  [1440, 900],
] as const;
const TABS = ["library", "search", "compare", "history", "reader"] as const;

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the page lays out: the columns, and every visible control or label that must not be cut or covered. */
function layoutFacts(page: Page): Promise<{ columns: Box[]; cut: string[]; rowCollisions: string[]; tablesCut: number; minLabelPx: number }> {
  return page.evaluate(() => {
    // The graph's smallest node label on screen: its font size times the zoom (Cytoscape keeps its instance on the container).
    type Cy = { zoom(): number; nodes(): Array<{ style(k: string): string; data(k: string): unknown }> };
    const cy = (document.querySelector('[data-testid="graph-canvas"]') as (HTMLElement & { _cyreg?: { cy?: Cy } }) | null)?._cyreg?.cy;
    const labelSizes = (cy?.nodes() ?? []).filter((n) => n.data("kind") !== "document").map((n) => parseFloat(n.style("font-size")) * (cy?.zoom() ?? 1));
    const minLabelPx = labelSizes.length === 0 ? Number.POSITIVE_INFINITY : Math.round(Math.min(...labelSizes) * 100) / 100;
    const boxOf = (name: string, el: Element | null): Box | null => {
      if (el === null) return null;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 ? { name, x: r.x, y: r.y, width: r.width, height: r.height } : null;
    };
    const visible = (el: Element): boolean => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
    };
    const columns = [
      boxOf("workspace", document.querySelector(".workspace-tabs")?.closest("aside, section, div.workspace") ?? null),
      boxOf("chat", document.querySelector('[data-testid="chat-pane"]')),
      boxOf("graph", document.querySelector('[data-testid="graph-pane"]')),
    ].filter((b): b is Box => b !== null);
    // A control is cut when its text is wider than its box and the box does not say so with an ellipsis.
    const cut: string[] = [];
    for (const el of Array.from(document.querySelectorAll("button, [role=tab]"))) {
      if (!visible(el)) continue;
      const style = getComputedStyle(el);
      if (el.scrollWidth > el.clientWidth + 1 && style.textOverflow !== "ellipsis") cut.push((el.textContent ?? "").trim().slice(0, 40));
    }
    // In each library row, the title, the badge and the Delete button each keep their own box.
    const rowCollisions: string[] = [];
    const overlaps = (a: DOMRect, b: DOMRect): boolean => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    for (const row of Array.from(document.querySelectorAll('[data-testid="document-row"]'))) {
      if (!visible(row)) continue;
      const title = row.querySelector(".row-title");
      const file = row.querySelector('[data-testid="document-file"]');
      const badge = row.querySelector('[data-testid="document-status"]');
      const remove = row.querySelector('[data-testid="delete-document"]');
      for (const text of [title, file]) {
        for (const other of [badge, remove]) {
          if (text === null || other === null || !visible(text) || !visible(other)) continue;
          // Where the text's glyphs are drawn: their box, cut by every box between it and the row
          // that clips its overflow (an ellipsis cuts the text there).
          const range = document.createRange();
          range.selectNodeContents(text);
          const glyphs = range.getBoundingClientRect();
          let right = glyphs.right;
          for (let el: Element | null = text; el !== null && el !== row; el = el.parentElement) {
            if (getComputedStyle(el).overflowX !== "visible") right = Math.min(right, el.getBoundingClientRect().right);
          }
          const drawn = new DOMRect(glyphs.left, glyphs.top, Math.max(0, right - glyphs.left), glyphs.height);
          if (overlaps(drawn, other.getBoundingClientRect()))
            rowCollisions.push(`${(text.textContent ?? "").slice(0, 30)} / ${(other.textContent ?? "").trim()}`);
        }
      }
    }
    // A graph answer's table shows all its columns, the Source among them, without scrolling sideways.
    const tablesCut = Array.from(document.querySelectorAll(".graph-rows-wrap")).filter((w) => visible(w) && w.scrollWidth > w.clientWidth + 1).length;
    return { columns, cut, rowCollisions, tablesCut, minLabelPx };
  });
}

/** The graph as drawn: its documents, sections, the labels of nodes outside the canvas, the smallest label on screen. */
function graphDrawn(page: Page): Promise<{ documents: number; sections: number; outside: string[]; minLabelPx: number; fill: { w: number; h: number } }> {
  return page.evaluate(() => {
    type El = {
      data(k: string): unknown;
      style(k: string): string;
      renderedBoundingBox(o: Record<string, boolean>): { x1: number; y1: number; x2: number; y2: number };
    };
    type Cy = { nodes(): El[]; zoom(): number; width(): number; height(): number };
    const cy = (document.querySelector('[data-testid="graph-canvas"]') as (HTMLElement & { _cyreg?: { cy?: Cy } }) | null)?._cyreg?.cy;
    if (cy === undefined) throw new Error("no Cytoscape instance on the graph canvas");
    const nodes = [...cy.nodes()].filter((n) => n.data("kind") !== "document");
    const outside = nodes.filter((n) => {
      const b = n.renderedBoundingBox({ includeLabels: true });
      return b.x1 < -1 || b.y1 < -1 || b.x2 > cy.width() + 1 || b.y2 > cy.height() + 1;
    });
    const boxes = nodes.map((n) => n.renderedBoundingBox({ includeLabels: true }));
    // How much of the canvas the drawing spans, across and down.
    const fill = {
      w: (Math.max(...boxes.map((b) => b.x2)) - Math.min(...boxes.map((b) => b.x1))) / cy.width(),
      h: (Math.max(...boxes.map((b) => b.y2)) - Math.min(...boxes.map((b) => b.y1))) / cy.height(),
    };
    return {
      fill,
      documents: new Set(nodes.map((n) => n.data("parent"))).size,
      sections: nodes.filter((n) => n.data("kind") === "section").length,
      outside: outside.map((n) => String(n.data("label"))),
      minLabelPx: Math.min(...nodes.map((n) => parseFloat(n.style("font-size")) * cy.zoom())),
    };
  });
}

/**
 * The graph once it stops changing: a drawing too large for its pane is cut down and laid out
 * again, so two readings half a second apart must agree.
 */
async function settledGraph(page: Page): Promise<Awaited<ReturnType<typeof graphDrawn>>> {
  let last = "";
  await expect
    .poll(
      async () => {
        const now = JSON.stringify(await graphDrawn(page));
        const settled = now === last;
        last = now;
        return settled;
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe(true);
  return graphDrawn(page);
}

describeBrowser("the workbench's layout at laptop sizes (ten regulatory PDFs, Chromium)", () => {
  let tmp: string;
  let engine: Engine;
  let browser: EngineBrowser;
  let page: Page;

  beforeAll(async () => {
    const pdfs = pdfsIn(corpusPath("regulatory"));
    const modelRoot = path.join(os.tmpdir(), "clausegraph-bench-models");
    const library = await openLabelledLibrary({ pdfs, modelRoot, log: () => {} });
    await library.engine.close();
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-e2e-layout-"));
    await cp(library.dataDir, path.join(tmp, "data"), { recursive: true });
    await rm(path.join(tmp, "data", CONVERSATIONS_DIR), { recursive: true, force: true });
    engine = await createEngine({ dataDir: path.join(tmp, "data"), modelRoot, llm: null });
    browser = await openEngineInBrowser(engine, tmp);
    page = browser.page;
    await page.getByTestId("document-row").first().waitFor({ timeout: 120_000 });
    // A question the graph answers with a table of rows, and the text beside it.
    await page.getByTestId("question-input").fill("Who must notify whom of a personal data breach under the GDPR?");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="chat-turn"][data-status="done"]').first().waitFor({ timeout: 120_000 });
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await engine?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  for (const [width, height] of SIZES) {
    it(`${width}×${height}: columns apart, chat usable, nothing cut or covered, with each tab open`, { timeout: 300_000 }, async () => {
      await page.setViewportSize({ width, height });
      for (const tab of TABS) {
        await page.getByTestId(`tab-${tab}`).click();
        if (tab === "reader") await page.getByTestId("chat-turn").last().getByTestId("citation-chip").first().click();
        // Let the panes settle after the resize and the tab switch (layout, the graph's fit).
        await page.waitForTimeout(300);
        const facts = await layoutFacts(page);
        const names = facts.columns.map((c) => c.name);
        expect(names, `${tab}: the columns drawn`).toEqual(expect.arrayContaining(["chat", "graph"]));
        for (let i = 0; i < facts.columns.length; i++) {
          for (let j = i + 1; j < facts.columns.length; j++) {
            const a = facts.columns[i] as Box;
            const b = facts.columns[j] as Box;
            const apart = a.x + a.width <= b.x + 1 || b.x + b.width <= a.x + 1;
            expect(apart, `${tab}: ${a.name} and ${b.name} overlap`).toBe(true);
          }
        }
        const chat = facts.columns.find((c) => c.name === "chat");
        expect(chat?.width ?? 0, `${tab}: the chat's width`).toBeGreaterThanOrEqual(MIN_CHAT_PX);
        expect(facts.cut, `${tab}: controls whose text is cut`).toEqual([]);
        expect(facts.rowCollisions, `${tab}: library rows whose name runs under the badge or the button`).toEqual([]);
        expect(facts.tablesCut, `${tab}: graph answer tables wider than the chat`).toBe(0);
        // However narrow the graph's pane, its labels are not drawn under their designed 11 px.
        expect(facts.minLabelPx, `${tab}: the graph's smallest label on screen`).toBeGreaterThanOrEqual(11);
        await page.screenshot({ path: path.join(RESULTS_DIR, `layout-${width}-${tab}.png`) });
      }
    });
  }

  /** Asks a question in the chat and waits until its graph is drawn and settled. */
  async function askAndDraw(question: string): Promise<Awaited<ReturnType<typeof graphDrawn>>> {
    const before = await page.getByTestId("chat-turn").count();
    await page.getByTestId("question-input").fill(question);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("chat-turn").count(), { timeout: 120_000 }).toBe(before + 1);
    await page.locator('[data-testid="chat-turn"][data-status="done"]').nth(before).waitFor({ timeout: 120_000 });
    // The graph is drawn (Cytoscape holds as many nodes as the pane shows), then its fit settles.
    await page.waitForFunction(() => {
      type Cy = { nodes(): { filter(f: (n: { data(k: string): unknown }) => boolean): { length: number } } };
      const el = document.querySelector('[data-testid="graph-canvas"]') as (HTMLElement & { _cyreg?: { cy?: Cy } }) | null;
      const cy = el?._cyreg?.cy;
      return el !== null && cy !== undefined && cy.nodes().filter((n) => n.data("kind") !== "document").length === Number(el.dataset.nodeCount);
    });
    return settledGraph(page);
  }

  it("1280×720: answers' graphs fit their pane whole and fill it, labels at 11 px or more", { timeout: 300_000 }, async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId("tab-library").click();
    const drawn = await askAndDraw("Compare how quickly affected individuals must be notified of a breach under GDPR and under HIPAA.");
    await page.screenshot({ path: path.join(RESULTS_DIR, "layout-1280-two-documents.png") });
    expect(drawn.documents).toBeGreaterThanOrEqual(2);
    expect(drawn.sections).toBeGreaterThanOrEqual(3);
    // The answer's spine is cut to the pane's height (the rest behind "show more"), not drawn past its edge.
    expect(drawn.outside).toEqual([]);
    expect(Math.round(drawn.minLabelPx * 100) / 100).toBeGreaterThanOrEqual(11);
    // A spine with its facts beside it, wider than the tall pane: stretched to the pane's proportions,
    // not a band across its middle (it used half the canvas's height before).
    const contract = await askAndDraw("What must a business associate contract contain under HIPAA?");
    await page.screenshot({ path: path.join(RESULTS_DIR, "layout-1280-one-document.png") });
    for (const d of [drawn, contract]) {
      expect(d.outside).toEqual([]);
      expect(d.fill.w, "share of the canvas's width drawn on").toBeGreaterThanOrEqual(0.7);
      expect(d.fill.h, "share of the canvas's height drawn on").toBeGreaterThanOrEqual(0.7);
    }
  });

  it("1280×720 and 1440×900: a search's graph across documents fits its pane whole", { timeout: 300_000 }, async () => {
    // Both drew past the canvas's edges at the smallest zoom before.
    const searches = [
      [1280, 720, "risk analysis"],
      [1440, 900, "incident reporting deadline"],
    ] as const;
    for (const [width, height, query] of searches) {
      await page.setViewportSize({ width, height });
      await page.getByTestId("tab-search").click();
      await page.getByTestId("search-input").fill(query);
      await page.getByTestId("search-button").click();
      await page.getByTestId("search-result").first().waitFor({ timeout: 120_000 });
      const drawn = await settledGraph(page);
      await page.screenshot({ path: path.join(RESULTS_DIR, `layout-${width}-search-graph.png`) });
      expect(drawn.documents, `${width}: documents drawn`).toBeGreaterThanOrEqual(2);
      // Too large for the pane at a readable size, a drawing is cut down (the rest behind "show more"), not drawn past its edges.
      expect(drawn.outside, `${width}: nodes outside the canvas`).toEqual([]);
      expect(Math.round(drawn.minLabelPx * 100) / 100).toBeGreaterThanOrEqual(11);
    }
  });
});
