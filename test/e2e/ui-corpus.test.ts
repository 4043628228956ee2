import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startWebHost } from "../../core/host/web-host.ts";
import type { WebHost } from "../../core/host/web-host.ts";
import { HAS_CORPUS, describeCorpus } from "../helpers/corpus.ts";
import { openCitationChip, runAuditorFlow } from "./flows/auditor-flow.ts";
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from "./flows/chromium.ts";
import { corpusFlowOptions } from "./flows/corpus-flow-options.ts";
import { watchProblems } from "./flows/page-problems.ts";
import { buildRendererInto } from "./flows/renderer-build.ts";

// The end-to-end test: the built UI in headless Chromium against the web host and the real
// engine on a temporary data dir, with two real regulations from the shared corpus.

if (HAS_CORPUS && !HAS_CHROMIUM) console.warn(`[e2e] ui-corpus skipped: ${CHROMIUM} is missing`);
const itBrowser = HAS_CHROMIUM ? it : it.skip;

describeCorpus("auditor flow in Chromium against the web host (GDPR + DORA)", () => {
  let tmp: string | undefined;
  let host: WebHost | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let problems: string[] = [];

  beforeAll(async () => {
    if (!HAS_CHROMIUM) return;
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-ui-corpus-"));
    const staticDir = path.join(tmp, "renderer");
    await buildRendererInto(staticDir);
    host = await startWebHost({ dataDir: path.join(tmp, "data"), port: 0, staticDir });
    context = await launchChromium(path.join(tmp, "chromium-profile"));
    page = context.pages()[0] ?? (await context.newPage());
    problems = await watchProblems(page);
    await page.goto(host.url);
  });

  afterAll(async () => {
    await context?.close();
    await host?.close();
    if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
  });

  itBrowser("imports, answers with a citation, opens it on its page, explores the graph and refuses bad files", { timeout: 300_000 }, async () => {
    const report = await runAuditorFlow(
      page,
      corpusFlowOptions("corpus-web", (line) => console.log(`[e2e web] ${line}`)),
    );
    expect(report.droppedAs).toBe("uploads");
    console.log(`[e2e web] citation ${report.citation.chip} → ${report.citation.label}, p. ${report.citation.page}`);
    console.log(`[e2e web] graph node "${report.graphNode.label}" → ${report.graphNode.sources.join(", ")}; opened ${report.graphNode.opened}`);
    for (const i of report.imports)
      console.log(
        `[e2e web] ${i.file}: ${i.states.length} progress states (${i.states.slice(0, 2).join(" → ")} … ${i.states.slice(-2).join(" → ")}), bar up to ${(i.maxFraction * 100).toFixed(0)}%`,
      );
    console.log(`[e2e web] screenshots: ${report.screenshots.map((s) => path.basename(s)).join(", ")}`);
  });

  // Article 38 spans pp. 172–173 and is cited on p. 173: the chip must not open the section's first page.
  itBrowser("opens every citation chip of another answer on the page the chip names", async () => {
    const question = page.getByTestId("question-input");
    await question.fill("What are the tasks of the data protection officer?");
    await question.press("Enter");
    const turn = page.getByTestId("chat-turn").last();
    await expect.poll(() => turn.getAttribute("data-status"), { timeout: 60_000 }).toBe("done");
    const chips = turn.getByTestId("answer-sources").getByTestId("citation-chip");
    expect(await chips.count()).toBeGreaterThan(0);
    const later: string[] = [];
    for (let i = 0; i < (await chips.count()); i++) {
      const opened = await openCitationChip(page, chips.nth(i));
      if (!opened.sectionPages.startsWith(`p. ${opened.pdfPage}`) && !opened.sectionPages.startsWith(`pp. ${opened.pdfPage}–`)) later.push(opened.text);
    }
    console.log(`[e2e web] chips citing a later page of their section, opened there: ${later.length > 0 ? later.join(", ") : "none in this answer"}`);
  });

  itBrowser("raised no page error, console error or CSP violation", () => {
    expect(problems).toEqual([]);
  });
});
