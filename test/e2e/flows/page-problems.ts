import type { BrowserContext, Page } from "playwright-core";

// Everything a page reports that a person would call broken: uncaught exceptions, console errors
// and Content-Security-Policy refusals. The e2e tests assert the list is empty at the end.

/**
 * Makes CSP refusals explicit console errors: Chromium does not log every one by itself (a
 * refused `new Function` inside a try/catch is only a `securitypolicyviolation` event).
 */
const REPORT_CSP = `if (!window.__cgCspReporter) {
  window.__cgCspReporter = true;
  document.addEventListener("securitypolicyviolation", (e) => {
    console.error("[csp-violation] " + e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " in " + e.sourceFile + ":" + e.lineNumber);
  });
}`;

/** Collects the page's errors from now on into the returned array. */
export function collectProblems(page: Page, problems: string[] = []): string[] {
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const where = msg.location();
    problems.push(`console: ${msg.text()} at ${where.url}:${where.lineNumber}`);
  });
  page.on("crash", () => problems.push("the page crashed"));
  return problems;
}

/** Reports CSP violations of every document loaded in the context after this call. */
export async function reportCspViolations(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript({ content: REPORT_CSP });
}

/** Reports CSP violations of the document already loaded (for windows opened before the init script). */
export async function reportCspViolationsNow(page: Page): Promise<void> {
  await page.evaluate(REPORT_CSP);
}

/** Errors and CSP violations of the page; call before the first navigation. */
export async function watchProblems(page: Page): Promise<string[]> {
  const problems = collectProblems(page);
  await reportCspViolations(page);
  return problems;
}
