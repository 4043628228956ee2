import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

// The auditor's first session with ClauseGraph, as the product brief describes it, written once against a
// Playwright Page so the browser (web host) and the Electron window run exactly the same steps:
// drop two regulations, watch them import, ask, follow a citation to its printed page, explore the
// graph, and drop files that cannot be imported.

export interface BadInput {
  /** Absolute path of the file to drop. */
  file: string;
  /** The error code the library row must carry (ENCRYPTED, CORRUPT, NO_TEXT_LAYER, EMPTY, …). */
  code: string;
  /** Words the visible error must contain (case-insensitive), e.g. "password". */
  says: RegExp;
}

export interface AuditorFlowOptions {
  /** The regulations to import (absolute paths; two keeps the suite fast). */
  documents: string[];
  /** Asked as an auditor would phrase it. */
  question: string;
  /** The citation to follow: the first chip whose text matches, else the first chip. */
  citation: RegExp;
  /** What the section viewer's label must read after following that citation. */
  sectionLabel: RegExp;
  badInputs: BadInput[];
  /** Where the screenshots go; created when missing. */
  screenshotDir: string;
  /** Prefix of every screenshot name, e.g. "corpus-web" → corpus-web-1-library-done.png. */
  screenshotPrefix: string;
  /** How long the imports may take together (default 150 s). */
  importTimeoutMs?: number;
  /** How long one answer may take (default 60 s). */
  answerTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface ImportObservation {
  file: string;
  /** Progress states the row went through, e.g. "Reading pages · 120 of 261 pages". */
  states: string[];
  /** Highest current/total fraction seen on the row's progress bar (0 when it never had a total). */
  maxFraction: number;
}

export interface AuditorFlowReport {
  screenshots: string[];
  imports: ImportObservation[];
  /** Whether the preload resolved the dropped files to paths on disk (Electron) or they were uploaded (web host). */
  droppedAs: "paths" | "uploads";
  citation: { chip: string; sectionId: string; label: string; page: number };
  graphNode: { label: string; sources: string[]; opened: string };
  timingsMs: Record<string, number>;
}

interface RowSample {
  name: string;
  state: string;
  meta: string;
  value: number;
  max: number;
}

/**
 * Drops files on the window with a real DataTransfer. The Files come from a file input filled by
 * Playwright (DOM.setFileInputFiles), so they are backed by the files on disk like an OS drag:
 * in Electron the preload resolves them to paths (webUtils.getPathForFile), in the browser the
 * renderer uploads their bytes.
 */
export async function dropFiles(page: Page, files: string[]): Promise<"paths" | "uploads"> {
  const inputId = `cg-e2e-drop-${Date.now()}`;
  await page.evaluate((id) => {
    const input = document.createElement("input");
    input.type = "file";
    input.multiple = true;
    input.id = id;
    input.hidden = true;
    document.body.append(input);
  }, inputId);
  const input = page.locator(`#${inputId}`);
  await input.setInputFiles(files);
  return input.evaluate((element) => {
    const picked = Array.from((element as HTMLInputElement).files ?? []);
    element.remove();
    const transfer = new DataTransfer();
    for (const file of picked) transfer.items.add(file);
    const zone = document.querySelector('[data-testid="drop-zone"]');
    if (zone === null) throw new Error("the app has no drop zone");
    for (const kind of ["dragenter", "dragover", "drop"]) {
      zone.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }
    const api = (window as { clausegraph?: { pathForFile?: (file: object) => string } }).clausegraph;
    const first = picked[0];
    return api?.pathForFile !== undefined && first !== undefined && api.pathForFile(first) !== "" ? "paths" : "uploads";
  });
}

/** Records every state the import rows show, so a fast step between two polls is not missed. */
async function recordImportRows(page: Page): Promise<void> {
  await page.evaluate(() => {
    const samples: RowSample[] = [];
    (window as { __cgImportSamples?: RowSample[] }).__cgImportSamples = samples;
    const record = (): void => {
      for (const row of Array.from(document.querySelectorAll('[data-testid="import-row"]'))) {
        const bar = row.querySelector("progress");
        const sample = {
          name: row.querySelector(".row-title")?.textContent ?? "",
          state: row.getAttribute("data-state") ?? "",
          meta: row.querySelector(".row-meta")?.textContent ?? "",
          value: bar?.hasAttribute("max") ? bar.value : 0,
          max: bar?.hasAttribute("max") ? bar.max : 0,
        };
        const last = samples.findLast((s) => s.name === sample.name);
        if (last === undefined || last.state !== sample.state || last.meta !== sample.meta || last.value !== sample.value) samples.push(sample);
      }
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

async function importSamples(page: Page): Promise<RowSample[]> {
  return page.evaluate(() => (window as { __cgImportSamples?: RowSample[] }).__cgImportSamples ?? []);
}

/** Whether the rendered PDF canvas holds ink (a blank canvas means pdf.js drew nothing). */
export async function canvasHasInk(page: Page): Promise<boolean> {
  return page.getByTestId("pdf-canvas").evaluate((canvas) => {
    const c = canvas as HTMLCanvasElement;
    const ctx = c.getContext("2d");
    if (ctx === null || c.width === 0) return false;
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128) dark++;
    return dark > 50;
  });
}

/** The first page a chip names: "GDPR Art. 33(1), (2), p. 163" → 163, "… pp. 12–13" → 12. */
export function chipPage(text: string): number {
  const match = /\bpp?\. (\d+)/.exec(text);
  if (match?.[1] === undefined) throw new Error(`citation chip "${text}" names no page`);
  return Number(match[1]);
}

export interface OpenedChip {
  text: string;
  /** The page the chip names (as printed on it) and the viewer shows. */
  page: number;
  /** The PDF page the viewer draws (the printed page can differ: a cover without a number). */
  pdfPage: number;
  /** The section's page badge, e.g. "pp. 172–173". */
  sectionPages: string;
}

/** Clicks a citation chip and checks the viewer shows its section on the page the chip names. */
export async function openCitationChip(page: Page, chip: Locator): Promise<OpenedChip> {
  const text = (await chip.textContent()) ?? "";
  const cited = chipPage(text);
  await chip.click();
  await expect.poll(() => page.getByTestId("section-view").getAttribute("data-section-id")).toBe(await chip.getAttribute("data-section-id"));
  await page.locator('[data-testid="pdf-page"][data-rendered="true"]').waitFor({ timeout: 30_000 });
  // The viewer names the printed page first ("Page 162 (PDF page 163)"), as the chip does.
  const indicator = (await page.getByTestId("page-indicator").textContent()) ?? "";
  expect(/^Page (\S+)/.exec(indicator)?.[1], `page shown for chip "${text}"`).toBe(String(cited));
  const pdfPage = Number(await page.getByTestId("pdf-page").getAttribute("data-page"));
  const sectionPages = (await page.getByTestId("section-pages").textContent()) ?? "";
  const [first = NaN, last = first] = (sectionPages.match(/\d+/g) ?? []).map(Number);
  expect(pdfPage).toBeGreaterThanOrEqual(first);
  expect(pdfPage).toBeLessThanOrEqual(last);
  return { text, page: cited, pdfPage, sectionPages };
}

/** Human words, not a code, a stack or an internal path. */
function expectReadable(text: string): void {
  expect(text.trim().length).toBeGreaterThan(10);
  expect(text).not.toMatch(/\b(at \S+:\d+|Error:|undefined|null|\[object|ENCRYPTED|CORRUPT|NO_TEXT_LAYER|INTERNAL)\b/);
  expect(text).not.toMatch(/[/\\]uploads?[/\\]/);
}

/** How near the canvas's centre a node the list picked is drawn, in pixels. */
const CENTRED_PX = 40;

export async function runAuditorFlow(page: Page, options: AuditorFlowOptions): Promise<AuditorFlowReport> {
  const log = options.log ?? (() => {});
  const screenshots: string[] = [];
  const timingsMs: Record<string, number> = {};
  await mkdir(options.screenshotDir, { recursive: true });
  const shot = async (name: string): Promise<void> => {
    const file = path.join(options.screenshotDir, `${options.screenshotPrefix}-${name}.png`);
    await page.screenshot({ path: file });
    screenshots.push(file);
  };
  const timed = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const value = await step();
    timingsMs[name] = Date.now() - started;
    log(`${name}: ${(timingsMs[name] / 1000).toFixed(1)} s`);
    return value;
  };
  const documentRow = (fileName: string) =>
    page.getByTestId("document-row").filter({ has: page.getByTestId("document-file").getByText(fileName, { exact: true }) });

  // 1. Library: two regulations dropped on the window import with visible progress, then are ready.
  // A fresh data dir: the engine may first build its default embedding model (Electron starts it lazily).
  await page.getByTestId("library-empty").waitFor({ timeout: 90_000 });
  await recordImportRows(page);
  const names = options.documents.map((file) => path.basename(file));
  const droppedAs = await timed("drop", () => dropFiles(page, options.documents));
  await page.getByTestId("import-row").first().waitFor();
  // The screenshot shows a row at work (a step with a count), unless the imports already finished.
  await page.locator('[data-testid="import-progress"][max]').or(page.getByTestId("document-row")).first().waitFor({ timeout: 60_000 });
  await shot("0-importing");
  await timed("import", async () => {
    for (const name of names) {
      const row = documentRow(name);
      await row.waitFor({ timeout: options.importTimeoutMs ?? 150_000 });
      expect(await row.getAttribute("data-status")).toBe("done");
      expect(await row.getByTestId("document-status").textContent()).toBe("Ready");
    }
  });
  await expect.poll(() => page.getByTestId("import-row").count()).toBe(0);
  expect(await page.getByTestId("document-row").count()).toBe(names.length);
  const samples = await importSamples(page);
  const imports: ImportObservation[] = names.map((file) => {
    const own = samples.filter((s) => s.name === file);
    return {
      file,
      states: own.map((s) => s.meta).filter((meta, i, all) => meta !== "" && all.indexOf(meta) === i),
      maxFraction: Math.max(0, ...own.map((s) => (s.max > 0 ? s.value / s.max : 0))),
    };
  });
  for (const observed of imports) {
    // Each file showed its own progress (steps in words, a bar with a total) before it was ready.
    expect(observed.states.length, `${observed.file} showed no progress`).toBeGreaterThan(0);
    expect(observed.maxFraction, `${observed.file}'s progress bar never moved`).toBeGreaterThan(0);
  }
  const stats = (await page.getByTestId("library-stats").textContent()) ?? "";
  expect(stats).toMatch(new RegExp(`^${names.length} documents · \\d+ sections$`));
  await shot("1-library-done");

  // 2. Chat: the question is answered with citation chips.
  const question = page.getByTestId("question-input");
  await question.fill(options.question);
  await question.press("Enter");
  const turn = page.getByTestId("chat-turn").last();
  await timed("answer", () => expect.poll(() => turn.getAttribute("data-status"), { timeout: options.answerTimeoutMs ?? 60_000 }).toBe("done"));
  const answer = turn.getByTestId("answer");
  await answer.waitFor();
  expect(((await answer.textContent()) ?? "").length).toBeGreaterThan(40);
  const chips = answer.getByTestId("answer-sources").getByTestId("citation-chip");
  expect(await chips.count()).toBeGreaterThan(0);
  const chipTexts = await chips.allTextContents();
  const chipIndex = Math.max(
    0,
    chipTexts.findIndex((t) => options.citation.test(t)),
  );
  const chip = chips.nth(chipIndex);
  const chipText = chipTexts[chipIndex] ?? "";
  expect(chipText, `no citation chip matches ${options.citation}: ${chipTexts.join(" | ")}`).toMatch(options.citation);
  const page0 = chipPage(chipText);
  const sectionId = (await chip.getAttribute("data-section-id")) ?? "";
  expect(sectionId).not.toBe("");
  await shot("2-answer");

  // 3. Viewer: every chip opens its section on the page it names, drawn from the PDF; the chosen
  //    one (last, for the screenshot) shows the label the answer cites.
  const view = page.getByTestId("section-view");
  const openChip = (index: number): Promise<OpenedChip> => openCitationChip(page, chips.nth(index));
  await timed("citations", async () => {
    for (let i = 0; i < chipTexts.length; i++) {
      if (i === chipIndex) continue;
      const opened = await openChip(i);
      log(`chip "${opened.text}" opened its section (${opened.sectionPages}) on p. ${opened.page}`);
    }
    await openChip(chipIndex);
  });
  const label = (await page.getByTestId("section-label").textContent()) ?? "";
  expect(label).toMatch(options.sectionLabel);
  expect(await canvasHasInk(page)).toBe(true);
  expect(await page.getByTestId("pdf-highlight").count()).toBeGreaterThan(0);
  await shot("3-viewer");

  // 4. Graph: a node of the answer's graph lists the sections it comes from and opens one; a real
  //    click on the drawing does the same as the list (which centres the node it picks).
  const canvas = page.getByTestId("graph-canvas");
  await expect.poll(async () => Number(await canvas.getAttribute("data-node-count"))).toBeGreaterThan(1);
  await page.getByTestId("graph-list-toggle").click();
  const candidates = page.locator('[data-testid="graph-list-node"]:not([data-kind="section"])');
  const candidateCount = Math.min(await candidates.count(), 8);
  expect(candidateCount, "the answer's graph has no entity or term node").toBeGreaterThan(0);
  const sources = page.getByTestId("node-source");
  let nodeIndex = 0;
  // A node stated by several sections shows the related sections best; the first one is the fallback.
  for (let i = 0; i < candidateCount; i++) {
    const candidate = candidates.nth(i);
    await candidate.click();
    await expect.poll(() => page.locator(".node-sources-title").textContent()).toBe(await candidate.textContent());
    // An entity's sections (every one stating a fact about it) come from the library: wait for them.
    await page.locator('[data-testid="node-sources"][data-loading="false"]').waitFor();
    if ((await sources.count()) >= 2) {
      nodeIndex = i;
      break;
    }
  }
  const node = candidates.nth(nodeIndex);
  const nodeLabel = (await node.textContent()) ?? "";
  await node.click();
  await expect.poll(() => page.locator(".node-sources-title").textContent()).toBe(nodeLabel);
  await page.locator('[data-testid="node-sources"][data-loading="false"]').waitFor();
  expect(await sources.count()).toBeGreaterThan(0);
  const sourceLabels = await sources.allTextContents();
  const sourceIds = await sources.evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-section-id") ?? ""));
  // The node opened the first section it comes from.
  const firstSectionId = sourceIds[0];
  await expect.poll(() => view.getAttribute("data-section-id")).toBe(firstSectionId);
  expect(sourceLabels[0]).toContain((await page.getByTestId("section-label").textContent()) ?? "");
  await page.getByTestId("graph-list-toggle").click();
  let opened = sourceLabels[0] ?? "";
  if (sourceLabels.length >= 2) {
    // Open another related section from the list…
    await sources.nth(1).click();
    await expect.poll(() => view.getAttribute("data-section-id")).toBe(sourceIds[1]);
    opened = sourceLabels[1] ?? "";
    // …then a real click on the node, brought to the centre of the drawing, brings back the first.
    // Where Cytoscape drew it, once its move has ended (a busy machine draws the move slowly).
    const nodeId = (await node.getAttribute("data-node-id")) ?? "";
    const at = (): Promise<{ x: number; y: number; w: number; h: number } | null> =>
      page.evaluate((id) => {
        type Cy = { getElementById(id: string): { empty(): boolean; renderedPosition(): { x: number; y: number } }; width(): number; height(): number };
        const cy = (document.querySelector('[data-testid="graph-canvas"]') as (HTMLElement & { _cyreg?: { cy?: Cy } }) | null)?._cyreg?.cy;
        const n = cy?.getElementById(id);
        return cy === undefined || n === undefined || n.empty() ? null : { ...n.renderedPosition(), w: cy.width(), h: cy.height() };
      }, nodeId);
    await expect
      .poll(
        async () => {
          const p = await at();
          return p !== null && Math.hypot(p.x - p.w / 2, p.y - p.h / 2) < CENTRED_PX;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const box = await canvas.boundingBox();
    const position = await at();
    if (box === null || position === null) throw new Error("the graph canvas has no box, or the node is not drawn");
    await page.mouse.click(box.x + position.x, box.y + position.y);
    await expect.poll(() => view.getAttribute("data-section-id")).toBe(firstSectionId);
  }
  await page.locator('[data-testid="pdf-page"][data-rendered="true"]').waitFor({ timeout: 30_000 });
  await shot("4-graph-node");

  // 5. Bad input: every bad file gets a readable error in the library; nothing already there changes.
  await page.getByTestId("tab-library").click();
  const rowsBefore = await page.getByTestId("document-row").allTextContents();
  await timed("bad-input", async () => {
    await dropFiles(
      page,
      options.badInputs.map((b) => b.file),
    );
    for (const bad of options.badInputs) {
      const row = page.getByTestId("import-row").filter({ hasText: path.basename(bad.file) });
      await expect.poll(() => row.getAttribute("data-state"), { timeout: 30_000 }).toBe("failed");
      const error = row.getByTestId("import-error");
      expect(await error.getAttribute("data-code")).toBe(bad.code);
      const text = (await error.textContent()) ?? "";
      expectReadable(text);
      expect(text).toMatch(bad.says);
    }
    await shot("5-bad-input");
    for (const bad of options.badInputs) {
      const row = page.getByTestId("import-row").filter({ hasText: path.basename(bad.file) });
      if (bad.code === "ENCRYPTED") {
        // The library asks for the password; a wrong one is refused just as clearly.
        await row.getByTestId("password-input").fill("not-the-password");
        await row.getByTestId("password-input").press("Enter");
        await expect.poll(() => row.getByTestId("import-error").getAttribute("data-code"), { timeout: 30_000 }).toBe("WRONG_PASSWORD");
        expectReadable((await row.getByTestId("import-error").textContent()) ?? "");
        await row.getByTestId("password-input").waitFor();
      }
    }
  });
  expect(await page.getByTestId("document-row").allTextContents()).toEqual(rowsBefore);
  expect(await page.getByTestId("library-stats").textContent()).toBe(stats);
  await shot("6-wrong-password");

  return {
    screenshots,
    imports,
    droppedAs,
    citation: { chip: chipText, sectionId, label, page: page0 },
    graphNode: { label: nodeLabel, sources: sourceLabels, opened },
    timingsMs,
  };
}
