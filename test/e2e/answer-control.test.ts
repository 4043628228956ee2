import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { ARCHIVE_QUESTION, ARCHIVE_RULES } from "../helpers/archive-rules.ts";
import { endlessLlm } from "../helpers/endless-llm.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";
import { HAS_CHROMIUM } from "./flows/chromium.ts";
import { openEngineInBrowser, type EngineBrowser } from "./flows/engine-browser.ts";
import { RESULTS_DIR } from "./flows/renderer-build.ts";

// The header shows the model's name and the caps on its
// answers (changeable in the model menu, kept by the engine); a model that would write forever is
// stopped by the time cap and the answer says so prominently, above the quoted sentences, naming
// the model; Stop ends a streaming answer at once. The model is a scripted endless one.

(HAS_CHROMIUM ? describe : describe.skip)("answers under control in the browser (web host, Chromium)", () => {
  let tmp: string;
  let engine: Engine;
  const llm = endlessLlm(() => "Answer: It depends on many things", 20);
  let browser: EngineBrowser;
  let page: Page;
  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: path.join(RESULTS_DIR, `answer-control-${name}.png`) });

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-answer-control-"));
    await writeFile(path.join(tmp, "rules.txt"), ARCHIVE_RULES);
    engine = await createEngine({ dataDir: path.join(tmp, "data"), embedder: hashEmbedder("hash-32", 32), llm });
    expect((await engine.importFiles([path.join(tmp, "rules.txt")]))[0]?.status).toBe("ok");
    browser = await openEngineInBrowser(engine, tmp);
    page = browser.page;
    await page.getByTestId("document-row").first().waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await engine?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("shows the caps by the model picker and saves new ones", async () => {
    await expect.poll(() => page.getByTestId("answer-limits").textContent()).toBe("≤ 512 tokens · 120 s");
    await page.getByTestId("model-picker").click();
    await page.getByTestId("max-seconds-input").fill("5");
    await page.getByTestId("max-tokens-input").fill("300");
    await shot("1-limits-menu");
    await page.getByTestId("save-limits").click();
    await expect.poll(() => page.getByTestId("answer-limits").textContent()).toBe("≤ 300 tokens · 5 s");
    expect((await engine.listModels()).limits).toEqual({ maxTokens: 300, maxSeconds: 5 });
    await page.keyboard.press("Escape");
  });

  it("Stop, and Esc, end a streaming answer at once: the engine's generation stops too", async () => {
    for (const stop of [() => page.getByTestId("cancel-ask").click(), () => page.keyboard.press("Escape")]) {
      await page.getByTestId("question-input").fill(ARCHIVE_QUESTION);
      await page.getByTestId("ask-button").click();
      await expect.poll(() => page.getByTestId("answer-streaming").textContent(), { timeout: 10_000 }).toMatch(/and more/);
      expect(llm.running).toBe(1);
      await stop();
      await page.getByTestId("answer-cancelled").last().waitFor({ timeout: 10_000 });
      expect(await page.getByTestId("cancel-ask").count()).toBe(0);
      await expect.poll(() => llm.running, { timeout: 10_000, interval: 20 }).toBe(0);
    }
  });

  it("keeps a pasted text over the question limit whole, counts it, and asks only once it is short enough", async () => {
    const input = page.getByTestId("question-input");
    const turnsBefore = await page.getByTestId("chat-turn").count();
    const finding = `${"Finding: the vendor kept backups in a second region. ".repeat(40)}${ARCHIVE_QUESTION}`;
    expect(finding.length).toBeGreaterThan(2000);
    await input.fill(finding);
    // Nothing is cut: the question at the end of the paste is still there.
    expect((await input.inputValue()).length).toBe(finding.length);
    await expect
      .poll(() => page.getByTestId("question-length").textContent())
      .toMatch(/^[\d,]+ \/ 2,000 characters — shorten the question by [\d,]+ to ask it$/);
    expect(await page.getByTestId("ask-button").isDisabled()).toBe(true);
    await input.press("Enter");
    expect(await page.getByTestId("chat-turn").count()).toBe(turnsBefore);
    await shot("0-too-long");
    await input.fill(ARCHIVE_QUESTION);
    expect(await page.getByTestId("question-length").count()).toBe(0);
    expect(await page.getByTestId("ask-button").isDisabled()).toBe(false);
    await input.fill("");
  });

  it("the time cap stops the model and the answer says why, naming the model", async () => {
    await page.getByTestId("question-input").fill(ARCHIVE_QUESTION);
    await page.getByTestId("ask-button").click();
    const turn = page.getByTestId("chat-turn").last();
    await turn.getByTestId("answer-notice").waitFor({ timeout: 20_000 });
    expect(await turn.getByTestId("answer-notice").getAttribute("data-reason")).toBe("time-limit");
    expect(await turn.getByTestId("answer-notice").textContent()).toMatch(/5 s time limit.*quoted from the documents/);
    expect(await turn.getByTestId("answer-model").textContent()).toBe("Quoted instead of scripted-endless's answer");
    expect(await turn.getByTestId("answer").textContent()).toMatch(/72 hours/);
    await shot("2-time-limit");
    expect(browser.problems).toEqual([]);
  }, 60_000);
});
